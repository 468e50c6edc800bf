import { describe, expect, it } from 'vitest';
import { computeAll, createMemo, declare } from './memo';

interface Item {
  readonly id: string;
  readonly value: number;
}

/** A declared input that is nothing but its key. */
const keyed = (key: string) => declare({ key }, ['key'], () => null);

const items = (count: number): Item[] =>
  Array.from({ length: count }, (_, index) => ({ id: `i${index}`, value: index }));

describe('createMemo', () => {
  it('maps like computeAll, computing only items it has not seen under the same key', () => {
    const memo = createMemo();
    const list = items(200);
    let calls = 0;
    const double = (item: Item) => {
      calls += 1;
      return { doubled: item.value * 2 };
    };
    const first = memo.revision(() => memo.map('double', keyed('k'), list, double));
    expect(first).toEqual(computeAll.map('double', keyed('k'), list, double));
    calls = 0;
    const replaced = list.map((item, index) => (index === 7 ? { ...item, value: 70 } : item));
    const second = memo.revision(() => memo.map('double', keyed('k'), replaced, double));
    expect(calls).toBe(1);
    expect(second[7]).toEqual({ doubled: 140 });
    expect(second[8]).toBe(first[8]);
    expect(memo.stats().get('double')).toEqual({ reused: 199, computed: 1 });
  });

  it('finds items by identity when positions move, and computes everything again under another key', () => {
    const memo = createMemo();
    const list = items(300);
    const first = memo.revision(() => memo.map('id', keyed('k'), list, (item) => ({ id: item.id })));
    const shifted = [{ id: 'new', value: -1 }, ...list];
    const second = memo.revision(() => memo.map('id', keyed('k'), shifted, (item) => ({ id: item.id })));
    expect(second[1]).toBe(first[0]);
    expect(memo.stats().get('id')).toEqual({ reused: 300, computed: 1 });
    memo.revision(() => memo.map('id', keyed('other'), shifted, (item) => ({ id: item.id })));
    expect(memo.stats().get('id')).toEqual({ reused: 0, computed: 301 });
  });

  it('cuts off: a value computed again and found equal is the old object', () => {
    const memo = createMemo();
    const list = items(3);
    const parity = (key: string) =>
      memo.revision(() =>
        memo.map(
          'parity',
          keyed(key),
          list,
          (item) => ({ even: item.value % 2 === 0 }),
          (a, b) => a.even === b.even,
        ),
      );
    const first = parity('a');
    const second = parity('b');
    expect(second[0]).toBe(first[0]);
    const stable = memo.revision(() =>
      memo.stable(
        'rows',
        list.map((item) => ({ ...item })),
        (a, b) => a.id === b.id && a.value === b.value,
      ),
    );
    const again = memo.revision(() =>
      memo.stable(
        'rows',
        list.map((item) => ({ ...item })),
        (a, b) => a.id === b.id && a.value === b.value,
      ),
    );
    expect(again[2]).toBe(stable[2]);
  });

  it('declares inputs: the listed fields alone reach the query, and they alone make the key', () => {
    const source = { a: 1, b: ['x', 'y'], c: 'unlisted' };
    const seen: object[] = [];
    const declared = declare(source, ['b', 'a'], (picked) => (seen.push(picked), picked.a + picked.b.length));
    expect(declared.inputs).toBe(3);
    expect(Object.keys(seen[0] ?? {}).sort()).toEqual(['a', 'b']);
    expect(declared.key).toBe('{"a":1,"b":["x","y"]}');
    expect(declare({ ...source, c: 'changed' }, ['b', 'a'], () => 0).key).toBe(declared.key);
    expect(declare({ ...source, a: 2 }, ['b', 'a'], () => 0).key).not.toBe(declared.key);
    // A field the list leaves out is not there to read: typecheck fails on this line if it ever is.
    // @ts-expect-error 'c' is not declared
    expect(declare(source, ['a'], (picked) => picked.c).inputs).toBeUndefined();
    const memo = createMemo();
    const items = [{ v: 1 }];
    expect(
      memo.revision(() =>
        memo.map(
          'sum',
          declare(source, ['a'], ({ a }) => a),
          items,
          (item, a) => item.v + a,
        ),
      ),
    ).toEqual([2]);
    expect(
      memo.revision(() =>
        memo.map(
          'sum',
          declare({ ...source, a: 5 }, ['a'], ({ a }) => a),
          items,
          (item, a) => item.v + a,
        ),
      ),
    ).toEqual([6]);
    expect(memo.stats().get('sum')).toEqual({ reused: 0, computed: 1 });
    expect(
      memo.revision(() =>
        memo.map(
          'sum',
          declare({ ...source, a: 5, c: 'other' }, ['a'], ({ a }) => a),
          items,
          (item, a) => item.v + a,
        ),
      ),
    ).toEqual([6]);
    expect(memo.stats().get('sum')).toEqual({ reused: 1, computed: 0 });
  });

  it('reuses a cell while its dependencies are the same, element by element', () => {
    const memo = createMemo();
    let calls = 0;
    const sum = (deps: readonly number[]) =>
      memo.revision(() => memo.cell('sum', deps, (given) => ((calls += 1), given.reduce((a, b) => a + b, 0))));
    expect(sum([1, 2, 3])).toBe(6);
    expect(sum([1, 2, 3])).toBe(6);
    expect(calls).toBe(1);
    expect(sum([1, 2, 4])).toBe(7);
    expect(calls).toBe(2);
  });

  it('carries a value from one revision to the next, updated rather than computed, and counts what was kept', () => {
    const memo = createMemo();
    const calls: string[] = [];
    const sum = (input: readonly number[]) =>
      memo.revision(() =>
        memo.carry(
          'sum',
          input,
          (numbers) => {
            calls.push('compute');
            return { value: numbers.reduce((a, b) => a + b, 0), reused: 0, computed: numbers.length };
          },
          (last, numbers) => {
            calls.push(`update ${last}`);
            return { value: numbers.reduce((a, b) => a + b, 0), reused: numbers.length - 1, computed: 1 };
          },
        ),
      );
    expect(sum([1, 2])).toBe(3);
    expect(sum([1, 5])).toBe(6);
    expect(calls).toEqual(['compute', 'update 3']);
    expect(memo.stats().get('sum')).toEqual({ reused: 1, computed: 1 });
    expect(
      computeAll.carry(
        'sum',
        [4],
        (numbers) => ({ value: numbers.length, reused: 0, computed: 1 }),
        () => ({ value: -1, reused: 0, computed: 0 }),
      ),
    ).toBe(1);
  });

  it('keeps nothing from a revision that the next revision did not use', () => {
    const memo = createMemo();
    let calls = 0;
    const compute = () => (calls += 1);
    memo.revision(() => memo.cell('a', [1], compute));
    memo.revision(() => memo.cell('b', [1], compute));
    memo.revision(() => memo.cell('a', [1], compute));
    expect(calls).toBe(3);
  });
});
