/** Memo keys and the one equality early cutoff uses: content, never identity. */

/** A key part: a value, never an object, so a memo entry is found by content and never by identity. */
export type KeyPart = string | number | boolean | null;

/** A key: one part, or a list of keys compared element by element (a typed array of numbers is a list of parts). */
export type Key = KeyPart | readonly Key[] | Int32Array;

export function sameKey(a: Key, b: Key): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || a.length !== b.length) return false;
  if (a instanceof Int32Array || b instanceof Int32Array) {
    if (!(a instanceof Int32Array && b instanceof Int32Array)) return false;
    for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
    return true;
  }
  for (let index = 0; index < a.length; index += 1)
    if (a[index] !== b[index] && !sameKey(a[index] as Key, b[index] as Key)) return false;
  return true;
}

/** Structural equality of plain data (arrays and plain objects of values): the one equality early cutoff uses. */
export function equalValues(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index += 1) if (!equalValues(a[index], b[index])) return false;
    return true;
  }
  if (Array.isArray(b) || a instanceof Map || a instanceof Set || b instanceof Map || b instanceof Set) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let keys = 0;
  for (const key in x) {
    if (!Object.hasOwn(x, key)) continue;
    if (!Object.hasOwn(y, key) || !equalValues(x[key], y[key])) return false;
    keys += 1;
  }
  for (const key in y) if (Object.hasOwn(y, key)) keys -= 1;
  return keys === 0;
}
