import { describe, expect, it } from 'vitest';
import { createPrng } from '../shared/prng';
import { canonicalJson } from './canonical';
import { createMemo } from './memo';
import { equalValues, sameKey } from './memo-keys';
import type { Marks } from './memo-ordered';

const names = (count: number) => Array.from({ length: count }, (_, index) => `n${index}`);

describe('the memo', () => {
  it('maps like items.map, computing only items whose key or the shared key changed', async () => {
    const memo = createMemo();
    let calls = 0;
    const double = (item: number) => ((calls += 1), item * 2);
    const items = Array.from({ length: 200 }, (_, index) => index);
    const keys = items.map(String);
    const first = await memo.revisionAsync(async () => memo.map('double', 'k', names(200), keys, items, double));
    expect(first.values).toEqual(items.map((item) => item * 2));
    const changed = items.map((item) => (item === 7 ? 1_000 : item));
    const second = await memo.revisionAsync(async () =>
      memo.map('double', 'k', names(200), changed.map(String), changed, double),
    );
    expect(second.values[7]).toBe(2_000);
    expect(memo.stats().get('double')).toEqual({ reused: 199, computed: 1 });
    expect(second.versions[8]).toBe(first.versions[8]);
    expect(second.versions[7]).not.toBe(first.versions[7]);
    calls = 0;
    await memo.revisionAsync(async () => memo.map('double', 'other', names(200), changed.map(String), changed, double));
    expect(calls).toBe(200);
  });

  it('reuses a whole table whose keys are all equal, and keeps the version of a changed item that computes the same value', async () => {
    const memo = createMemo();
    let calls = 0;
    const parity = (item: number) => ((calls += 1), { even: item % 2 === 0 });
    const items = [1, 2, 3, 4];
    const first = await memo.revisionAsync(async () =>
      memo.map('parity', null, names(4), items.map(String), items, parity),
    );
    calls = 0;
    const again = await memo.revisionAsync(async () =>
      memo.map('parity', null, names(4), items.map(String), items, parity),
    );
    expect(calls).toBe(0);
    expect(again.values).toBe(first.values);
    expect(memo.stats().get('parity')).toEqual({ reused: 4, computed: 0 });
    // 3 becomes 5: computed again, equal to the last value, so it keeps that object and its version.
    const changed = [1, 2, 5, 4];
    const third = await memo.revisionAsync(async () =>
      memo.map('parity', null, names(4), changed.map(String), changed, parity),
    );
    expect(calls).toBe(1);
    expect(third.values[2]).toBe(first.values[2]);
    expect(Array.from(third.versions)).toEqual(Array.from(first.versions));
  });

  it('finds an item by its name when positions move, never by the object it is', async () => {
    const memo = createMemo();
    const list = names(300);
    await memo.revisionAsync(async () => memo.map('id', null, list, list, list, (name) => ({ name })));
    const shifted = ['new', ...list];
    await memo.revisionAsync(async () =>
      memo.map(
        'id',
        null,
        shifted,
        shifted.map((name) => `${name}`),
        shifted,
        (name) => ({ name }),
      ),
    );
    expect(memo.stats().get('id')).toEqual({ reused: 300, computed: 1 });
  });

  it('keeps the last object and its version when a value computed again is equal to it (early cutoff)', async () => {
    const memo = createMemo();
    const run = (shared: string) =>
      memo.revisionAsync(async () =>
        memo.map('row', shared, ['a', 'b'], ['1', '2'], [1, 2], (item) => ({
          parity: item % 2,
          shared: shared.length,
        })),
      );
    const first = await run('x');
    const second = await run('y');
    expect(memo.stats().get('row')).toEqual({ reused: 0, computed: 2 });
    expect(second.values[0]).toBe(first.values[0]);
    expect(Array.from(second.versions)).toEqual(Array.from(first.versions));
    const third = await run('yy');
    expect(third.versions[0]).not.toBe(first.versions[0]);
  });

  it('reuses a cell while its key is equal, element by element', async () => {
    const memo = createMemo();
    let calls = 0;
    const sum = (key: readonly number[]) =>
      memo.revisionAsync(async () => memo.cell('sum', key, () => ((calls += 1), key.reduce((a, b) => a + b, 0))));
    expect(await sum([1, 2])).toBe(3);
    expect(await sum([1, 2])).toBe(3);
    expect(calls).toBe(1);
    expect(await sum([1, 3])).toBe(4);
    expect(calls).toBe(2);
  });

  it('drops what a revision did not ask for', async () => {
    const memo = createMemo();
    let calls = 0;
    const compute = () => ((calls += 1), calls);
    await memo.revisionAsync(async () => memo.cell('a', 1, compute));
    await memo.revisionAsync(async () => memo.cell('b', 1, compute));
    await memo.revisionAsync(async () => memo.cell('a', 1, compute));
    expect(calls).toBe(3);
  });
});

describe('keys and equality', () => {
  it('compares keys by value: lists element by element', () => {
    expect(sameKey(['a', 1], ['a', 1])).toBe(true);
    expect(sameKey(['a', 1], ['a', 2])).toBe(false);
    expect(sameKey(Int32Array.from([1, 2]), Int32Array.from([1, 2]))).toBe(true);
    expect(sameKey('a', ['a'])).toBe(false);
  });

  it('says two plain values are equal exactly when their canonical JSON is', () => {
    const random = createPrng(3);
    const values = ['a', 'b', '', 0, 1, -3, ['a'], ['a', 'b'], ['b', 'a'], [], { x: 1 }, { x: [1] }];
    const args = () =>
      Object.fromEntries(['x', 'y', 'z'].filter(() => random.chance(0.6)).map((key) => [key, random.pick(values)]));
    for (let round = 0; round < 2_000; round += 1) {
      const a = args();
      const b = random.chance(0.3) ? { ...a } : args();
      expect(equalValues(a, b), `${canonicalJson(a)} ${canonicalJson(b)}`).toBe(canonicalJson(a) === canonicalJson(b));
    }
  });
});

describe('an ordered table', () => {
  interface Item {
    readonly name: string;
    readonly text: string;
  }
  const textOf = (item: Item) => item.text;
  /** The items in name order, read through an order over `source`, as the resolve query reads records. */
  const ordering = (source: readonly Item[]) => {
    const order = Int32Array.from(
      source.map((_, index) => index).sort((a, b) => (source[a]!.name < source[b]!.name ? -1 : 1)),
    );
    return { order, names: Array.from(order, (at) => source[at]!.name) };
  };
  const run = async (
    memo: ReturnType<typeof createMemo>,
    source: readonly Item[],
    marks: Marks,
    compute: (item: Item) => string,
  ) => {
    const { order, names: ordered } = ordering(source);
    return memo.revisionAsync(async () => memo.mapInOrder('upper', ordered, order, source, textOf, marks, compute));
  };
  const noMarks: Marks = { positions: new Int32Array(0), keys: [] };
  const source: Item[] = ['c', 'a', 'd', 'b'].map((name) => ({ name, text: `text of ${name}` }));

  it('reads items through the order, computes only changed content, and equals a fresh table', async () => {
    const memo = createMemo();
    const computed: string[] = [];
    const upper = (item: Item) => (computed.push(item.name), item.text.toUpperCase());
    const first = await run(memo, source, noMarks, upper);
    expect(first.values).toEqual(['TEXT OF A', 'TEXT OF B', 'TEXT OF C', 'TEXT OF D']);
    computed.length = 0;
    // A new object with the same content is the same key; a changed text is computed again.
    const next = source.map((item) =>
      item.name === 'a' ? { ...item } : item.name === 'd' ? { ...item, text: 'new' } : item,
    );
    const second = await run(memo, next, noMarks, upper);
    expect(computed).toEqual(['d']);
    expect(memo.stats().get('upper')).toEqual({ reused: 3, computed: 1 });
    expect(second.versions[0]).toBe(first.versions[0]);
    expect(second.versions[3]).not.toBe(first.versions[3]);
    expect(second.values).toEqual((await run(createMemo(), next, noMarks, upper)).values);
  });

  it('hands back the last values themselves when nothing changed, and copies them once when one item did', async () => {
    const memo = createMemo();
    const upper = (item: Item) => item.text.toUpperCase();
    const first = await run(memo, source, noMarks, upper);
    const same = await run(
      memo,
      source.map((item) => ({ ...item })),
      noMarks,
      upper,
    );
    expect(same.values).toBe(first.values);
    expect(same.versions).toBe(first.versions);
    const changed = await run(
      memo,
      source.map((item) => (item.name === 'b' ? { ...item, text: 'new' } : item)),
      noMarks,
      upper,
    );
    expect(changed.values).not.toBe(first.values);
    expect(changed.values).toEqual(['TEXT OF A', 'NEW', 'TEXT OF C', 'TEXT OF D']);
    expect(first.values).toEqual(['TEXT OF A', 'TEXT OF B', 'TEXT OF C', 'TEXT OF D']);
  });

  it('computes again where a mark was added, changed or dropped, by name when positions shift', async () => {
    const memo = createMemo();
    const computed: string[] = [];
    const upper = (item: Item) => (computed.push(item.name), item.text.toUpperCase());
    // In name order a, b, c, d: marks on b and c.
    await run(memo, source, { positions: Int32Array.of(1, 2), keys: ['b1', 'c1'] }, upper);
    computed.length = 0;
    await run(memo, source, { positions: Int32Array.of(1, 3), keys: ['b1', 'd1'] }, upper);
    expect(computed.sort()).toEqual(['c', 'd']);
    computed.length = 0;
    // A new first item shifts every position: b keeps its mark at position 2, d's mark is dropped.
    const shifted = [...source, { name: '0', text: 'zero' }];
    const result = await run(memo, shifted, { positions: Int32Array.of(2), keys: ['b1'] }, upper);
    expect(computed.sort()).toEqual(['0', 'd']);
    expect(memo.stats().get('upper')).toEqual({ reused: 3, computed: 2 });
    expect(result.values).toEqual(['ZERO', 'TEXT OF A', 'TEXT OF B', 'TEXT OF C', 'TEXT OF D']);
  });
});
