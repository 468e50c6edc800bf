import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compile, diff, drill, readRecords, runSuite, version } from './node';
import packageJson from '../../package.json' with { type: 'json' };

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/retry-policy/${name}`, import.meta.url), 'utf8');
const scenarioText = fixture('scenario.json');
const recordsText = fixture('records.jsonl');
const scenario = { scenario: scenarioText, files: { 'records.jsonl': recordsText } };
const contract = (JSON.parse(scenarioText) as { contract: object }).contract;

describe('the library API', () => {
  it('has the package version', () => {
    expect(version).toBe(packageJson.version);
  });

  it('compiles a scenario, and a contract with records given as values, to the same receipt', async () => {
    const fromScenario = await compile(scenario);
    const records = recordsText
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    const fromValues = await compile({ contract, records });
    if (!fromScenario.ok || !fromValues.ok) throw new Error('expected both to compile');
    expect(fromScenario.value.status).toBe('packet');
    expect(fromScenario.value.packetText).toContain('ADR-0234');
    expect(fromValues.value.receipt?.receiptId).toBe(fromScenario.value.receipt?.receiptId);
  });

  it('gives no receipt in the user view, and its user-view document', async () => {
    const answer = await compile({ ...scenario, view: 'user' });
    if (!answer.ok) throw new Error(answer.error.message);
    expect(answer.value.receipt).toBeNull();
    expect(answer.value.receiptText).toBeNull();
    expect(answer.value.userView.view).toBe('user');
  });

  it('refuses a contract the CLI refuses, with the same code and a field path', async () => {
    const answer = await compile({ contract: { ...contract, tokenBudget: 'many' }, records: recordsText });
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error.code).toBe('INVALID_INPUT');
    expect(answer.error.issues?.[0]?.path).toContain('tokenBudget');
    expect(answer.error.words).toMatchObject({ code: 'FILE_PROBLEMS', args: { total: 1, shown: 1 } });
  });

  it('keeps a line that cannot be read out of the records, and names its file and line', async () => {
    const read = await readRecords(`${recordsText.trim()}\n{"id": `, 'mine.jsonl');
    if (!read.ok) throw new Error(read.error.message);
    expect(read.value.records).toHaveLength(recordsText.trim().split('\n').length);
    expect(read.value.unreadable[0]?.location).toEqual({
      file: 'mine.jsonl',
      line: recordsText.trim().split('\n').length + 1,
    });
  });

  it('drills a receipt against its own inputs, and blocks an edited one', async () => {
    const answer = await compile({ contract, records: recordsText });
    if (!answer.ok || answer.value.receiptText === null) throw new Error('expected a receipt');
    const current = await drill({ contract, records: recordsText, receipt: answer.value.receiptText });
    expect(current.ok && current.value.code).toBe('RECEIPT_CURRENT');
    const edited = await drill({
      contract,
      records: recordsText,
      receipt: answer.value.receiptText.replace('"tokenBudget":96', '"tokenBudget":97'),
    });
    // As the CLI's drill does: the receipt is judged, not refused as input, and an edited one is blocked.
    expect(edited.ok && { action: edited.value.action, code: edited.value.code }).toEqual({
      action: 'block',
      code: 'RECEIPT_INVALID',
    });
  });

  it('diffs two receipts', async () => {
    const before = await compile(scenario);
    const after = await compile({ ...scenario, controls: ['remove-provenance'] });
    if (!before.ok || !after.ok) throw new Error('expected both to compile');
    const changed = await diff(before.value.receiptText ?? '', after.value.receiptText ?? '');
    expect(changed.ok && changed.value.identical).toBe(false);
    const same = await diff(before.value.receiptText ?? '', before.value.receiptText ?? '');
    expect(same.ok && same.value.identical).toBe(true);
  });

  it('runs an expectation suite against the scenario given, and reports a case that does not hold', async () => {
    const suite = JSON.parse(fixture('poison-controls.expect.json')) as {
      cases: { expect: Record<string, unknown> }[];
    };
    const ran = await runSuite({ ...scenario, suite });
    if (!ran.ok) throw new Error(ran.error.message);
    expect(ran.value.cases.length).toBeGreaterThan(0);
    expect(ran.value.cases.every((entry) => entry.passed)).toBe(true);
    const first = suite.cases[0];
    if (first === undefined) throw new Error('expected a case');
    first.expect = { ...first.expect, outcome: first.expect.outcome === 'packet' ? 'fail_closed' : 'packet' };
    const failing = await runSuite({ ...scenario, suite });
    expect(failing.ok && failing.value.cases[0]?.passed).toBe(false);
  });
});
