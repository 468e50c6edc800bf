import { sha256 } from '../test-support/sha256';
import { describe, expect, it } from 'vitest';
import { buildContract, buildRecord, errorOf, unreadableOf } from '../test-support/builders';
import { parseContractJson, parseRecordsJsonl, parseScenarioJson } from '../phases/1-validate/validate';
import { parseExpectationSuiteJson } from '../expectations/suite';
import { idSchema, invisibleCodePoints, isNfc, nameSchema, nfcDifference } from './identifier';

const NFC_CAFE = 'CAF\u00c9-1';
const NFD_CAFE = 'CAFE\u0301-1';
const line = (record: object) => JSON.stringify(record);

describe('identifiers', () => {
  it.each([
    ['\u200b', 'U+200B'],
    ['\u200c', 'U+200C'],
    ['\u200d', 'U+200D'],
    ['\u2060', 'U+2060'],
    ['\u00ad', 'U+00AD'],
    ['\u034f', 'U+034F'],
    ['\u061c', 'U+061C'],
    ['\u115f', 'U+115F'],
    ['\u17b4', 'U+17B4'],
    ['\u180b', 'U+180B'],
    ['\u200e', 'U+200E'],
    ['\u202e', 'U+202E'],
    ['\u2066', 'U+2066'],
    ['\u3164', 'U+3164'],
    ['\ufe0f', 'U+FE0F'],
    ['\ufeff', 'U+FEFF'],
    ['\uffa0', 'U+FFA0'],
    ['\u{1bca0}', 'U+1BCA0'],
    ['\u{1d173}', 'U+1D173'],
    ['\u{e0001}', 'U+E0001'],
    ['\u{e0fff}', 'U+E0FFF'],
  ])('refuses %j in an id or a name, naming %s', (char, name) => {
    expect(invisibleCodePoints(`ADR-0234${char}`)).toEqual([name]);
    expect(idSchema.safeParse(`ADR-0234${char}`).success).toBe(false);
    expect(nameSchema.safeParse(`legal${char} hold`).success).toBe(false);
  });

  it('accepts what only looks unusual: letters of any script in NFC, emoji, spaces in names', () => {
    for (const value of ['ADR-0234', NFC_CAFE, 'Zürich-7', '東京-1', 'ok-👍', 'Ελλάδα'])
      expect(idSchema.safeParse(value).success, value).toBe(true);
    expect(nameSchema.safeParse('credit analyst').success).toBe(true);
  });

  it('refuses an identifier not in NFC and says which code points NFC writes instead', () => {
    expect(isNfc(NFC_CAFE)).toBe(true);
    expect(isNfc(NFD_CAFE)).toBe(false);
    expect(idSchema.safeParse(NFD_CAFE).success).toBe(false);
    expect(nfcDifference(NFD_CAFE)).toEqual({ found: 'U+0045 U+0301', nfc: 'U+00C9' });
  });

  it('refuses a record id with a zero-width space, naming file, line, field and the code point', () => {
    const text = `${line(buildRecord({ id: 'ADR-0234' }))}\n${line({ ...buildRecord({ id: 'x' }), id: 'ADR-0234\u200b' })}`;
    const [issue] = unreadableOf(parseRecordsJsonl(sha256, 'records.jsonl', text)).issues ?? [];
    expect(issue).toMatchObject({
      file: 'records.jsonl',
      line: 2,
      path: 'id',
      code: 'INVISIBLE_CHARACTER',
      args: { codePoints: ['U+200B'] },
    });
    expect(issue?.message).toMatch(/^holds U\+200B, a character that does not show/);
    expect(issue?.message).not.toContain('\u200b');
  });

  it('refuses an NFD record id and an NFD supersedes target with the code points', () => {
    const text = `${line(buildRecord({ id: NFC_CAFE }))}\n${line({ ...buildRecord({ id: 'y' }), id: NFD_CAFE })}\n${line({ ...buildRecord({ id: 'z' }), supersedes: [NFD_CAFE] })}`;
    const issues = unreadableOf(parseRecordsJsonl(sha256, 'records.jsonl', text)).issues ?? [];
    expect(issues).toMatchObject([
      { line: 2, path: 'id', code: 'NOT_NFC', args: { found: 'U+0045 U+0301', nfc: 'U+00C9' } },
      { line: 3, path: 'supersedes[0]', code: 'NOT_NFC' },
    ]);
  });

  it('refuses invisible characters in labels, roles, purposes and scopes of a record', () => {
    const record = buildRecord({ id: 'a' });
    const bad = {
      ...record,
      scope: 'support\u200d',
      access: { roles: ['agent\u2060'], purposes: ['support\u00ad'], labels: ['legal\u200bhold'] },
    };
    const issues = unreadableOf(parseRecordsJsonl(sha256, 'r.jsonl', line(bad))).issues ?? [];
    expect(issues.map((issue) => [issue.path, issue.code, issue.args.codePoints])).toEqual([
      ['scope', 'INVISIBLE_CHARACTER', ['U+200D']],
      ['access.roles[0]', 'INVISIBLE_CHARACTER', ['U+2060']],
      ['access.purposes[0]', 'INVISIBLE_CHARACTER', ['U+00AD']],
      ['access.labels[0]', 'INVISIBLE_CHARACTER', ['U+200B']],
    ]);
  });

  it('refuses look-alike required records, deny labels and principal roles in a contract, with their lines', () => {
    const contract = { ...buildContract(), requiredRecords: [NFD_CAFE], denyLabels: ['legal_hold\u200b'] };
    const text = JSON.stringify(contract, null, 2);
    const issues = errorOf(parseContractJson('contract.json', text)).issues ?? [];
    expect(issues.map((issue) => [issue.file, issue.path, issue.code])).toEqual([
      ['contract.json', 'denyLabels[0]', 'INVISIBLE_CHARACTER'],
      ['contract.json', 'requiredRecords[0]', 'NOT_NFC'],
    ]);
    for (const issue of issues)
      expect(issue.line).toBe(
        text.split('\n').findIndex((row) => row.includes(issue.path.startsWith('deny') ? 'legal_hold' : 'CAFE')) + 1,
      );
  });

  it('refuses a look-alike control id and mention in a scenario, and a look-alike id in a suite', () => {
    const change = {
      id: 'grant\u200b',
      label: 'Grant',
      explanation: 'Grants.',
      patches: [{ op: 'removeRecord', id: 'a' }],
      mentions: [NFD_CAFE],
    };
    const scenario = JSON.stringify({
      id: 's',
      title: 'S',
      contract: buildContract(),
      records: [buildRecord({ id: 'a' })],
      controls: [change],
    });
    const issues = errorOf(parseScenarioJson(sha256, 's.json', scenario, () => null)).issues ?? [];
    expect(issues.map((issue) => [issue.path, issue.code])).toEqual([
      ['controls[0].id', 'INVISIBLE_CHARACTER'],
      ['controls[0].mentions[0]', 'NOT_NFC'],
    ]);
    const suite = JSON.stringify({
      suite: 'x',
      inputs: { scenario: 'retry-policy' },
      cases: [{ name: 'c', expect: { selected: { includes: ['ADR\u200b'] } } }],
    });
    const suiteIssues = errorOf(parseExpectationSuiteJson('x.expect.json', suite)).issues ?? [];
    expect(suiteIssues).toMatchObject([{ path: 'cases[0].expect.selected.includes[0]', code: 'INVISIBLE_CHARACTER' }]);
  });
});
