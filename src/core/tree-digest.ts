import type { Sha256 } from './fingerprints';

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

/** Whether a chunk ends after the item with this key (the rule above). */
export function endsChunk(key: string): boolean {
  return fnv1a(key) % DIGEST_CHUNK_DIVISOR === 0;
}

export interface TreeDigestSpec<T> {
  /** Where chunks are cut. */
  readonly key: (item: T) => string;
  /** The item's line; must not contain a newline. */
  readonly leaf: (item: T) => string;
  /**
   * Which items of the list the tree covers (all when absent): one list can feed two trees without being split into two
   * copies.
   */
  readonly include?: (item: T) => boolean;
  /**
   * `endsChunk(key(item))`, for a caller that already holds it (a record's is worked out once, when the
   * record is read; `index` is the item's place in the whole list). Over a large corpus the keys lie far
   * apart in memory, and reading every key's characters again costs more than the rest of the walk.
   */
  readonly endsChunk?: (item: T, index: number) => boolean;
}

/**
 * The chunks of a two-level tree over `items`: the positions of the items each chunk holds. The list is cut
 * after every included item whose key's FNV-1a hash is divisible by DIGEST_CHUNK_DIVISOR (and after the last).
 * The cuts depend on the items, not on positions, so an inserted or removed item changes only its own chunk.
 */
export function chunksOf<T>(items: readonly T[], spec: Omit<TreeDigestSpec<T>, 'leaf'>): Int32Array[] {
  // Views of one array of positions: a typed array per chunk built from a list goes through the iterator protocol, far
  // slower.
  const positions = new Int32Array(items.length);
  const chunks: Int32Array[] = [];
  let start = 0;
  let end = 0;
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index] as T;
    if (spec.include !== undefined && !spec.include(item)) continue;
    positions[end] = index;
    end += 1;
    if (spec.endsChunk === undefined ? endsChunk(spec.key(item)) : spec.endsChunk(item, index)) {
      chunks.push(positions.subarray(start, end));
      start = end;
    }
  }
  if (end > start) chunks.push(positions.subarray(start, end));
  return chunks;
}

/** A chunk's digest: the SHA-256 of its items' leaf lines, each followed by a newline. */
export function chunkDigest<T>(
  sha256: Sha256,
  items: readonly T[],
  positions: Int32Array,
  leaf: (item: T) => string,
  buffer: LineBuffer,
): string {
  return sha256.hexOfBytes(
    linesBytes((emit) => {
      for (const position of positions) emit(leaf(items[position] as T));
    }, buffer),
  );
}

/** The root: the SHA-256 of the chunk digests, one hex line each. */
export function rootOfChunks(sha256: Sha256, chunkDigests: readonly string[]): string {
  const root = sha256.digest();
  for (const hex of chunkDigests) root.update(`${hex}\n`);
  return root.hex();
}

/**
 * A two-level SHA-256 tree over a long ordered list (`chunksOf`, `chunkDigest`, `rootOfChunks`): a changed item
 * changes its chunk's digest and the root only, so a compiler's memo hashes only the chunks that changed; this
 * is the plain computation, which checking a receipt uses. The digest depends only on keys, leaves and order.
 */
export function treeDigest<T extends object>(sha256: Sha256, items: readonly T[], spec: TreeDigestSpec<T>): string {
  const buffer = createLineBuffer();
  return rootOfChunks(
    sha256,
    chunksOf(items, spec).map((positions) => chunkDigest(sha256, items, positions, spec.leaf, buffer)),
  );
}

/** Leaf lines joined into one string before they are encoded: long enough that encoding runs in bulk. */
const LINES_PER_ENCODE = 64;
const encoder = new TextEncoder();
/**
 * Where a chunk's bytes are written, grown as a chunk needs: hashing reads them before the next chunk is written.
 * Each caller holds its own (a tree digest, a compiler's queries), so the core keeps no state between calls.
 */
export interface LineBuffer {
  bytes: Uint8Array;
}

export function createLineBuffer(): LineBuffer {
  return { bytes: new Uint8Array(1 << 16) };
}

/**
 * The lines `write` emits, each followed by a newline, as UTF-8, encoded a few dozen lines at a time: a
 * flat string per group encodes in one go, while one string for the whole chunk (hundreds of kilobytes)
 * would be a large-object allocation that costs more to make than to hash. The bytes are valid until the next call.
 */
export function linesBytes(write: (emit: (line: string) => void) => void, buffer: LineBuffer): Uint8Array {
  let used = 0;
  const lines = new Array<string>(LINES_PER_ENCODE + 1);
  const encode = (count: number) => {
    lines.length = count;
    lines.push('');
    const text = lines.join('\n');
    // UTF-8 takes at most three bytes per UTF-16 unit.
    if (used + text.length * 3 > buffer.bytes.length) {
      const grown = new Uint8Array(Math.max(buffer.bytes.length * 2, used + text.length * 3));
      grown.set(buffer.bytes.subarray(0, used));
      buffer.bytes = grown;
    }
    used += encoder.encodeInto(text, buffer.bytes.subarray(used)).written;
  };
  let count = 0;
  write((line) => {
    lines[count] = line;
    count += 1;
    if (count === LINES_PER_ENCODE) {
      encode(count);
      count = 0;
    }
  });
  if (count > 0) encode(count);
  return buffer.bytes.subarray(0, used);
}
