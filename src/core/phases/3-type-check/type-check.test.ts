import { describe, expect, it } from 'vitest';
import { buildContract, buildRecord, errorOf, resolveOrThrow, valueOf } from '../../test-support/builders';
import { typeCheck } from './type-check';

const proposition = (id: string) => ({ id, acceptedClasses: ['waiver'] });

describe('typeCheck', () => {
  it('passes a contract that makes sense against its records', () => {
    const resolution = resolveOrThrow(
      buildContract({ requiredRecords: ['a'], requiredPropositions: [proposition('p1')], typedEvidenceOnly: true }),
      [buildRecord({ id: 'a' })],
    );
    expect(valueOf(typeCheck(resolution))).toBe(resolution);
  });

  it('names the absent required record, the smallest id first whatever the contract order', () => {
    const resolution = resolveOrThrow(buildContract({ requiredRecords: ['zz', 'a', 'mm'] }), [
      buildRecord({ id: 'a' }),
    ]);
    expect(errorOf(typeCheck(resolution))).toMatchObject({
      pass: 'type-check',
      code: 'REQUIRED_NOT_FOUND',
      recordId: 'mm',
      fact: { fact: 'REQUIRED_ABSENT', args: { record: 'mm' } },
      // The stop carries its catalogue words, of which the message is the wording.
      words: { code: 'REQUIRED_ABSENT_STOP', args: { record: 'mm' } },
    });
  });

  it('refuses a proposition declared twice', () => {
    const resolution = resolveOrThrow(buildContract({ requiredPropositions: [proposition('p1'), proposition('p1')] }), [
      buildRecord(),
    ]);
    expect(errorOf(typeCheck(resolution)).issues).toEqual([
      {
        file: 'contract',
        path: 'requiredPropositions[1].id',
        code: 'PROPOSITION_TWICE',
        args: { proposition: 'p1' },
        message: 'proposition "p1" is declared twice',
      },
    ]);
  });

  it('refuses typed-evidence mode without a required proposition', () => {
    const resolution = resolveOrThrow(buildContract({ typedEvidenceOnly: true }), [buildRecord()]);
    expect(errorOf(typeCheck(resolution))).toMatchObject({
      code: 'INVALID_INPUT',
      issues: [{ path: 'typedEvidenceOnly' }],
    });
  });
});
