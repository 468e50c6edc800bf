import { describe, expect, it } from 'vitest';
import { buildContract, buildRecord, buildRecordSet, errorOf, valueOf } from '../test-support/builders';
import { createRecordSet } from './validate';
import { identitiesOf, resolve } from './resolve';

const identities = [
  { id: 'cust-1', aliases: ['Jo', 'J. Smith'] },
  { id: 'cust-2', aliases: ['Jo', 'Jon'] },
];

describe('supersession links', () => {
  it('refuses a dangling reference, naming the record and its location', () => {
    const records = [buildRecord({ id: 'a', supersedes: ['ghost'] })];
    const error = errorOf(resolve(buildContract(), createRecordSet(records, new Map([['a', { file: 'r.jsonl', line: 4 }]]))));
    expect(error).toMatchObject({ pass: 'resolve', code: 'DANGLING_REFERENCE', recordId: 'a' });
    expect(error.message).toBe('record a (r.jsonl:4): supersedes "ghost", which is not among the records');
  });

  it('refuses self-supersession', () => {
    const error = errorOf(resolve(buildContract(), buildRecordSet([buildRecord({ id: 'a', supersedes: ['a'] })])));
    expect(error).toMatchObject({ code: 'SUPERSESSION_CYCLE', recordId: 'a', message: 'record a supersedes itself' });
  });

  it('refuses a longer cycle and names every record in it', () => {
    const records = [buildRecord({ id: 'a', supersedes: ['c'] }), buildRecord({ id: 'b', supersedes: ['a'] }), buildRecord({ id: 'c', supersedes: ['b'] }), buildRecord({ id: 'd' })];
    const error = errorOf(resolve(buildContract(), buildRecordSet(records)));
    expect(error.code).toBe('SUPERSESSION_CYCLE');
    expect(error.message).toMatch(/supersession cycle a → c → b → a/);
  });

  it('lets an active successor in force supersede, naming the smallest such successor', () => {
    const records = [buildRecord({ id: 'old' }), buildRecord({ id: 'new-b', supersedes: ['old'] }), buildRecord({ id: 'new-a', supersedes: ['old'], validFrom: '2026-08-10' })];
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
    const resolution = valueOf(resolve(buildContract({ subject: 'J. Smith', identities }), buildRecordSet([buildRecord()])));
    expect(resolution.contract.subject).toBe('cust-1');
    expect(['Jo', 'Jon', 'stranger'].map((name) => identitiesOf(name, resolution.contract.identityNames))).toEqual([['cust-1', 'cust-2'], ['cust-2'], ['stranger']]);
  });
});

describe('id order', () => {
  it('puts records in code-unit id order and finds each position by id, in order or not', () => {
    const ids = ['b', 'a10', 'a9', 'Z', 'é', 'a', 'a1', '0'];
    for (const listed of [ids, [...ids].sort(), [...ids].reverse()]) {
      const resolution = valueOf(resolve(buildContract(), buildRecordSet(listed.map((id) => buildRecord({ id })))));
      expect(resolution.records.map((item) => item.checked.record.id)).toEqual(['0', 'Z', 'a', 'a1', 'a10', 'a9', 'b', 'é']);
      resolution.records.forEach((item, position) => expect(resolution.indexOf.get(item.checked.record.id)).toBe(position));
      for (const unknown of ['a2', 'c', 'A', 'éé']) expect(resolution.indexOf.has(unknown)).toBe(false);
    }
  });
});
