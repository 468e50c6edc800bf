import { describe, expect, it } from 'vitest';
import { buildContract, buildRecord, errorOf, resolveOrThrow, valueOf } from '../../test-support/builders';
import { admit } from './admit';
import { GATE_BIT } from './gates';

describe('admit', () => {
  const records = [
    buildRecord({ id: 'a' }),
    buildRecord({ id: 'b', scope: 'legal' }),
    buildRecord({ id: 'c' }),
    buildRecord({ id: 'd', supersedes: ['c'] }),
  ];
  const resolution = () => resolveOrThrow(buildContract(), records);

  it("returns the admitted set and every record's failed gates and first fact when both sides agree", () => {
    const admission = valueOf(admit(resolution(), new Set(['a', 'd'])));
    expect([...admission.admittedIds].sort()).toEqual(['a', 'd']);
    expect(admission.admitted).toEqual([0, 3]);
    expect(admission.verdicts[1]).toMatchObject({
      failed: GATE_BIT.scope,
      fact: { fact: 'SCOPE_NOT_ALLOWED', args: { scope: 'legal' } },
    });
    expect(admission.verdicts[2]).toMatchObject({
      failed: GATE_BIT.supersession,
      fact: { fact: 'SUPERSEDED_BY', args: { successor: 'd', since: '2026-08-01' } },
    });
  });

  it('stops with ADAPTER_MISMATCH when SQL drops a record the evaluator admits', () => {
    const error = errorOf(admit(resolution(), new Set(['a'])));
    expect(error).toMatchObject({
      pass: 'admit',
      code: 'ADAPTER_MISMATCH',
      recordId: 'd',
      words: { code: 'ADMISSION_DISAGREEMENT', args: { record: 'd' } },
    });
    expect(error.message).toMatch(/the evaluator admits it but the SQL lowering did not return it/);
  });

  it("stops when SQL admits a record the evaluator refuses, naming the evaluator's fact", () => {
    const error = errorOf(admit(resolution(), new Set(['a', 'b', 'd'])));
    expect(error).toMatchObject({ code: 'ADAPTER_MISMATCH', recordId: 'b' });
    expect(error.message).toMatch(/SQL admitted it but the evaluator refuses it \(SCOPE_NOT_ALLOWED\)/);
  });

  it('stops when SQL returns a record that is not in the supplied set', () => {
    const error = errorOf(admit(resolution(), new Set(['a', 'd', 'stray'])));
    expect(error).toMatchObject({ code: 'ADAPTER_MISMATCH', recordId: 'stray' });
    expect(error.message).toMatch(/not in the supplied set/);
  });
});
