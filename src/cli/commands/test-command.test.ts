import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { elementsNamed, parseXml } from '../../core/test-support/xml';
import { EXIT } from '../command';
import { main } from '../main';

const fixtures = fileURLToPath(new URL('../../../fixtures/', import.meta.url));

async function run(args: readonly string[], cwd = mkdtempSync(join(tmpdir(), 'cc-test-'))) {
  let stdout = '';
  let stderr = '';
  const code = await main(['test', ...args], {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    cwd,
  });
  return { code, stdout, stderr, cwd };
}

/** A folder holding one suite file with these cases, on the built-in retry-policy scenario. */
function suiteFolder(
  cases: unknown,
  inputs: unknown = { scenario: 'retry-policy' },
  name = 'wrong.expect.json',
): string {
  const folder = mkdtempSync(join(tmpdir(), 'cc-suite-'));
  writeFileSync(join(folder, name), `${JSON.stringify({ suite: 'workshop', inputs, cases }, null, 2)}\n`);
  return folder;
}

const WRONG_CASE = {
  name: 'chat approval keeps NOTE-0311 out',
  controls: ['future-reveal'],
  expect: { records: { 'ADR-0240': { code: 'EXCLUDE_SCOPE' } }, selected: { includes: ['ADR-0234'] } },
};

describe('context-compiler test', () => {
  it('passes every suite shipped with the built-in scenarios (no PATH, or the fixtures folder)', async () => {
    const shipped = await run(['-v']);
    expect(shipped.stderr).toBe('');
    expect(shipped.code).toBe(EXIT.ok);
    expect(shipped.stdout).not.toContain('FAIL');
    expect(shipped.stdout).toMatch(/^\d+ passed, 0 failed \(5 suites\)$/m);
    expect(shipped.stdout).toContain(
      'ok   retry-policy: the fire drill › the late correction makes the frozen receipt stale',
    );
    expect(shipped.stdout).toContain(
      'ok   seed 000: the contaminated eight-item corpus › plain top-k passes 5 records, 4 of them unsafe',
    );
    const folder = await run([fixtures]);
    expect(folder.code).toBe(EXIT.ok);
    expect(folder.stdout.split('\n').at(-2)).toBe(shipped.stdout.split('\n').at(-2));
  });

  it('switches on each of the seven poison controls in the shipped suites', () => {
    const text = ['poison-controls', 'fire-drill']
      .map((name) => readFileSync(join(fixtures, 'retry-policy', `${name}.expect.json`), 'utf8'))
      .join('\n');
    const scenario = JSON.parse(readFileSync(join(fixtures, 'retry-policy', 'scenario.json'), 'utf8')) as {
      controls: { id: string }[];
    };
    expect(scenario.controls).toHaveLength(7);
    for (const { id } of scenario.controls) expect(text, id).toContain(`"controls": ["${id}"]`);
  });

  it('fails a wrong expectation with exit 4 (not the usage exit 1), naming the case, the field and its line, the expected and the actual value', async () => {
    const folder = suiteFolder([{ name: 'right', expect: { outcome: 'packet' } }, WRONG_CASE]);
    const result = await run(['wrong.expect.json', '-v'], folder);
    expect(result.code).toBe(EXIT.expectationsFailed);
    expect(result.stdout).toContain('ok   workshop › right');
    expect(result.stdout).toContain('FAIL workshop › chat approval keeps NOTE-0311 out');
    expect(result.stdout).toContain(
      'wrong.expect.json:21: cases[1].expect.records.ADR-0240.code: record ADR-0240: reason code',
    );
    expect(result.stdout).toContain('expected: EXCLUDE_SCOPE');
    expect(result.stdout).toContain(
      'actual:   excluded EXCLUDE_FUTURE: known_at 2026-04-02 > as_of 2026-03-16 (fails time)',
    );
    expect(result.stdout).toMatch(/^1 passed, 1 failed \(1 suite\)$/m);
  });

  it('writes JUnit XML that parses and counts the failures, escaping what the names carry', async () => {
    const folder = suiteFolder([
      { name: 'quotes "<&>\' and a \u0007 bell', expect: { outcome: 'packet' } },
      WRONG_CASE,
      { ...WRONG_CASE, name: 'second' },
    ]);
    const result = await run([folder, '--junit', 'report.xml']);
    expect(result.code).toBe(EXIT.expectationsFailed);
    const root = parseXml(readFileSync(join(result.cwd, 'report.xml'), 'utf8'));
    expect(root.name).toBe('testsuites');
    expect(root.attributes).toMatchObject({ tests: '3', failures: '2', errors: '0' });
    const [suite] = elementsNamed(root, 'testsuite');
    expect(suite?.attributes).toMatchObject({ name: 'workshop', tests: '3', failures: '2' });
    const cases = elementsNamed(root, 'testcase');
    expect(cases.map((entry) => entry.attributes.name)).toEqual([
      'quotes "<&>\' and a \\u0007 bell',
      'chat approval keeps NOTE-0311 out',
      'second',
    ]);
    expect(cases.map((entry) => elementsNamed(entry, 'failure').length)).toEqual([0, 1, 1]);
    const failure = elementsNamed(cases[1] ?? root, 'failure')[0];
    expect(failure?.attributes.message).toBe('1 expectation not met: record ADR-0240: reason code');
    expect(failure?.text).toContain('expected: EXCLUDE_SCOPE\n  actual:   excluded EXCLUDE_FUTURE');
  });

  it('reports as JSON, with the line of each mismatch', async () => {
    const result = await run(['wrong.expect.json', '--json'], suiteFolder([WRONG_CASE]));
    expect(result.code).toBe(EXIT.expectationsFailed);
    const report = JSON.parse(result.stdout) as {
      passed: number;
      failed: number;
      suites: {
        cases: { name: string; passed: boolean; mismatches: { line: number; expected: string; record: string }[] }[];
      }[];
    };
    expect(report).toMatchObject({ passed: 0, failed: 1 });
    expect(report.suites[0]?.cases[0]?.mismatches[0]).toMatchObject({
      line: 15,
      expected: 'EXCLUDE_SCOPE',
      record: 'ADR-0240',
    });
  });

  it('runs only the cases whose suite or case name matches --filter, and exits 1 when none does', async () => {
    const byCase = await run(['-v', '--filter', 'SEED 000', '--filter', 'policy v4']);
    expect(byCase.code).toBe(EXIT.ok);
    expect(byCase.stdout).toMatch(/^5 passed, 0 failed \(5 suites\)$/m);
    expect(byCase.stdout).toContain(
      'refund-desk: an email shows a request, never an approval › policy v4 replaces v3 after the receipt',
    );
    const byRow = await run(
      ['wrong.expect.json', '--filter', 'matrix-row-label', '--json'],
      suiteFolder([
        { name: 'rows', matrix: [{ name: 'matrix-row-label' }, { name: 'other' }], expect: { outcome: 'packet' } },
      ]),
    );
    expect(
      (JSON.parse(byRow.stdout) as { suites: { cases: { name: string }[] }[] }).suites[0]?.cases.map(
        (entry) => entry.name,
      ),
    ).toEqual(['rows [matrix-row-label]']);
    const none = await run(['--filter', 'no such case']);
    expect(none.code).toBe(EXIT.invalid);
    expect(none.stderr).toContain('no case matches --filter no such case');
  });

  it('reads a scenario file, or records and a contract, from the suite folder', async () => {
    const withScenario = suiteFolder(
      [{ name: 'default packet', expect: { selected: { exactly: ['PM-2207', 'CFG-0310', 'RUN-0871', 'ADR-0234'] } } }],
      { scenarioFile: 'retry/scenario.json' },
    );
    mkdirSync(join(withScenario, 'retry'));
    for (const name of ['scenario.json', 'records.jsonl'])
      copyFileSync(join(fixtures, 'retry-policy', name), join(withScenario, 'retry', name));
    expect((await run(['.'], withScenario)).code).toBe(EXIT.ok);

    const withFiles = suiteFolder(
      [
        {
          name: 'R-1 is required',
          expect: { records: { 'R-1': { code: 'SELECTED_REQUIRED' } }, naive: { illegal: 0 } },
        },
      ],
      {
        records: 'base.records.jsonl',
        contract: 'base.contract.json',
      },
    );
    for (const name of ['base.records.jsonl', 'base.contract.json'])
      copyFileSync(join(fixtures, 'hostile', name), join(withFiles, name));
    const files = await run([withFiles]);
    expect(files.stderr).toBe('');
    expect(files.code).toBe(EXIT.ok);
  });

  it.each([
    [
      'a field of the wrong type',
      [{ name: 'a', expect: { naive: { illegal: 'five' } } }],
      undefined,
      /wrong\.expect\.json:11: cases\[0\]\.expect\.naive\.illegal: Invalid input: expected number/,
    ],
    [
      'a control the scenario lacks',
      [{ name: 'a', controls: ['chat-approval'], expect: { outcome: 'packet' } }],
      undefined,
      /UNKNOWN_CONTROL[\s\S]*wrong\.expect\.json:10: cases\[0\]\.controls\[0\]: no control "chat-approval"/,
    ],
    [
      'a built-in scenario that does not exist',
      [{ name: 'a', expect: { outcome: 'packet' } }],
      { scenario: 'retry' },
      /wrong\.expect\.json:4: inputs\.scenario: no built-in scenario "retry"/,
    ],
    [
      'a missing scenario file',
      [{ name: 'a', expect: { outcome: 'packet' } }],
      { scenarioFile: 'nope.json' },
      /nope\.json: no such file/,
    ],
  ])(
    'refuses a suite with %s, naming file, line and field, and still runs the others',
    async (_what, cases, inputs, message) => {
      const folder = suiteFolder(cases, inputs);
      writeFileSync(
        join(folder, 'good.expect.json'),
        JSON.stringify({
          suite: 'good',
          inputs: { scenario: 'retry-policy' },
          cases: [{ name: 'packet', expect: { outcome: 'packet' } }],
        }),
      );
      const result = await run([folder, '-v']);
      expect(result.code).toBe(EXIT.invalid);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/^\s+at /m);
      expect(result.stdout).toContain('ok   good › packet');
      expect(result.stdout).toMatch(/^1 passed, 0 failed, 1 suite not run \(2 suites\)$/m);
    },
  );

  it('prints its usage for --help, and refuses a folder without suites or an unknown flag', async () => {
    expect((await run(['--help'])).stdout).toContain('usage: context-compiler test [PATH...]');
    const empty = await run(['.']);
    expect(empty.code).toBe(EXIT.invalid);
    expect(empty.stderr).toContain('.: a folder with no .expect.json file in it');
    const flag = await run(['--junt', 'x.xml']);
    expect(flag.code).toBe(EXIT.invalid);
    expect(flag.stderr).toContain('usage: context-compiler test');
  });
});
