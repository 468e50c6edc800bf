import { createDigest } from './hash';

/** A chunk ends after an item whose key hashes to 0 modulo this: chunks hold 1,024 items on average. */
export const DIGEST_CHUNK_DIVISOR = 1024;

export interface TreeDigest<T> {
  /** The hex digest of `items` in this order. */
  digest(items: readonly T[]): string;
}

interface Chunk<T> {
  readonly items: readonly T[];
  readonly hex: string;
  /** Whether it ended at a cut (rather than at the end of the list). */
  readonly cut: boolean;
}

/** 32-bit FNV-1a over UTF-16 code units: cheap, stable, and written out in docs/FORMAT.md. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * A two-level SHA-256 tree over a long ordered list. The list is cut into chunks after every item
 * whose key's FNV-1a hash is divisible by DIGEST_CHUNK_DIVISOR (and after the last item); a chunk's
 * digest is the SHA-256 of its items' leaf texts, each followed by a newline; the root is the SHA-256
 * of the chunk digests, one hex line each. Because the cuts depend on the items, not on positions,
 * inserting or removing an item changes only its own chunk. One instance remembers the chunks it hashed
 * last time (by their first item), so a list that changed in a few items re-hashes only their chunks.
 * The digest depends only on the items' keys, leaf texts and order, never on what was cached.
 * Leaf texts must not contain a newline.
 */
export function createTreeDigest<T extends object>(leafText: (item: T) => string, key: (item: T) => string): TreeDigest<T> {
  let previous = new Map<T, Chunk<T>>();
  let last: { readonly items: readonly T[]; readonly hex: string } | null = null;
  return {
    digest(items) {
      // Lists are never changed once built, so the list digested last time has the same digest.
      if (last?.items === items) return last.hex;
      const chunks = new Map<T, Chunk<T>>();
      const root = createDigest();
      const add = (chunk: Chunk<T>) => {
        chunks.set(chunk.items[0] as T, chunk);
        root.update(`${chunk.hex}\n`);
      };
      let start = 0;
      for (let index = 0; index < items.length; index += 1) {
        if (index === start) {
          // A chunk from last time that starts here with the same items has the same cuts: skip hashing and keys.
          const before = previous.get(items[start] as T);
          const end = start + (before?.items.length ?? 0);
          if (before !== undefined && (before.cut || end === items.length) && end <= items.length && sameItemsAt(before.items, items, start)) {
            add(before);
            start = end;
            index = end - 1;
            continue;
          }
        }
        const cut = fnv1a(key(items[index] as T)) % DIGEST_CHUNK_DIVISOR === 0;
        if (!cut && index + 1 < items.length) continue;
        const members = items.slice(start, index + 1);
        add({ items: members, hex: hashChunk(members, leafText), cut });
        start = index + 1;
      }
      previous = chunks;
      last = { items, hex: root.hex() };
      return last.hex;
    },
  };
}

function sameItemsAt<T>(chunk: readonly T[], items: readonly T[], start: number): boolean {
  for (let index = 0; index < chunk.length; index += 1) if (chunk[index] !== items[start + index]) return false;
  return true;
}

function hashChunk<T>(items: readonly T[], leafText: (item: T) => string): string {
  const digest = createDigest();
  for (const item of items) {
    digest.update(leafText(item));
    digest.update('\n');
  }
  return digest.hex();
}
