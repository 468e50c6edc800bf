import { sha256 } from '../../core/test-support/sha256';
// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../../adapters/sqlite/compiler';
import { sharedDriver } from '../../core/test-support/node-driver';
import { readBuiltinScenarios } from '../../worker/workspace/builtin-sources';
import { createSession } from '../../worker/session';
import { workerLikeApi } from '../../worker/test-support/worker-like-api';
import { DrillPanel } from '../components/DrillPanel';
import { LoadStatus } from '../components/LoadStatus';
import { installFakeApi, resetStores } from '../test-support';
import { compileNow } from './actions';
import { attemptContinue, freezeReceipt } from './drill-actions';
import { loadFiles, setControl } from './workspace-actions';
import { useScenarioStore } from './scenario-store';
import { memoryStorage } from '../../worker/test-support/memory-storage';

let compiler: SqliteCompiler;

/** Compilations wait until `release` is called, when `hold` is set: the screen can be read while one is on its way. */
const gate = { hold: false, release: () => undefined as void };
const held = () => (gate.hold ? new Promise<void>((resolve) => (gate.release = resolve)) : Promise.resolve());

async function connect() {
  const session = createSession({ compiler, storage: memoryStorage(), builtins: readBuiltinScenarios(sha256) });
  await session.start();
  const { api } = workerLikeApi(session, { beforeCompile: held });
  installFakeApi(api);
  useScenarioStore.setState({
    workspace: await session.select({ scenarioKey: 'atlas-credit-review', controls: [], lateChanges: [] }),
  });
  await compileNow();
  return session;
}

describe('verdicts on screen after the inputs change', () => {
  beforeAll(async () => {
    compiler = createSqliteCompiler(sha256, await sharedDriver());
  });
  beforeEach(() => {
    resetStores();
    gate.hold = false;
  });
  afterEach(cleanup);

  it('a loaded receipt is CURRENT until a control is switched on, then never: marked while compiling, judged again after', async () => {
    const session = await connect();
    const receipt = session.receiptJson();
    if (receipt === null) throw new Error('nothing compiled');
    render(<LoadStatus />);
    await loadFiles([new File([receipt], 'receipt-diagnostic.json', { type: 'application/json' })]);
    expect(screen.getByTestId('receipt-check')).toHaveTextContent('receipt-diagnostic.json: CURRENT — MAY CONTINUE');

    gate.hold = true;
    const toggled = setControl('grant-agent-permit', true);
    // From the click on, while it compiles, the verdict no longer speaks for the inputs.
    expect(await screen.findByText(/INPUTS CHANGED — CHECKING AGAIN/)).toBeInTheDocument();
    expect(screen.queryByText(/CURRENT — MAY CONTINUE/)).toBeNull();
    gate.hold = false;
    gate.release();
    await toggled;
    expect(screen.getByTestId('receipt-check')).toHaveTextContent(
      'receipt-diagnostic.json: STALE — RECOMPILE REQUIRED STALE_RECORD_SET',
    );

    await setControl('grant-agent-permit', false);
    expect(screen.getByTestId('receipt-check')).toHaveTextContent('CURRENT — MAY CONTINUE');
  });

  it("the drill's verdict is marked as about other inputs from the moment a control is switched on", async () => {
    await connect();
    render(<DrillPanel />);
    await freezeReceipt();
    await attemptContinue();
    expect(screen.getByTestId('drill-headline')).toHaveTextContent('CURRENT — MAY CONTINUE');
    gate.hold = true;
    const toggled = setControl('decide-one-day-later', true);
    // Still compiling: the verdict is about the inputs before the click.
    expect(await screen.findByTestId('drill-verdict-outdated')).toHaveTextContent('INPUTS CHANGED');
    expect(screen.queryByText(/CURRENT — MAY CONTINUE/)).toBeNull();
    gate.hold = false;
    gate.release();
    await toggled;
    expect(screen.getByTestId('drill-verdict-outdated')).toBeInTheDocument();
    await attemptContinue();
    expect(screen.getByTestId('drill-headline')).toHaveTextContent('STALE — RECOMPILE REQUIRED');
  });
});
