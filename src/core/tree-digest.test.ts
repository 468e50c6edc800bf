import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sha256Hex } from './hash';
import { createMemo } from './memo';
import { DIGEST_CHUNK_DIVISOR, endsChunk, fnv1a, treeDigest } from './tree-digest';

interface Item {
  readonly text: string;
}

const leaf = (item: Item) => item.text;
const key = (item: Item) => item.text;
const spec = { name: 'test', key, leaf };

/** A digest function that keeps a memo across calls, as a compiler does across compilations. */
function tree(leafText: (item: Item) => string = leaf): { digest(list: readonly Item[]): string } {
  const memo = createMemo();
  return { digest: (list) => memo.revision(() => treeDigest(list, { ...spec, leaf: leafText }, memo)) };
}

function reference(items: readonly Item[], leafText: (item: Item) => string = leaf): string {
  const chunks: string[] = [];
  let chunk = '';
  items.forEach((item, index) => {
    chunk += `${leafText(item)}\n`;
    if (fnv1a(item.text) % DIGEST_CHUNK_DIVISOR === 0 || index === items.length - 1) {
      chunks.push(sha256Hex(chunk));
      chunk = '';
    }
  });
  return sha256Hex(chunks.map((digest) => `${digest}\n`).join(''));
}

const items = (count: number, prefix = 'row') => Array.from({ length: count }, (_, index) => ({ text: `${prefix}-${index} ≠ ü 😀` }));

describe('treeDigest', () => {
  it('hashes chunks of leaf lines and a root over the chunk digests', () => {
    for (const count of [0, 1, 2, 1000, 5000]) {
      expect(treeDigest(items(count), spec)).toBe(reference(items(count)));
      expect(tree().digest(items(count))).toBe(reference(items(count)));
    }
  });

  it('cuts where the caller says when it gives the cuts, which must agree with the keys', () => {
    const list = items(5_000);
    const agreeing = list.map((item) => endsChunk(item.text));
    expect(agreeing.filter(Boolean).length).toBeGreaterThan(1);
    expect(treeDigest(list, { ...spec, endsChunk: (_item, index) => agreeing[index] === true })).toBe(reference(list));
    expect(treeDigest(list, { ...spec, endsChunk: (_item, index) => agreeing[index + 1] === true })).not.toBe(reference(list));
  });

  it('hashes FNV-1a as published (32-bit, offset basis 2166136261, prime 16777619)', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
  });

  it('re-hashes only the chunk an inserted item falls into', () => {
    const list = items(20_000);
    let leaves = 0;
    const counting = tree((item: Item) => {
      leaves += 1;
      return item.text;
    });
    counting.digest(list);
    leaves = 0;
    counting.digest([...list.slice(0, 9_000), { text: 'inserted' }, ...list.slice(9_000)]);
    expect(leaves).toBeGreaterThan(0);
    expect(leaves).toBeLessThan(10 * DIGEST_CHUNK_DIVISOR);
  });

  it('gives a reused instance the digest a fresh one gives, whatever changed in between', () => {
    const base = items(5_000);
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ kind: fc.constantFrom('replace', 'remove', 'insert', 'append', 'truncate', 'same'), at: fc.nat(base.length - 1), text: fc.string() }),
          { minLength: 1, maxLength: 6 },
        ),
        (steps) => {
          const reused = tree();
          let current: Item[] = [...base];
          reused.digest(current);
          for (const step of steps) {
            const at = step.at % Math.max(current.length, 1);
            if (step.kind === 'replace') current = current.map((item, index) => (index === at ? { text: step.text.replace(/\n/g, ' ') } : item));
            if (step.kind === 'remove') current = current.filter((_, index) => index !== at);
            if (step.kind === 'append') current = [...current, { text: step.text.replace(/\n/g, ' ') }];
            if (step.kind === 'truncate') current = current.slice(0, at);
            if (step.kind === 'insert') current = [...current.slice(0, at), { text: step.text.replace(/\n/g, ' ') }, ...current.slice(at)];
            expect(reused.digest(current)).toBe(treeDigest(current, spec));
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('changes when any one leaf changes, and when two leaves trade places', () => {
    const list = items(3_000);
    const digest = tree();
    const before = digest.digest(list);
    const edited = list.map((item, index) => (index === 2_003 ? { text: `${item.text}!` } : item));
    expect(digest.digest(edited)).not.toBe(before);
    const swapped = [list[1], list[0], ...list.slice(2)] as Item[];
    expect(digest.digest(swapped)).not.toBe(before);
  });
});
