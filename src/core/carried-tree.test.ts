import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { carryTree, changedPositions, layoutOf, type CarriedTree, type TreeRules } from './carried-tree';
import { DIGEST_CHUNK_DIVISOR, endsChunk, treeDigest } from './tree-digest';

interface Item {
  readonly text: string;
  readonly kept: boolean;
}

const leaf = (item: Item) => item.text;
const include = (item: Item) => item.kept;

const items = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ text: `row-${index} ≠ ü 😀`, kept: index % 3 !== 0 }));
const cutsOf = (list: readonly Item[]) => Uint8Array.from(list, (item) => (endsChunk(item.text) ? 1 : 0));
const plain = (list: readonly Item[]) => treeDigest(list, { key: (item) => item.text, leaf, include });

/**
 * A tree kept from call to call, as attest keeps one from compilation to compilation, and the leaves it wrote in the
 * last call.
 */
function keptTree() {
  let last: CarriedTree<Item> | null = null;
  let layout = layoutOf(new Uint8Array(0));
  let written = 0;
  const rules: TreeRules<Item> = {
    include,
    leaf: (item) => {
      written += 1;
      return leaf(item);
    },
  };
  return {
    digest(list: readonly Item[]) {
      written = 0;
      const cuts = cutsOf(list);
      const aligned =
        last !== null && last.items.length === list.length && cuts.every((cut, index) => cut === layout.cuts[index]);
      if (!aligned) layout = layoutOf(cuts);
      last = carryTree(list, layout, rules, last, aligned && last !== null ? changedPositions(last.items, list) : null);
      return last;
    },
    written: () => written,
  };
}

describe('carryTree', () => {
  it('gives treeDigest’s digest, on a first call and on a kept tree after any change', () => {
    const base = items(6_000);
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            kind: fc.constantFrom('replace', 'flip', 'remove', 'insert', 'append', 'truncate', 'same'),
            at: fc.nat(base.length - 1),
            text: fc.string(),
          }),
          {
            minLength: 1,
            maxLength: 8,
          },
        ),
        (steps) => {
          const kept = keptTree();
          let current: Item[] = [...base];
          expect(kept.digest(current).root).toBe(plain(current));
          for (const step of steps) {
            const at = step.at % Math.max(current.length, 1);
            const item = { text: step.text.replace(/\n/g, ' '), kept: step.text.length % 2 === 0 };
            if (step.kind === 'replace')
              current = current.map((old, index) =>
                index === at ? { ...item, text: `${old.text}${item.text}` } : old,
              );
            if (step.kind === 'flip')
              current = current.map((old, index) => (index === at ? { ...old, kept: !old.kept } : old));
            if (step.kind === 'remove') current = current.filter((_, index) => index !== at);
            if (step.kind === 'append') current = [...current, item];
            if (step.kind === 'truncate') current = current.slice(0, at);
            if (step.kind === 'insert') current = [...current.slice(0, at), item, ...current.slice(at)];
            expect(kept.digest(current).root).toBe(plain(current));
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('writes only the chunk a changed item falls into, and keeps the digests of the others', () => {
    const kept = keptTree();
    const list = items(20_000);
    const first = kept.digest(list);
    expect(first.reused).toBe(0);
    const edited = list.map((item, index) => (index === 9_001 ? { ...item, text: `${item.text}!` } : item));
    const second = kept.digest(edited);
    expect(second.computed).toBe(1);
    expect(second.reused).toBe(first.chunks.length - 1);
    expect(kept.written()).toBeGreaterThan(0);
    expect(kept.written()).toBeLessThan(10 * DIGEST_CHUNK_DIVISOR);
    // An item the tree leaves out changes none of its chunks.
    const outside = edited.map((item, index) =>
      index === 9_001 ? item : index === 3 ? { ...item, text: 'not in this tree' } : item,
    );
    expect(outside[3]?.kept).toBe(false);
    expect(kept.digest(outside).computed).toBe(0);
  });

  it('after an insertion, keeps the chunks that hold the same items', () => {
    const kept = keptTree();
    const list = items(20_000);
    const first = kept.digest(list);
    const inserted = kept.digest([...list.slice(0, 9_000), { text: 'inserted', kept: true }, ...list.slice(9_000)]);
    expect(inserted.computed).toBe(1);
    expect(inserted.reused).toBe(first.chunks.length - 1);
  });
});
