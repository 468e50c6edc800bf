import { sha256 } from '../test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSqliteCompiler } from '../../adapters/sqlite/compiler';
import type { Expectation } from '../format/expectation';
import { parseScenarioJson } from '../phases/1-validate/validate';
import { prepareScenario } from '../compile';
import { freshDriver } from '../test-support/node-driver';
import { observedIn, runSuite, type SuiteEnvironment } from './run';
import { parseExpectationSuiteJson, type CaseVariant } from './suite';
import { caseOf, expectationOf, refreshedExpectation } from './write';
import type { Audience } from '../disclosure';
import recordsText from '../../../fixtures/retry-policy/records.jsonl?raw';
import scenarioText from '../../../fixtures/retry-policy/scenario.json?raw';

let env: SuiteEnvironment;

beforeAll(async () => {
  const parsed = parseScenarioJson(sha256, 'scenario.json', scenarioText, (name) =>
    name === 'records.jsonl' ? recordsText : null,
  );
  if (!parsed.ok) throw new Error(parsed.error.message);
  const loaded = parsed.value;
  env = {
    compiler: createSqliteCompiler(sha256, await freshDriver()),
    prepare: (selection) => prepareScenario(sha256, loaded, selection),
  };
});

const variant = (controls: string[], expectation: Expectation = { outcome: 'packet' }): CaseVariant => ({
  caseIndex: 0,
  entry: { name: 'screen', description: '', controls, expect: expectation },
  selection: { controls, lateChanges: [] },
  label: null,
  path: ['cases', 0],
});

/** Runs the written case as `context-compiler test` would, from the suite's JSON text. */
async function runWritten(cases: unknown[], audience: Audience = 'diagnostic') {
  const parsed = parseExpectationSuiteJson(
    'saved.expect.json',
    JSON.stringify({ suite: 'saved', inputs: { scenario: 'retry-policy' }, cases }, null, 2),
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
  return (await runSuite(parsed.value, env, () => true, audience)).cases;
}

describe('a case written from what was observed', () => {
  it('states the packet in order, the evidence and each picked decision, and passes when run', async () => {
    const { expect: written, notShown } = expectationOf(
      await observedIn(variant(['future-reveal']), env, 'diagnostic'),
      ['ADR-0240', 'ADR-0234', 'NOPE-1'],
    );
    expect(written.outcome).toBe('packet');
    expect(written.selected?.inOrder?.[0]).toBe('ADR-0234');
    expect(written.records).toEqual({
      'ADR-0234': { decision: 'selected', code: 'SELECTED_REQUIRED', gates: [] },
      'ADR-0240': { decision: 'excluded', code: 'EXCLUDE_FUTURE', gates: ['time'] },
    });
    expect(notShown).toEqual(['NOPE-1']);
    const [result] = await runWritten([
      caseOf('from the screen', { controls: ['future-reveal'], lateChanges: [] }, written),
    ]);
    expect(result?.passed).toBe(true);
  });

  it('in the user view, states nothing about a record the view withholds and words it like one that is not there', async () => {
    const observed = await observedIn(variant([]), env, 'user');
    const shown = new Set(observed.compiled.ok ? observed.compiled.value.trace.map((row) => row.id) : []);
    const withheld = ['LGL-0007', 'CHAT-7731'].filter((id) => !shown.has(id));
    expect(withheld.length).toBeGreaterThan(0);
    const written = expectationOf(observed, [...withheld, 'NOPE-1']);
    expect(written.expect.records).toBeUndefined();
    expect(written.notShown).toEqual([...withheld, 'NOPE-1'].sort());
    expect(JSON.stringify(written.expect)).not.toMatch(new RegExp(withheld.join('|')));
  });

  it('writes a refusal as the outcome and its code', async () => {
    const written = expectationOf(await observedIn(variant(['tight-budget']), env, 'diagnostic'), []).expect;
    expect(written).toMatchObject({ outcome: 'fail_closed', failure: { code: 'REQUIRED_OVER_BUDGET' } });
    expect(
      (await runWritten([caseOf('refused', { controls: ['tight-budget'], lateChanges: [] }, written)]))[0]?.passed,
    ).toBe(true);
  });
});

describe('expectations updated after a deliberate change', () => {
  it('rewrites the values a failing case states, keeps the fields it names, and then passes', async () => {
    const stale: Expectation = {
      outcome: 'packet',
      selected: { inOrder: ['ADR-0234'], excludes: ['ADR-0240', 'ADR-0234'] },
      records: { 'ADR-0240': { code: 'EXCLUDE_SCOPE' }, 'NOPE-1': { decision: 'selected' } },
    };
    const before = (await runWritten([caseOf('stale', { controls: ['future-reveal'], lateChanges: [] }, stale)]))[0];
    expect(before?.passed).toBe(false);
    const refreshed = refreshedExpectation(
      stale,
      await observedIn(variant(['future-reveal'], stale), env, 'diagnostic'),
    );
    expect(Object.keys(refreshed.selected ?? {})).toEqual(['inOrder', 'excludes']);
    expect(refreshed.selected?.excludes).toEqual(['ADR-0240']);
    expect(refreshed.records).toEqual({ 'ADR-0240': { code: 'EXCLUDE_FUTURE' }, 'NOPE-1': { decision: 'selected' } });
    const { 'NOPE-1': _absent, ...records } = refreshed.records ?? {};
    const after = (
      await runWritten([caseOf('updated', { controls: ['future-reveal'], lateChanges: [] }, { ...refreshed, records })])
    )[0];
    expect(after?.mismatches).toEqual([]);
  });
});
