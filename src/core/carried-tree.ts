import { createDigest, sha256HexOfBytes } from './hash';
import { linesBytes } from './tree-digest';

/**
 * `treeDigest`'s digest (the same bytes), over a list that changes a few positions at a time, kept from
 * one compilation to the next. The list's cut flags split it into segments, each ending at a cut (the last
 * perhaps not); a tree's chunk is a run of segments ending at one whose cut item the tree includes, so
 * a chunk none of whose segments holds a changed item is the chunk it was, and keeps its digest. An
 * update reads only the changed positions and the items of the chunks they fall in.
 */
export interface Layout {
  readonly cuts: Uint8Array;
  /** Segment j holds positions [starts[j], starts[j + 1]); the last entry is the list's length. */
  readonly starts: Int32Array;
}

export function layoutOf(cuts: Uint8Array): Layout {
  let segments = 0;
  for (let position = 0; position < cuts.length; position += 1)
    if (cuts[position] === 1 || position === cuts.length - 1) segments += 1;
  const starts = new Int32Array(segments + 1);
  let segment = 0;
  for (let position = 0; position < cuts.length; position += 1) {
    if (cuts[position] === 1 || position === cuts.length - 1) {
      segment += 1;
      starts[segment] = position + 1;
    }
  }
  return { cuts, starts };
}

/** The segment holding `position`: the last j with starts[j] <= position. */
function segmentOf(starts: Int32Array, position: number): number {
  let low = 0;
  let high = starts.length - 2;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if ((starts[middle] as number) <= position) low = middle;
    else high = middle - 1;
  }
  return low;
}

export interface TreeRules<T> {
  readonly include: (item: T) => boolean;
  /** The item's line (no newline in it); `position` is its place in the whole list. */
  readonly leaf: (item: T, position: number) => string;
}

interface Chunk {
  readonly first: number;
  readonly last: number;
  readonly hex: string;
}

export interface CarriedTree<T> {
  readonly items: readonly T[];
  /** Per segment, the positions the tree includes. */
  readonly members: readonly Int32Array[];
  /** Per segment: it ends a chunk (its last position is a cut whose item the tree includes). */
  readonly closes: Uint8Array;
  readonly chunks: readonly Chunk[];
  readonly root: string;
  /** Chunks whose digest was kept, and hashed, in the call that made this tree. */
  readonly reused: number;
  readonly computed: number;
}

/** Positions where two lists of the same length hold different objects: a walk over references, not over the items. */
export function changedPositions<T>(last: readonly T[], items: readonly T[]): number[] {
  const changed: number[] = [];
  for (let position = 0; position < items.length; position += 1)
    if (last[position] !== items[position]) changed.push(position);
  return changed;
}

/**
 * The tree over `items` under `layout`. With `last` (the tree of an earlier list under the same layout)
 * and `changed` (the positions whose item is another object than in `last.items`), only segments holding
 * a changed item the tree includes, before or now, are read again; without them, everything is.
 */
export function carryTree<T>(
  items: readonly T[],
  layout: Layout,
  rules: TreeRules<T>,
  last: CarriedTree<T> | null,
  changed: readonly number[] | null,
): CarriedTree<T> {
  const { cuts, starts } = layout;
  const segments = starts.length - 1;
  const dirty = new Uint8Array(segments);
  if (last === null || changed === null) dirty.fill(1);
  else {
    for (const position of changed) {
      if (rules.include(last.items[position] as T) || rules.include(items[position] as T))
        dirty[segmentOf(starts, position)] = 1;
    }
  }
  const members = last === null || changed === null ? new Array<Int32Array>(segments) : last.members.slice();
  const closes = last === null || changed === null ? new Uint8Array(segments) : last.closes.slice();
  for (let segment = 0; segment < segments; segment += 1) {
    if (dirty[segment] === 0) continue;
    const end = starts[segment + 1] as number;
    const included: number[] = [];
    for (let position = starts[segment] as number; position < end; position += 1)
      if (rules.include(items[position] as T)) included.push(position);
    members[segment] = Int32Array.from(included);
    closes[segment] = cuts[end - 1] === 1 && included[included.length - 1] === end - 1 ? 1 : 0;
  }

  const lastByFirst = new Map<number, Chunk>();
  if (last !== null && changed !== null) for (const chunk of last.chunks) lastByFirst.set(chunk.first, chunk);
  const sameAsBefore = last === null || changed !== null ? null : itemsMatch(last);
  const chunks: Chunk[] = [];
  let reused = 0;
  const close = (first: number, lastSegment: number) => {
    const before = sameAsBefore === null ? lastByFirst.get(first) : sameAsBefore(items, members, first, lastSegment);
    let clean = before !== undefined && (sameAsBefore !== null || before.last === lastSegment);
    for (let segment = first; clean && sameAsBefore === null && segment <= lastSegment; segment += 1)
      if (dirty[segment] === 1) clean = false;
    if (clean && before !== undefined) {
      chunks.push({ first, last: lastSegment, hex: before.hex });
      reused += 1;
      return;
    }
    const bytes = linesBytes((emit) => {
      for (let segment = first; segment <= lastSegment; segment += 1)
        for (const position of members[segment] as Int32Array) emit(rules.leaf(items[position] as T, position));
    });
    chunks.push({ first, last: lastSegment, hex: sha256HexOfBytes(bytes) });
  };
  let first = 0;
  let pending = 0;
  for (let segment = 0; segment < segments; segment += 1) {
    pending += (members[segment] as Int32Array).length;
    if (closes[segment] === 1) {
      close(first, segment);
      first = segment + 1;
      pending = 0;
    }
  }
  if (pending > 0) close(first, segments - 1);

  const root = createDigest();
  for (const chunk of chunks) root.update(`${chunk.hex}\n`);
  return { items, members, closes, chunks, root: root.hex(), reused, computed: chunks.length - reused };
}

/**
 * For a list whose positions moved (items inserted or removed): the earlier chunk that starts with the
 * same object and holds exactly the same objects, as the chunk being made does, if there is one.
 */
function itemsMatch<T>(
  last: CarriedTree<T>,
): (items: readonly T[], members: readonly Int32Array[], first: number, lastSegment: number) => Chunk | undefined {
  const byFirstItem = new Map<T, Chunk>();
  for (const chunk of last.chunks) {
    const head = (last.members[chunk.first] as Int32Array)[0];
    if (head !== undefined) byFirstItem.set(last.items[head] as T, chunk);
  }
  const positionsOf = (members: readonly Int32Array[], first: number, lastSegment: number) => {
    const positions: number[] = [];
    for (let segment = first; segment <= lastSegment; segment += 1)
      for (const position of members[segment] as Int32Array) positions.push(position);
    return positions;
  };
  return (items, members, first, lastSegment) => {
    const now = positionsOf(members, first, lastSegment);
    const before = now.length === 0 ? undefined : byFirstItem.get(items[now[0] as number] as T);
    if (before === undefined) return undefined;
    const then = positionsOf(last.members, before.first, before.last);
    return then.length === now.length &&
      then.every((position, index) => last.items[position] === items[now[index] as number])
      ? before
      : undefined;
  };
}
