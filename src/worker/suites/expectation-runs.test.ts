import { sha256 } from '../../core/test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSqliteCompiler } from '../../adapters/sqlite/compiler';
import { parseScenarioJson, type LoadedScenario } from '../../core/phases/1-validate/validate';
import { freshDriver } from '../../core/test-support/node-driver';
import { createExpectationRuns, type ExpectationRuns } from './expectation-runs';
import recordsText from '../../../fixtures/retry-policy/records.jsonl?raw';
import scenarioText from '../../../fixtures/retry-policy/scenario.json?raw';
import shippedSuite from '../../../fixtures/retry-policy/poison-controls.expect.json?raw';

let scenario: LoadedScenario;
let runs: ExpectationRuns;

beforeAll(async () => {
  const parsed = parseScenarioJson(sha256, 'scenario.json', scenarioText, (name) =>
    name === 'records.jsonl' ? recordsText : null,
  );
  if (!parsed.ok) throw new Error(parsed.error.message);
  scenario = parsed.value;
  runs = createExpectationRuns(createSqliteCompiler(sha256, await freshDriver()));
});

const suiteText = (cases: unknown[]) =>
  JSON.stringify({ suite: 'exercise', inputs: { scenario: 'retry-policy' }, cases }, null, 2);
const screen = (controls: string[] = [], audience: 'diagnostic' | 'user' = 'diagnostic') => ({
  scenario,
  controls,
  lateChanges: [],
  audience,
});

describe('the Tests panel runs in the worker', () => {
  it('runs a shipped suite on the inputs on screen, every case passing', async () => {
    runs.clear();
    expect(runs.open('poison-controls.expect.json', shippedSuite)).toBeNull();
    const view = await runs.run(screen());
    expect(view.failed).toBe(0);
    expect(view.passed).toBeGreaterThan(0);
    expect(view.suites[0]?.inputsNote).toBeNull();
  });

  it('adds the switches on screen to each case: a case on the defaults turns red when a control is switched on, and says why', async () => {
    runs.clear();
    runs.open(
      't.expect.json',
      suiteText([
        {
          name: 'the default packet',
          expect: { selected: { inOrder: ['ADR-0234', 'RUN-0871', 'CFG-0310', 'PM-2207'] } },
        },
      ]),
    );
    expect((await runs.run(screen())).suites[0]?.cases[0]?.passed).toBe(true);
    const [red] = (await runs.run(screen(['tight-budget']))).suites[0]?.cases ?? [];
    expect(red?.passed).toBe(false);
    expect(red?.mismatches[0]?.place).toMatch(/^line \d+: cases\[0\]\.expect\.selected\.inOrder\[\d\]$/);
    expect(red?.mismatches[0]).toMatchObject({
      field: 'selected',
      subject: expect.stringContaining('packet ids in order'),
    });
  });

  it('refuses a bad suite with its file, line and field, and keeps the others', () => {
    runs.clear();
    runs.open('good.expect.json', suiteText([{ name: 'a packet', expect: { outcome: 'packet' } }]));
    const error = runs.open('bad.expect.json', suiteText([{ name: 'x', expect: { outcom: 'packet' } }]));
    expect(error?.issues?.[0]).toMatchObject({ file: 'bad.expect.json', path: 'cases[0].expect' });
    expect(runs.files()).toEqual(['good.expect.json']);
  });

  it('names a control the inputs on screen do not declare instead of running the suite', async () => {
    runs.clear();
    runs.open(
      't.expect.json',
      suiteText([{ name: 'c', controls: ['no-such-control'], expect: { outcome: 'packet' } }]),
    );
    const view = await runs.run(screen());
    expect(view.suites[0]?.problems).toEqual([
      'line 10: cases[0].controls[0]: no control "no-such-control": the inputs declare ' +
        scenario.scenario.controls.map((c) => c.id).join(', '),
    ]);
    expect(view.failed).toBe(1);
  });

  it('in the user view, checks nothing about a record the view withholds or one not there, alike, and names neither in a link', async () => {
    runs.clear();
    // Under legal hold: the deny rule withholds it from the user view.
    const withheld = 'LGL-0007';
    runs.open(
      't.expect.json',
      suiteText([
        {
          name: 'withheld',
          expect: { records: { [withheld]: { decision: 'selected' } }, selected: { includes: [withheld] } },
        },
        {
          name: 'absent',
          expect: { records: { 'NO-SUCH-1': { decision: 'selected' } }, selected: { includes: ['NO-SUCH-1'] } },
        },
      ]),
    );
    const diagnostic = (await runs.run(screen())).suites[0]?.cases ?? [];
    expect(diagnostic[0]?.mismatches.some((mismatch) => mismatch.subject === `record ${withheld}: decision`)).toBe(
      true,
    );
    const [hidden, absent] = (await runs.run(screen([], 'user'))).suites[0]?.cases ?? [];
    const shape = (entry: typeof hidden) => ({
      passed: entry?.passed,
      notChecked: entry?.notChecked,
      records: entry?.mismatches.map((mismatch) => mismatch.record),
      actual: entry?.mismatches.map((mismatch) => mismatch.actual),
    });
    expect(shape(hidden)).toEqual(shape(absent));
    expect(shape(hidden)).toEqual({
      passed: false,
      notChecked: 1,
      records: [null],
      actual: [expect.not.stringContaining(withheld)],
    });
  });
});
