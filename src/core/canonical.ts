/**
 * Canonical JSON as RFC 8785 (JSON Canonicalization Scheme, JCS) defines it: object keys sorted by UTF-16
 * code units, no whitespace, strings and numbers written the way ECMAScript's JSON.stringify writes them.
 * Two equal values always serialise to the same bytes, which is what fingerprints and receipt ids hash.
 *
 * What JCS cannot carry is refused with a TypeError: a non-finite number, a string holding a lone UTF-16
 * surrogate (I-JSON, RFC 7493, forbids them), a bigint (an integer beyond 2^53 must travel as a string,
 * RFC 8785 appendix D), a function or a symbol. Inputs are checked for lone surrogates where they are read
 * (`findLoneSurrogate`), so a user's file is refused with its path instead of reaching this throw.
 * `undefined` is treated as JSON.stringify treats it: an absent key, or `null` in an array.
 */
export function canonicalJson(value: unknown): string {
  const seen: Seen = { indexKey: false };
  const prepared = prepare(value, seen);
  // JSON.stringify writes the prepared copy natively (faster than joining strings here); it would put
  // array-index keys ("1", "10") first, though, so a value that has one is written by hand.
  const text = seen.indexKey ? write(value) : (JSON.stringify(prepared) as string);
  // JSON.stringify writes a lone surrogate as a `\udXXX` escape and nothing else as `\ud`, so one search of
  // the finished text replaces a test of every string (an escaped backslash before "ud" only costs the walk).
  if (text.includes('\\ud') && findLoneSurrogate(value) !== null) {
    throw new TypeError('canonical JSON cannot carry a lone surrogate (RFC 8785 takes I-JSON, which forbids them)');
  }
  return text;
}

/** What `prepare` found on its walk: whether an object has a key that JavaScript enumerates as an array index. */
interface Seen {
  indexKey: boolean;
}
const ARRAY_INDEX = /^(?:0|[1-9]\d*)$/;

/** Throws for what JSON cannot carry; everything else is a JSON value. */
function refuse(value: unknown): never {
  if (typeof value === 'number') throw new TypeError('canonical JSON cannot carry a non-finite number');
  if (typeof value === 'bigint')
    throw new TypeError('canonical JSON cannot carry a bigint: write an integer beyond 2^53 as a string');
  throw new TypeError(`canonical JSON cannot carry a ${typeof value}`);
}

/**
 * The value with every object copied into a prototype-free object whose keys were inserted in sorted
 * order, which JSON.stringify then keeps; arrays and primitives are kept as they are when nothing in
 * them changes. Checks every value on the way, since JSON.stringify would quietly drop or null them.
 */
function prepare(value: unknown, seen: Seen): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : refuse(value);
    case 'object': {
      if (value === null) return null;
      if (Array.isArray(value)) {
        let copy: unknown[] | null = null;
        for (let index = 0; index < value.length; index += 1) {
          const item: unknown = value[index];
          const prepared = item === undefined ? null : prepare(item, seen);
          if (copy === null && prepared !== item) copy = value.slice(0, index);
          if (copy !== null) copy.push(prepared);
        }
        return copy ?? value;
      }
      // The default sort compares strings by UTF-16 code units, which is exactly JCS's order.
      const keys = Object.keys(value).sort();
      const sorted = Object.create(null) as Record<string, unknown>;
      for (const key of keys) {
        const code = key.charCodeAt(0);
        if (code >= 48 && code <= 57 && ARRAY_INDEX.test(key)) seen.indexKey = true;
        const item = (value as Record<string, unknown>)[key];
        if (item !== undefined) sorted[key] = prepare(item, seen);
      }
      return sorted;
    }
    default:
      return refuse(value);
  }
}

/** The same text as JSON.stringify(prepare(value)), written piece by piece: for objects with array-index keys. */
function write(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value))
    return `[${value.map((item: unknown) => (item === undefined ? 'null' : write(item))).join(',')}]`;
  const parts: string[] = [];
  for (const key of Object.keys(value).sort()) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) parts.push(`${JSON.stringify(key)}:${write(item)}`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * A high surrogate not followed by a low one, or a low surrogate not preceded by a high one (code units, no `u` flag).
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const ANY_SURROGATE = /[\ud800-\udfff]/;

export function hasLoneSurrogate(text: string): boolean {
  // Most strings hold no surrogate at all: the simple class is cheaper than the look-arounds.
  return ANY_SURROGATE.test(text) && LONE_SURROGATE.test(text);
}

/** A `\uD800`–`\uDFFF` escape: the only way decoded UTF-8 text can put a surrogate into a parsed value. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/**
 * The path of the first string (key or value) in `value` that holds a lone surrogate, or null.
 * `sourceText`, when given, is the JSON text `value` was parsed from: text without a surrogate escape
 * cannot yield one (decoders replace broken UTF-8 with U+FFFD), so the walk is skipped.
 */
export function findLoneSurrogate(value: unknown, sourceText?: string): (string | number)[] | null {
  // A substring search first: much cheaper than the expression, and most text holds no escape at all.
  if (sourceText !== undefined && (!sourceText.includes('\\u') || !SURROGATE_ESCAPE.test(sourceText))) return null;
  const path: (string | number)[] = [];
  const walk = (item: unknown): boolean => {
    if (typeof item === 'string') return hasLoneSurrogate(item);
    if (item === null || typeof item !== 'object') return false;
    if (Array.isArray(item)) {
      for (let index = 0; index < item.length; index += 1) {
        path.push(index);
        if (walk(item[index])) return true;
        path.pop();
      }
      return false;
    }
    for (const [key, child] of Object.entries(item as Record<string, unknown>)) {
      path.push(key);
      if (hasLoneSurrogate(key) || walk(child)) return true;
      path.pop();
    }
    return false;
  };
  return walk(value) ? path : null;
}

/** Sorted, de-duplicated copy: for lists whose order carries no meaning (roles, classes, labels). */
export function sortedSet(values: readonly string[]): string[] {
  return [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * `sortedSet(values)`, or `values` itself when it is one already (strictly ascending): most lists arrive so, and need
 * no copy.
 */
export function asSortedSet(values: readonly string[]): readonly string[] {
  for (let index = 1; index < values.length; index += 1)
    if (!((values[index - 1] as string) < (values[index] as string))) return sortedSet(values);
  return values;
}

/** `JSON.stringify(sortedSet(values))`, without a copy of a list that is sorted already. */
export function sortedSetJson(values: readonly string[]): string {
  return JSON.stringify(asSortedSet(values));
}

export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
