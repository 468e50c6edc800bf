import { sha256 } from './test-support/sha256';
import { describe, expect, it } from 'vitest';
import { DIGEST_CHUNK_DIVISOR, endsChunk, fnv1a, treeDigest } from './tree-digest';

interface Item {
  readonly text: string;
}

const leaf = (item: Item) => item.text;
const key = (item: Item) => item.text;
const spec = { key, leaf };

function reference(items: readonly Item[], leafText: (item: Item) => string = leaf): string {
  const chunks: string[] = [];
  let chunk = '';
  items.forEach((item, index) => {
    chunk += `${leafText(item)}\n`;
    if (fnv1a(item.text) % DIGEST_CHUNK_DIVISOR === 0 || index === items.length - 1) {
      chunks.push(sha256.hex(chunk));
      chunk = '';
    }
  });
  return sha256.hex(chunks.map((digest) => `${digest}\n`).join(''));
}

const items = (count: number, prefix = 'row') =>
  Array.from({ length: count }, (_, index) => ({ text: `${prefix}-${index} ≠ ü 😀` }));

describe('treeDigest', () => {
  it('hashes chunks of leaf lines and a root over the chunk digests', () => {
    for (const count of [0, 1, 2, 1000, 5000]) {
      expect(treeDigest(sha256, items(count), spec)).toBe(reference(items(count)));
    }
  });

  it('cuts where the caller says when it gives the cuts, which must agree with the keys', () => {
    const list = items(5_000);
    const agreeing = list.map((item) => endsChunk(item.text));
    expect(agreeing.filter(Boolean).length).toBeGreaterThan(1);
    expect(treeDigest(sha256, list, { ...spec, endsChunk: (_item, index) => agreeing[index] === true })).toBe(
      reference(list),
    );
    expect(treeDigest(sha256, list, { ...spec, endsChunk: (_item, index) => agreeing[index + 1] === true })).not.toBe(
      reference(list),
    );
  });

  it('hashes FNV-1a as published (32-bit, offset basis 2166136261, prime 16777619)', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
  });

  it('changes when any one leaf changes, and when two leaves trade places', () => {
    const list = items(3_000);
    const before = treeDigest(sha256, list, spec);
    const edited = list.map((item, index) => (index === 2_003 ? { text: `${item.text}!` } : item));
    expect(treeDigest(sha256, edited, spec)).not.toBe(before);
    const swapped = [list[1], list[0], ...list.slice(2)] as Item[];
    expect(treeDigest(sha256, swapped, spec)).not.toBe(before);
  });
});
