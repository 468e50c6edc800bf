/** How an ordered memo table (records read through their id order) differs from the last revision's. */

import { type Key, type KeyPart, sameKey } from './memo-keys';

/** Extra key parts at a few positions of an ordered table: `keys[k]` belongs to the item at `positions[k]`. */
export interface Marks {
  readonly positions: Int32Array;
  readonly keys: readonly Key[];
}

export interface OrderedTable {
  readonly names: readonly string[];
  readonly order: Int32Array;
  readonly source: readonly unknown[];
  readonly marks: Marks;
  readonly values: readonly unknown[];
  readonly versions: Int32Array;
}

/** Whether a table's items have the same names in the same places as the last revision's. */
export function samePlaces(last: readonly string[], names: readonly string[]): boolean {
  if (last === names) return true;
  if (last.length !== names.length) return false;
  for (let index = 0; index < names.length; index += 1) if (last[index] !== names[index]) return false;
  return true;
}

/** Each name's position, built only when positions shift (a record added or removed). */
export function positionsByName(names: readonly string[]): Map<string, number> {
  const positions = new Map<string, number>();
  for (let at = 0; at < names.length; at += 1) positions.set(names[at] as string, at);
  return positions;
}

/** Marks at the same positions with the same keys (the same object when the cell that made them was reused). */
function sameMarks(last: Marks, marks: Marks): boolean {
  if (last === marks) return true;
  if (last.positions.length !== marks.positions.length) return false;
  for (let at = 0; at < marks.positions.length; at += 1) if (last.positions[at] !== marks.positions[at]) return false;
  return sameKey(last.keys, marks.keys);
}

/**
 * The positions whose mark differs from the one the last revision gave the same name, a mark added or dropped
 * included, as flags (null when none differ): marks are few, so this costs nothing per item. `positionOf` finds a
 * dropped mark's name now; it is needed only when positions shifted.
 */
export function changedMarks(
  last: OrderedTable,
  names: readonly string[],
  marks: Marks,
  positionOf: ((name: string) => number | undefined) | null,
): Uint8Array | null {
  if (positionOf === null && sameMarks(last.marks, marks)) return null;
  const before = new Map<string, { readonly key: Key; readonly position: number }>();
  last.marks.positions.forEach((position, at) =>
    before.set(last.names[position] as string, { key: last.marks.keys[at] as Key, position }),
  );
  let flags: Uint8Array | null = null;
  const flag = (position: number | undefined) => {
    if (position === undefined) return;
    flags ??= new Uint8Array(names.length);
    flags[position] = 1;
  };
  marks.positions.forEach((position, at) => {
    const name = names[position] as string;
    const was = before.get(name);
    if (was === undefined || !sameKey(was.key, marks.keys[at] as Key)) flag(position);
    before.delete(name);
  });
  for (const [name, { position }] of before) flag(positionOf === null ? position : positionOf(name));
  return flags;
}

/**
 * Where an ordered table's item keys or marks changed, its names being in the last revision's places. Over the same
 * order the two sources are walked side by side in memory order, and an item that is the same object as the last one
 * has the same key (records are immutable), so its key is not read; `positionOf` turns a source index into a place.
 */
export function changedInPlace<I>(
  last: { readonly order: Int32Array; readonly source: readonly unknown[] },
  order: Int32Array,
  source: readonly I[],
  keyOf: (item: I) => KeyPart,
  flags: Uint8Array | null,
  positionOf: () => Int32Array,
): number[] {
  const lastSource = last.source as readonly I[];
  const changed: number[] = [];
  if (last.order !== order || lastSource.length !== source.length || order.length !== source.length) {
    for (let index = 0; index < order.length; index += 1)
      if (
        (flags !== null && flags[index] === 1) ||
        keyOf(lastSource[last.order[index] as number] as I) !== keyOf(source[order[index] as number] as I)
      )
        changed.push(index);
    return changed;
  }
  let places: Int32Array | null = null;
  for (let at = 0; at < source.length; at += 1) {
    const before = lastSource[at] as I;
    const now = source[at] as I;
    if (before !== now && keyOf(before) !== keyOf(now)) changed.push((places ??= positionOf())[at] as number);
  }
  if (flags !== null) for (let index = 0; index < flags.length; index += 1) if (flags[index] === 1) changed.push(index);
  return [...new Set(changed)].sort((a, b) => a - b);
}

/** Each source index's place in `order`. */
export function inverseOf(order: Int32Array): Int32Array {
  const inverse = new Int32Array(order.length);
  for (let index = 0; index < order.length; index += 1) inverse[order[index] as number] = index;
  return inverse;
}
