import { sha256 } from '../test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSqliteCompiler } from '../../adapters/sqlite/compiler';
import { parseScenarioJson, type LoadedScenario } from '../phases/1-validate/validate';
import { prepareScenario } from '../compile';
import { freshDriver } from '../test-support/node-driver';
import { runSuite, type SuiteEnvironment } from './run';
import { checkSwitches, isSuiteDocument, parseExpectationSuiteJson, type LoadedSuite } from './suite';
import recordsText from '../../../fixtures/retry-policy/records.jsonl?raw';
import scenarioText from '../../../fixtures/retry-policy/scenario.json?raw';

function loadRetryPolicy(): LoadedScenario {
  const parsed = parseScenarioJson(sha256, 'scenario.json', scenarioText, (name) =>
    name === 'records.jsonl' ? recordsText : null,
  );
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

let env: SuiteEnvironment;

beforeAll(async () => {
  const loaded = loadRetryPolicy();
  env = {
    compiler: createSqliteCompiler(sha256, await freshDriver()),
    prepare: (selection) => prepareScenario(sha256, loaded, selection),
  };
});

function suite(cases: unknown[]): LoadedSuite {
  const parsed = parseExpectationSuiteJson(
    't.expect.json',
    JSON.stringify({ suite: 's', inputs: { scenario: 'retry-policy' }, cases }, null, 2),
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
  return parsed.value;
}

describe('the expectation runner', () => {
  it('passes true expectations about the packet, a record, the drill and the naive packet', async () => {
    const result = await runSuite(
      suite([
        {
          name: 'holds',
          expect: {
            outcome: 'packet',
            selected: { inOrder: ['ADR-0234', 'RUN-0871', 'CFG-0310', 'PM-2207'], excludes: ['RUN-0880'] },
            records: {
              'CHAT-7731': { decision: 'excluded', code: 'EXCLUDE_SOURCE', gates: ['source', 'authority', 'review'] },
            },
            drill: {
              lateChanges: ['promote-run-0880'],
              action: 'recompile_required',
              afterRecompile: 'RECEIPT_CURRENT',
            },
            naive: { illegal: 5, requiredMissed: ['ADR-0234'] },
          },
        },
      ]),
      env,
    );
    expect(result.cases.map((entry) => [entry.name, entry.passed, entry.mismatches])).toEqual([['holds', true, []]]);
  });

  it('names the field, the record, the expected and the actual value of each expectation that does not hold', async () => {
    const [result] = (
      await runSuite(
        suite([
          {
            name: 'wrong',
            controls: ['future-reveal'],
            expect: {
              selected: { inOrder: ['ADR-0234', 'CFG-0310'], includes: ['ADR-0240'] },
              records: { 'ADR-0240': { code: 'EXCLUDE_SCOPE' } },
              naive: { illegal: 2 },
            },
          },
        ]),
        env,
      )
    ).cases;
    expect(result?.passed).toBe(false);
    expect(result?.mismatches).toEqual([
      expect.objectContaining({
        path: ['cases', 0, 'expect', 'selected', 'inOrder', 1],
        record: 'CFG-0310',
        expected: 'ADR-0234, CFG-0310',
        actual: 'ADR-0234, RUN-0871, CFG-0310, PM-2207',
      }),
      expect.objectContaining({ path: ['cases', 0, 'expect', 'selected', 'includes', 0], record: 'ADR-0240' }),
      // The actual row is worded through the catalogue: its code and its fact.
      expect.objectContaining({
        path: ['cases', 0, 'expect', 'records', 'ADR-0240', 'code'],
        record: 'ADR-0240',
        expected: 'EXCLUDE_SCOPE',
        actual: 'excluded EXCLUDE_FUTURE: known_at 2026-04-02 > as_of 2026-03-16 (fails time)',
      }),
      expect.objectContaining({
        path: ['cases', 0, 'expect', 'naive', 'illegal'],
        expected: '2',
        actual: '5 (ADR-0231, ADR-0240, LED-0045, PRP-0019, MOB-0112)',
      }),
    ]);
  });

  it('runs each row of a matrix on its own, and counts a refusal as fail-closed', async () => {
    const result = await runSuite(
      suite([
        {
          name: 'no packet',
          matrix: [
            { controls: ['remove-provenance'] },
            { name: 'budget', controls: ['tight-budget'] },
            { controls: [] },
          ],
          expect: { failure: { code: 'REQUIRED_OVER_BUDGET' } },
        },
      ]),
      env,
    );
    expect(result.cases.map((entry) => [entry.name, entry.passed, entry.path])).toEqual([
      ['no packet [controls remove-provenance]', false, ['cases', 0, 'matrix', 0]],
      ['no packet [budget]', true, ['cases', 0, 'matrix', 1]],
      ['no packet [no controls]', false, ['cases', 0, 'matrix', 2]],
    ]);
    expect(result.cases[0]?.mismatches[0]).toMatchObject({
      expected: 'REQUIRED_OVER_BUDGET',
      actual: 'fail_closed REQUIRED_MISSING_PROVENANCE on ADR-0234: no provenance recorded',
    });
    expect(result.cases[2]?.mismatches[0]).toMatchObject({
      subject: 'outcome',
      expected: 'fail_closed',
      actual: 'packet of 4 (ADR-0234, RUN-0871, CFG-0310, PM-2207)',
    });
  });

  it('filters cases by suite or case name', async () => {
    const loaded = suite([
      { name: 'a', expect: { outcome: 'packet' } },
      { name: 'b', expect: { outcome: 'packet' } },
    ]);
    expect(
      (await runSuite(loaded, env, (_suite, _variant, name) => name === 'b')).cases.map((entry) => entry.name),
    ).toEqual(['b']);
  });
});

describe('reading an expectation suite', () => {
  const read = (text: string) => parseExpectationSuiteJson('x.expect.json', text);

  it.each([
    [
      'an unknown expectation',
      '{\n  "suite": "s",\n  "inputs": { "scenario": "retry-policy" },\n  "cases": [\n    { "name": "a", "expect": { "selectd": {} } }\n  ]\n}',
      5,
      'cases[0].expect',
      /unknown field "selectd"/,
    ],
    [
      'a reason code not in the catalogue',
      '{\n  "suite": "s",\n  "inputs": { "scenario": "retry-policy" },\n  "cases": [\n    {\n      "name": "a",\n      "expect": { "failure": { "code": "NOPE" } }\n    }\n  ]\n}',
      7,
      'cases[0].expect.failure.code',
      /NOPE/,
    ],
    [
      'two sources of inputs',
      '{\n  "suite": "s",\n  "inputs": { "scenario": "retry-policy", "scenarioFile": "x.json" },\n  "cases": [{ "name": "a", "expect": { "outcome": "packet" } }]\n}',
      3,
      'inputs',
      /give one of scenario, scenarioFile/,
    ],
    [
      'a case that expects nothing',
      '{\n  "suite": "s",\n  "inputs": { "scenario": "retry-policy" },\n  "cases": [\n    { "name": "a", "expect": {} }\n  ]\n}',
      5,
      'cases[0].expect',
      /expects nothing/,
    ],
    [
      'two cases with one name',
      '{\n  "suite": "s",\n  "inputs": { "scenario": "retry-policy" },\n  "cases": [\n    { "name": "a", "expect": { "outcome": "packet" } },\n    { "name": "a", "expect": { "outcome": "packet" } }\n  ]\n}',
      6,
      'cases[1].name',
      /duplicate case name "a"/,
    ],
    [
      'a reserved key as a record id',
      '{\n  "suite": "s",\n  "inputs": { "scenario": "retry-policy" },\n  "cases": [\n    { "name": "a", "expect": { "records": { "__proto__": { "code": "SELECTED_RANKED" } } } }\n  ]\n}',
      5,
      'cases[0].expect.records.__proto__',
      /unknown field "__proto__"/,
    ],
    ['a syntax error', '{\n  "suite": "s",\n  "inputs": {\n}}}', 4, '(root)', /not valid JSON/],
  ])('refuses %s with file, line and field', (_what, text, line, path, message) => {
    const parsed = read(text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error.message).toMatch(/^x\.expect\.json: not a valid expectation suite/);
    expect(parsed.error.issues?.[0]).toMatchObject({ file: 'x.expect.json', line, path });
    expect(parsed.error.issues?.[0]?.message).toMatch(message);
  });

  it("carries a suite rule's refusal as its catalogue code and arguments, worded by the catalogue alone", () => {
    const parsed = read(
      '{"suite": "s", "inputs": {"scenario": "retry-policy"}, "cases": [' +
        '{"name": "a", "skip": true, "only": true, "expect": {"outcome": "packet"}},' +
        '{"name": "a", "expect": {"outcome": "packet"}}]}',
    );
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error.issues?.map(({ code, args, message }) => ({ code, args, message }))).toEqual([
      { code: 'SKIP_WITH_ONLY', args: {}, message: 'give skip or only, not both' },
      {
        code: 'DUPLICATE_CASE_NAME',
        args: { name: '"a"', first: '[0]' },
        message: 'duplicate case name "a": first used at [0]',
      },
    ]);
  });

  it('refuses controls and late changes the inputs do not declare, at their line', () => {
    const loaded = suite([
      {
        name: 'a',
        controls: ['future-reveal', 'nope'],
        expect: { drill: { lateChanges: ['later'], action: 'continue' } },
      },
    ]);
    const { scenario } = loadRetryPolicy();
    const error = checkSwitches(loaded, {
      controls: scenario.controls.map((control) => control.id),
      lateChanges: scenario.lateChanges.map((change) => change.id),
    });
    expect(error?.code).toBe('UNKNOWN_CONTROL');
    expect(error?.issues?.map((issue) => [issue.path, issue.line])).toEqual([
      ['cases[0].controls[1]', 11],
      ['cases[0].expect.drill.lateChanges[0]', 16],
    ]);
    expect(error?.issues?.[0]?.message).toMatch(
      /no control "nope": the inputs declare future-reveal, superseded-decision/,
    );
  });
});

describe('telling a suite from a contract or a scenario', () => {
  it('knows a suite by its name or by its shape, and nothing else as one', () => {
    const contract = JSON.parse(scenarioText) as { contract: unknown };
    expect(isSuiteDocument('exercise.EXPECT.json', null)).toBe(true);
    expect(isSuiteDocument('exercise.json', { suite: 's', inputs: { scenario: 'retry-policy' }, cases: [] })).toBe(
      true,
    );
    expect(isSuiteDocument('scenario.json', JSON.parse(scenarioText))).toBe(false);
    expect(isSuiteDocument('contract.json', contract.contract)).toBe(false);
    expect(isSuiteDocument('list.json', [{ suite: 's' }])).toBe(false);
    expect(isSuiteDocument('named.json', { suite: 's', cases: [] })).toBe(false);
  });
});
