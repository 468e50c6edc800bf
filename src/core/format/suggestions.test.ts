import { sha256 } from '../test-support/sha256';
import { describe, expect, it } from 'vitest';
import { parseExpectationSuiteJson } from '../expectations/suite';
import { parseContractJson, parseRecordsJsonl } from '../phases/1-validate/validate';
import { REASONS } from '../reasons';
import { editDistance, nearestNames } from '../suggest';
import { buildContract, buildRecord } from '../test-support/builders';

type Issue = { code: string; message: string };
/** A refusal's issues, or a records file's unreadable lines' (such a line is left out, not refused). */
const issuesOf = (result: {
  ok: boolean;
  error?: { issues?: readonly Issue[] };
  value?: unknown;
}): readonly Issue[] => {
  if (!result.ok) return result.error?.issues ?? [];
  const unreadable =
    (result.value as { unreadable?: readonly { issues: readonly Issue[] }[] } | undefined)?.unreadable ?? [];
  return unreadable.flatMap((line) => line.issues);
};

describe('errors say the fix', () => {
  it('suggests the field a mistyped one meant', () => {
    const { denyLabels, ...contract } = buildContract({ denyLabels: ['legal-hold'] });
    const issues = issuesOf(parseContractJson('c.json', JSON.stringify({ ...contract, denyLabel: denyLabels })));
    expect(issues.map((issue) => issue.message)).toEqual([
      'unknown field "denyLabel": not part of the format; did you mean "denyLabels"?',
    ]);
  });

  it('suggests nothing for a field far from every name, and says which is which for several', () => {
    const contract = buildContract();
    expect(issuesOf(parseContractJson('c.json', JSON.stringify({ ...contract, signature: 'x' })))[0]?.message).toBe(
      'unknown field "signature": not part of the format',
    );
    const { principals, purpose, ...rest } = contract;
    const several = issuesOf(
      parseContractJson('c.json', JSON.stringify({ ...rest, principal: principals, purpse: purpose })),
    );
    expect(several.find((issue) => issue.code === 'UNKNOWN_FIELDS')?.message).toBe(
      'unknown fields "principal", "purpse": not part of the format; did you mean "principals" for "principal", "purpose" for "purpse"?',
    );
  });

  it('says a missing field may be given as null where the format allows null', () => {
    const { subject: _subject, ...record } = buildRecord({ id: 'a' });
    const issues = issuesOf(parseRecordsJsonl(sha256, 'r.jsonl', `${JSON.stringify(record)}\n`));
    expect(issues.map((issue) => issue.message)).toEqual([
      expect.stringMatching(/^required field missing \(expected .*, or null when there is none: give it as null\)$/),
    ]);
    const { text: _text, ...textless } = buildRecord({ id: 'b' });
    expect(issuesOf(parseRecordsJsonl(sha256, 'r.jsonl', `${JSON.stringify(textless)}\n`))[0]?.message).toBe(
      'required field missing (expected string)',
    );
  });

  it('suggests the nearest reason code in a suite instead of listing every code', () => {
    const suite = {
      suite: 's',
      inputs: { scenario: 'retry-policy' },
      cases: [{ name: 'c', expect: { records: { 'ADR-0234': { code: 'EXCLUDED_SUPERSEDED' } } } }],
    };
    const [issue] = issuesOf(parseExpectationSuiteJson('s.expect.json', JSON.stringify(suite)));
    expect(issue?.code).toBe('NOT_ONE_OF');
    expect(issue?.message).toBe(
      `not one of the ${Object.keys(REASONS).length} allowed values (got "EXCLUDED_SUPERSEDED"); did you mean "EXCLUDE_SUPERSEDED"?`,
    );
  });

  it('measures typos as edits, swaps included', () => {
    expect(editDistance('denyLabel', 'denyLabels')).toBe(1);
    expect(editDistance('pruprose', 'purpose')).toBe(2);
    expect(editDistance('--recrods', '--records')).toBe(1);
    expect(nearestNames('--recrod', ['--records', '--receipt', '--contract'])).toEqual(['--records']);
    expect(nearestNames('--zzz', ['--records'])).toEqual([]);
  });
});
