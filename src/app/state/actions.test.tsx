// @vitest-environment happy-dom
import { sha256 } from '../../core/test-support/sha256';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CompilerFailure } from '../components/CompilerFailure';
import { installFakeApi, resetStores } from '../test-support';
import { createLatestWins, failClosed } from './actions';
import { useResultStore } from './result-store';
import { createSqliteCompiler, type SqliteCompiler } from '../../adapters/sqlite/compiler';
import { sharedDriver } from '../../core/test-support/node-driver';
import { readBuiltinScenarios } from '../../worker/workspace/builtin-sources';
import type { CompileResponse, CompileView } from '../../worker/protocol';
import { createSession } from '../../worker/session';
import { workerLikeApi } from '../../worker/test-support/worker-like-api';
import { setControl } from './workspace-actions';
import { useScenarioStore } from './scenario-store';
import { memoryStorage } from '../../worker/test-support/memory-storage';

describe('failClosed', () => {
  beforeEach(() => resetStores());
  afterEach(cleanup);

  it('keeps what was being done and why as catalogue words, and shows their wording without the stack', () => {
    const overflow = Object.assign(new RangeError('Maximum call stack size exceeded'), {
      stack: 'RangeError: Maximum call stack size exceeded\n    at lowerAdmission (lower-admission.ts:28:12)',
    });
    failClosed('LOADING_FILES', overflow);
    expect(useResultStore.getState().failure).toEqual({
      headline: { code: 'COMPILER_FAILED_WHILE', args: { during: 'LOADING_FILES' } },
      reason: { code: 'RAN_OUT_OF_STACK', args: { reason: 'Maximum call stack size exceeded' } },
    });
    expect(useResultStore.getState().response).toBeNull();
    render(<CompilerFailure />);
    expect(screen.getByRole('alert')).toHaveTextContent('NOT COMPILED — the compiler failed while loading files');
    expect(screen.getByTestId('compiler-failure-reason')).toHaveTextContent(
      'It ran out of stack space (Maximum call stack size exceeded), which usually means an input list is longer than it can handle.',
    );
    expect(screen.getByRole('alert')).not.toHaveTextContent('lower-admission.ts');
  });
});

let compiler: SqliteCompiler;

async function startSession() {
  const session = createSession({ compiler, storage: memoryStorage(), builtins: readBuiltinScenarios(sha256) });
  const workspace = await session.start();
  await session.select({ ...workspace.selection, scenarioKey: 'atlas-credit-review' });
  return session;
}

const CONTROLS = ['different-caller', 'grant-agent-permit', 'decide-one-day-later', 'officer-approves-waiver'];

/** 14 clicks over the scenario's four controls, and the controls they leave on. */
function clicks(): { readonly clicks: readonly { id: string; on: boolean }[]; readonly final: readonly string[] } {
  const on = new Set<string>();
  const list: { id: string; on: boolean }[] = [];
  for (let index = 0; index < 14; index += 1) {
    const id = CONTROLS[(index * 3) % CONTROLS.length] ?? '';
    const next = !on.has(id);
    if (next) on.add(id);
    else on.delete(id);
    list.push({ id, on: next });
  }
  return { clicks: list, final: CONTROLS.filter((id) => on.has(id)) };
}

const comparable = (view: CompileView) => ({ ...view, compilation: 0 });

describe('compilations asked for in a burst', () => {
  beforeAll(async () => {
    compiler = createSqliteCompiler(sha256, await sharedDriver());
  });

  beforeEach(async () => {
    resetStores();
  });

  it('compile only the latest state: 14 toggles in a row while one compiles are one more compilation, and no intermediate result is shown', async () => {
    const session = await startSession();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { api, posted, calls } = workerLikeApi(session, { beforeCompile: () => held });
    installFakeApi(api);
    useScenarioStore.setState({
      workspace: await session.select({ scenarioKey: 'atlas-credit-review', controls: [], lateChanges: [] }),
    });
    // Nothing of this session is on screen yet: the last state's marks have no compilation on screen to be against, as
    // a fresh session's.
    useResultStore.setState({ response: null });
    const shown: CompileResponse[] = [];
    const unsubscribe = useResultStore.subscribe((state, before) => {
      if (state.response !== before.response && state.response !== null) shown.push(state.response);
    });
    const { clicks: burst, final } = clicks();
    const [first, ...rest] = burst;
    if (!first) throw new Error('no clicks');
    const settled: Promise<void>[] = [setControl(first.id, first.on)];
    // The first click's compilation is on its way to the worker; the other 13 arrive behind it.
    while (!posted.includes('compile')) await new Promise((resolve) => setTimeout(resolve, 0));
    for (const click of rest) {
      const controls = useScenarioStore.getState().workspace?.selection.controls ?? [];
      expect(controls.includes(click.id)).toBe(!click.on);
      settled.push(setControl(click.id, click.on));
    }
    release();
    await Promise.all(settled);
    unsubscribe();

    // The compilation already sent, then the last state: none of the 12 in between.
    expect(calls.filter((call) => call === 'compile')).toHaveLength(2);
    expect([...(useScenarioStore.getState().workspace?.selection.controls ?? [])].sort()).toEqual([...final].sort());
    const fresh = await startSession();
    await fresh.select({ scenarioKey: 'atlas-credit-review', controls: [...final], lateChanges: [] });
    const expected = await fresh.compile('diagnostic');
    if (!expected.ok) throw new Error(expected.error.message);
    const state = useResultStore.getState();
    expect(state.compiling).toBe(false);
    if (!state.response?.ok) throw new Error('no result on screen');
    expect(comparable(state.response.view)).toEqual(comparable(expected.view));
    // The first click's answer arrived after the burst had superseded it: it was never on screen.
    expect(shown.map((response) => (response.ok ? response.view.controls : null))).toEqual([final]);
  });

  it('sends nothing while the inputs it would compile are still being changed, and one request for a whole burst', async () => {
    const sent: number[] = [];
    let state = 0;
    const latest = createLatestWins(async () => {
      sent.push(state);
    });
    let answer: () => void = () => undefined;
    const change = latest.changing(new Promise<void>((resolve) => (answer = resolve)));
    const requests = [1, 2, 3].map((value) => {
      state = value;
      return latest.request();
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sent).toEqual([]);
    answer();
    await change;
    await Promise.all(requests);
    expect(sent).toEqual([3]);
  });
});
