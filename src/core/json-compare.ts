/**
 * Comparing JSON values as their canonical forms would compare, without writing either out: the receipt diff
 * reads every field it has no section for through these.
 */

/** One value that differs; `field` is a path such as `asOf`, `principals` or `ranking.documents`. */
export interface FieldChange {
  readonly field: string;
  readonly before: unknown;
  readonly after: unknown;
}

export type JsonObject = Readonly<Record<string, unknown>>;

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Own keys with a defined value, in canonical (UTF-16 code unit) order. */
function keysOf(value: JsonObject): string[] {
  return Object.keys(value)
    .filter((key) => value[key] !== undefined)
    .sort();
}

export function unionKeys(a: JsonObject, b: JsonObject): string[] {
  return [...new Set([...keysOf(a), ...keysOf(b)])].sort();
}

/** Whether two JSON values have the same canonical form, compared without writing either out. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index += 1) if (!sameJson(a[index] ?? null, b[index] ?? null)) return false;
    return true;
  }
  // Equality needs no key order: count the defined keys on both sides and compare each of one in the other.
  const left = a as JsonObject;
  const right = b as JsonObject;
  let count = 0;
  for (const key in left) {
    if (!Object.hasOwn(left, key) || left[key] === undefined) continue;
    count += 1;
    if (right[key] === undefined || !Object.hasOwn(right, key) || !sameJson(left[key], right[key])) return false;
  }
  for (const key in right) if (Object.hasOwn(right, key) && right[key] !== undefined) count -= 1;
  return count === 0;
}

/** Fields that name the items of a list of objects (principals, propositions, ranking terms). */
const ITEM_KEYS = ['id', 'term', 'proposition'] as const;

/** The field every item of both lists has, with distinct string values, in the same relative order; else null. */
function itemKey(before: readonly unknown[], after: readonly unknown[]): string | null {
  for (const key of ITEM_KEYS) {
    const names = (items: readonly unknown[]) =>
      items.map((item) => (isObject(item) && typeof item[key] === 'string' ? item[key] : null));
    const a = names(before);
    const b = names(after);
    if (a.includes(null) || b.includes(null) || new Set(a).size !== a.length || new Set(b).size !== b.length) continue;
    // Order can matter (the principal chain): a reordered list is compared whole.
    const shared = new Set(a.filter((name) => b.includes(name)));
    if (a.filter((name) => shared.has(name)).join('\u0000') !== b.filter((name) => shared.has(name)).join('\u0000'))
      return null;
    return key;
  }
  return null;
}

/**
 * Differing values under `prefix`: objects are descended into, lists of named objects item by item
 * (`ranking.terms[waiver].documents`), anything else (other lists included) compared whole.
 */
export function changesIn(before: unknown, after: unknown, prefix: string, out: FieldChange[]): void {
  if (sameJson(before, after)) return;
  if (isObject(before) && isObject(after)) {
    for (const key of unionKeys(before, after))
      changesIn(before[key] ?? null, after[key] ?? null, prefix === '' ? key : `${prefix}.${key}`, out);
    return;
  }
  const key =
    Array.isArray(before) && Array.isArray(after) && before.length > 0 && after.length > 0
      ? itemKey(before, after)
      : null;
  if (key !== null && Array.isArray(before) && Array.isArray(after)) {
    const byName = (items: readonly unknown[]) =>
      new Map(items.map((item) => [(item as JsonObject)[key] as string, item]));
    const left = byName(before);
    const right = byName(after);
    for (const name of new Set([...left.keys(), ...right.keys()]))
      changesIn(left.get(name) ?? null, right.get(name) ?? null, `${prefix}[${name}]`, out);
    return;
  }
  out.push({ field: prefix, before, after });
}
