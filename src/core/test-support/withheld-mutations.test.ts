import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SourceRecord } from '../format/record';
import { applyWithheldMutations, madeWithheld, withheldCases, type WithheldCase } from './withheld-mutations';
import { caseArbitrary } from './arbitraries';

const kindsDrawn = (cases: fc.Arbitrary<WithheldCase>) =>
  new Set(fc.sample(cases, { numRuns: 200, seed: 7 }).flatMap((drawn) => drawn.mutations.map((one) => one.kind)));

describe('withheldCases', () => {
  it('draws donor copies and crossing links only when asked, and every other kind either way', () => {
    const plain = kindsDrawn(withheldCases());
    const copies = kindsDrawn(withheldCases({ donorCopies: true }));
    const crossing = kindsDrawn(withheldCases({ crossing: true }));
    const kept = ['edit', 'add', 'remove', 'dangle', 'self', 'cycle', 'chain'];
    for (const drawn of [plain, copies, crossing])
      expect([...drawn].filter((kind) => kept.includes(kind))).toHaveLength(7);
    expect([plain.has('copy'), copies.has('copy'), crossing.has('copy')]).toEqual([false, true, false]);
    expect([
      plain.has('supersede-visible'),
      copies.has('supersede-visible'),
      crossing.has('supersede-visible'),
    ]).toEqual([false, false, true]);
  });
});

describe('applyWithheldMutations', () => {
  it("copies a donor's fields into a withheld record at once, and touches no other record", () => {
    const [generated] = fc.sample(caseArbitrary, { numRuns: 1, seed: 3 });
    const [first, donor] = generated?.records ?? [];
    if (generated === undefined || first === undefined || donor === undefined)
      throw new Error('the sample has fewer than two records');
    const hidden = madeWithheld(first, 'h0');
    const visible: SourceRecord = { ...donor, id: 'seen' };
    const input: WithheldCase = {
      contract: generated.contract,
      records: [visible, hidden],
      donors: [{ ...donor, title: 'copied title', provenance: null }],
      mutations: [{ kind: 'copy', pick: 0, donor: 0, fields: ['title', 'provenance', 'access'] }],
    };
    const mutated = applyWithheldMutations(input, input.records, new Set(['h0']));
    expect(mutated?.touched).toEqual(new Set(['h0']));
    const copied = mutated?.records.find((record) => record.id === 'h0');
    expect(copied).toMatchObject({ title: 'copied title', provenance: null, access: donor.access, text: hidden.text });
    expect(mutated?.records.find((record) => record.id === 'seen')).toEqual(visible);
  });
});
