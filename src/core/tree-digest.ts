import { createDigest, sha256Hex } from './hash';
import { computeAll, type Derive } from './memo';

/** A chunk ends after an item whose key hashes to 0 modulo this: chunks hold 1,024 items on average. */
export const DIGEST_CHUNK_DIVISOR = 1024;

/** 32-bit FNV-1a over UTF-16 code units: cheap, stable, and written out in docs/FORMAT.md. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export interface TreeDigestSpec<T> {
  /** Names this tree's chunks among everything a memo holds. */
  readonly name: string;
  /** Unique within the list: where chunks are cut, and the name of the chunk an item starts. */
  readonly key: (item: T) => string;
  /** The item's line; must not contain a newline. */
  readonly leaf: (item: T) => string;
}

/**
 * A two-level SHA-256 tree over a long ordered list. The list is cut into chunks after every item
 * whose key's FNV-1a hash is divisible by DIGEST_CHUNK_DIVISOR (and after the last item); a chunk's
 * digest is the SHA-256 of its items' leaf lines, each followed by a newline; the root is the SHA-256
 * of the chunk digests, one hex line each. The cuts depend on the items, not on positions, so an
 * inserted or removed item changes only its own chunk, and under a memo (`derive`) only the chunks
 * whose items changed are hashed again. The digest depends only on keys, leaves and order.
 */
export function treeDigest<T extends object>(items: readonly T[], spec: TreeDigestSpec<T>, derive: Derive = computeAll): string {
  const root = createDigest();
  let start = 0;
  for (let index = 0; index < items.length; index += 1) {
    // Computed afresh: hashing a short key costs less than finding the item's last cut in a memo table
    // once an insertion has shifted every later position.
    if (fnv1a(spec.key(items[index] as T)) % DIGEST_CHUNK_DIVISOR !== 0 && index + 1 < items.length) continue;
    const chunk = items.slice(start, index + 1);
    const hex = derive.cell(`${spec.name}:chunk:${spec.key(chunk[0] as T)}`, chunk, () => hashChunk(chunk, spec.leaf));
    root.update(`${hex}\n`);
    start = index + 1;
  }
  return root.hex();
}

/** One flat string per chunk: encoding it in one go is several times faster than feeding leaf after leaf. */
function hashChunk<T>(items: readonly T[], leaf: (item: T) => string): string {
  const lines = new Array<string>(items.length + 1);
  items.forEach((item, index) => {
    lines[index] = leaf(item);
  });
  lines[items.length] = '';
  return sha256Hex(lines.join('\n'));
}
