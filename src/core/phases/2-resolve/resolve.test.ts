import { describe, expect, it } from 'vitest';
import { buildContract, buildRecord, buildRecordSet, errorOf, valueOf } from '../../test-support/builders';
import { identitiesOf, resolve } from './resolve';

const identities = [
  { id: 'cust-1', aliases: ['Jo', 'J. Smith'] },
  { id: 'cust-2', aliases: ['Jo', 'Jon'] },
];

describe('supersession links', () => {
  const brokenOf = (records: Parameters<typeof buildRecordSet>[0]) => {
    const resolution = valueOf(resolve(buildContract(), buildRecordSet(records)));
    return {
      resolution,
      broken: Object.fromEntries(resolution.records.map((item) => [item.checked.record.id, item.brokenLink])),
    };
  };

  it('marks a record that supersedes an absent id, and goes on: valid links of the same record still supersede', () => {
    const { resolution, broken } = brokenOf([
      buildRecord({ id: 'a', supersedes: ['ghost', 'b', 'ahost', 'ghost'] }),
      buildRecord({ id: 'b' }),
    ]);
    expect(broken).toEqual({ a: { kind: 'dangling', targets: ['ahost', 'ghost'] }, b: null });
    expect(resolution.brokenLinks).toEqual(['a']);
    expect(resolution.records[resolution.indexOf.get('b') ?? -1]?.supersededBy?.id).toBe('a');
  });

  it('marks self-supersession, before any cycle the record is also on', () => {
    const { broken } = brokenOf([
      buildRecord({ id: 'a', supersedes: ['a', 'b'] }),
      buildRecord({ id: 'b', supersedes: ['a'] }),
      buildRecord({ id: 'c' }),
    ]);
    expect(broken).toEqual({ a: { kind: 'self' }, b: { kind: 'cycle', successors: ['a'] }, c: null });
  });

  it('marks every record on a cycle with the records on it that supersede it, and nothing off the cycle', () => {
    const records = [
      buildRecord({ id: 'a', supersedes: ['c'] }),
      buildRecord({ id: 'b', supersedes: ['a'] }),
      buildRecord({ id: 'c', supersedes: ['b', 'd'] }),
      buildRecord({ id: 'd' }),
      buildRecord({ id: 'e', supersedes: ['a', 'c'] }),
      buildRecord({ id: 'f', supersedes: ['b'] }),
    ];
    const { resolution, broken } = brokenOf(records);
    expect(broken).toEqual({
      a: { kind: 'cycle', successors: ['b'] },
      b: { kind: 'cycle', successors: ['c'] },
      c: { kind: 'cycle', successors: ['a'] },
      d: null,
      e: null,
      f: null,
    });
    expect(resolution.brokenLinks).toEqual(['a', 'b', 'c']);
    // The cycle's link to d, off the cycle, still supersedes it.
    expect(resolution.records[resolution.indexOf.get('d') ?? -1]?.supersededBy?.id).toBe('c');
  });

  it('finds a cycle at the end of a chain as long as the record set without running out of stack', () => {
    const length = 20_000;
    const records = Array.from({ length }, (_, index) =>
      buildRecord({
        id: `v${String(index).padStart(5, '0')}`,
        supersedes: index === 0 ? [] : [`v${String(index - 1).padStart(5, '0')}`],
      }),
    );
    records[0] = buildRecord({ id: 'v00000', supersedes: ['v00001'] });
    // Listed newest first, so the walk starts at the far end of the chain and goes down all of it.
    const { resolution } = brokenOf([buildRecord({ id: 'w', supersedes: ['v19999'] }), ...records.reverse()]);
    expect(resolution.brokenLinks).toEqual(['v00000', 'v00001']);
  });

  it('lets an active successor in force supersede, naming the smallest such successor', () => {
    const records = [
      buildRecord({ id: 'old' }),
      buildRecord({ id: 'new-b', supersedes: ['old'] }),
      buildRecord({ id: 'new-a', supersedes: ['old'], validFrom: '2026-08-10' }),
    ];
    const resolution = valueOf(resolve(buildContract(), buildRecordSet(records)));
    const supersededBy = (id: string) => resolution.records[resolution.indexOf.get(id) ?? -1]?.supersededBy;
    expect(supersededBy('old')).toEqual({ id: 'new-a', since: Date.UTC(2026, 7, 10) });
    expect(supersededBy('new-a')).toBeNull();
  });

  it.each([
    ['a future successor', { knownAt: '2026-09-01' }],
    ['a successor not yet effective', { validFrom: '2026-09-01' }],
    ['a draft successor', { lifecycle: 'draft' as const }],
    ['a retired successor', { lifecycle: 'retired' as const }],
  ])('does not let %s supersede', (_, overrides) => {
    const records = [buildRecord({ id: 'old' }), buildRecord({ id: 'new', supersedes: ['old'], ...overrides })];
    const resolution = valueOf(resolve(buildContract(), buildRecordSet(records)));
    expect(resolution.records[resolution.indexOf.get('old') ?? -1]?.supersededBy).toBeNull();
  });
});

describe('identities', () => {
  it('refuses an ambiguous contract subject, naming the candidates', () => {
    const error = errorOf(resolve(buildContract({ subject: 'Jo', identities }), buildRecordSet([buildRecord()])));
    expect(error).toMatchObject({ pass: 'resolve', code: 'AMBIGUOUS_SUBJECT' });
    expect(error.message).toMatch(/"Jo" matches 2 identities \(cust-1, cust-2\)/);
  });

  it('binds an alias subject to its canonical identity and names every identity a name may mean', () => {
    const resolution = valueOf(
      resolve(buildContract({ subject: 'J. Smith', identities }), buildRecordSet([buildRecord()])),
    );
    expect(resolution.contract.subject).toBe('cust-1');
    expect(['Jo', 'Jon', 'stranger'].map((name) => identitiesOf(name, resolution.contract.identityNames))).toEqual([
      ['cust-1', 'cust-2'],
      ['cust-2'],
      ['stranger'],
    ]);
  });
});

describe('id order', () => {
  it('puts records in code-unit id order and finds each position by id, in order or not', () => {
    const ids = ['b', 'a10', 'a9', 'Z', 'é', 'a', 'a1', '0'];
    for (const listed of [ids, [...ids].sort(), [...ids].reverse()]) {
      const resolution = valueOf(resolve(buildContract(), buildRecordSet(listed.map((id) => buildRecord({ id })))));
      expect(resolution.records.map((item) => item.checked.record.id)).toEqual([
        '0',
        'Z',
        'a',
        'a1',
        'a10',
        'a9',
        'b',
        'é',
      ]);
      resolution.records.forEach((item, position) =>
        expect(resolution.indexOf.get(item.checked.record.id)).toBe(position),
      );
      for (const unknown of ['a2', 'c', 'A', 'éé']) expect(resolution.indexOf.has(unknown)).toBe(false);
    }
  });
});
