import { canonicalJson } from './canonical';
import { equalValues, type Key, type KeyPart, sameKey } from './memo-keys';
import {
  changedInPlace,
  changedMarks,
  inverseOf,
  type Marks,
  type OrderedTable,
  positionsByName,
  samePlaces,
} from './memo-ordered';

/**
 * The inputs a memoised query declares, and the key its memo entries are valid for. Both come from one
 * list (`declare`), so a query cannot read an input its key leaves out: the inputs hold nothing else.
 */
export interface Declared<D> {
  readonly inputs: D;
  readonly key: string;
}

/**
 * The `fields` of `source`, and nothing else, as the input of a memoised query: `prepare` sees only
 * them (a field outside the list is a type error there, and absent at run time), and the key is the
 * canonical JSON of exactly them. List a field once, `as const`, and key and inputs cannot disagree.
 */
export function declare<S extends object, const F extends readonly (keyof S & string)[], D>(
  source: S,
  fields: F,
  prepare: (picked: Pick<S, F[number]>) => D,
): Declared<D> {
  const picked = {} as Pick<S, F[number]>;
  for (const field of fields) picked[field] = source[field];
  return { inputs: prepare(picked), key: canonicalJson(picked) };
}

/**
 * Per-item values with a version each: two equal versions of one table mean equal values, so what is
 * derived from a value can be keyed by its version instead of its content.
 */
export interface Versioned<O> {
  readonly values: readonly O[];
  readonly versions: Int32Array;
}

export interface TableStats {
  readonly reused: number;
  readonly computed: number;
}

/**
 * The compiler's one memo layer, in the manner of salsa: tables of per-item values and single cells, each
 * valid for the key it was computed under, reused under an equal key, dropped by revision. Keys are values
 * (record fingerprints, digests, declared contract fields), never object identity. Nothing here knows what a
 * query computes; src/core/queries.ts is the one module that applies it.
 */
export interface Memo {
  /**
   * `items.map(compute)`, where the item named `names[i]` is computed only when its key (`keys[i]`, with the
   * `shared` key of the inputs every item reads) differs from the last revision's. A value computed again that
   * equals (`equalValues`) the last one under its name is that last object with its version: early cutoff.
   */
  map<I, O>(
    table: string,
    shared: Key,
    names: readonly string[],
    keys: ArrayLike<Key>,
    items: readonly I[],
    compute: (item: I) => O,
  ): Versioned<O>;
  /**
   * `map` over `source` read through `order` (position `i` holds `source[order[i]]`, named `names[i]`), with no
   * copy into order and no list of keys: an item's key is `keyOf(item)`, joined at the few positions `marks` names
   * by the mark's key, compared with the key of the last revision's item under the same name. `keyOf` is the
   * table's rule and must not change between revisions; it should be a field read (a fingerprint), since it runs
   * twice per item.
   */
  mapInOrder<I, O>(
    table: string,
    names: readonly string[],
    order: Int32Array,
    source: readonly I[],
    keyOf: (item: I) => KeyPart,
    marks: Marks,
    compute: (item: I) => O,
  ): Versioned<O>;
  /** `compute()`, reused while `key` is equal to the last revision's. */
  cell<O>(name: string, key: Key, compute: () => O): O;
  /**
   * The version of a cell's value: it changes exactly when the cell is computed again, so it can key what is derived
   * from the value.
   */
  cellVersion(name: string): number;
  /**
   * Runs one revision (one compilation). Whatever a table or cell held from an earlier revision and
   * was not asked for in this one is dropped at its end, so the memo holds at most one revision's
   * values: memory stays flat however many revisions run.
   */
  revisionAsync<T>(work: () => Promise<T>): Promise<T>;
  /** What the last revision reused and computed, per table and cell name. */
  stats(): ReadonlyMap<string, TableStats>;
}

interface Table {
  readonly shared: Key;
  readonly names: readonly string[];
  readonly keys: ArrayLike<Key>;
  readonly values: readonly unknown[];
  readonly versions: Int32Array;
}

interface Cell {
  readonly key: Key;
  readonly value: unknown;
  readonly version: number;
}

/**
 * Where a table's keys changed since the last revision, when its items have the same names in the same places
 * (null when they do not): one loop of in-place compares over 100,000 items, and no look-up by name.
 */
function changedKeys(last: Table, names: readonly string[], keys: ArrayLike<Key>): number[] | null {
  if (last.keys.length !== keys.length || !samePlaces(last.names, names)) return null;
  const changed: number[] = [];
  for (let index = 0; index < names.length; index += 1) {
    const before = last.keys[index] as Key;
    const now = keys[index] as Key;
    if (before !== now && !sameKey(before, now)) changed.push(index);
  }
  return changed;
}

export function createMemo(): Memo {
  let tables = new Map<string, Table>();
  let ordered = new Map<string, OrderedTable>();
  let cells = new Map<string, Cell>();
  let used = new Set<string>();
  let stats = new Map<string, TableStats>();
  let inRevision = false;
  let lastVersion = 0;

  const count = (name: string, reused: number, computed: number) => {
    const before = stats.get(name);
    stats.set(name, { reused: (before?.reused ?? 0) + reused, computed: (before?.computed ?? 0) + computed });
  };

  /**
   * The last values and versions, copied once, with the changed positions computed again; a value equal to the last
   * one keeps the last object and its version (early cutoff).
   */
  const patched = <O>(
    last: { readonly values: readonly unknown[]; readonly versions: Int32Array },
    changed: readonly number[],
    computeAt: (index: number) => O,
  ): Versioned<O> => {
    const values = last.values.slice() as O[];
    const versions = last.versions.slice();
    for (const index of changed) {
      const value = computeAt(index);
      if (equalValues(last.values[index], value)) continue;
      values[index] = value;
      lastVersion += 1;
      versions[index] = lastVersion;
    }
    return { values, versions };
  };

  /** Where each name was in the last revision's table, looked up only once positions stop matching. */
  const positionsOf = (last: Table | undefined) => {
    let byName: Map<string, number> | null = null;
    return (name: string, index: number): number | undefined => {
      if (last === undefined) return undefined;
      if (last.names[index] === name) return index;
      byName ??= positionsByName(last.names);
      return byName.get(name);
    };
  };

  const memo: Memo = {
    map<I, O>(
      table: string,
      shared: Key,
      names: readonly string[],
      keys: ArrayLike<Key>,
      items: readonly I[],
      compute: (item: I) => O,
    ): Versioned<O> {
      used.add(table);
      const last = tables.get(table);
      const sameShared = last !== undefined && sameKey(last.shared, shared);
      const changed = last !== undefined && sameShared ? changedKeys(last, names, keys) : null;
      if (last !== undefined && changed !== null) {
        // Nothing any item reads changed: the whole table is reused without a value or a version being copied.
        if (changed.length === 0) {
          tables.set(table, { ...last, keys });
          count(table, items.length, 0);
          return { values: last.values as readonly O[], versions: last.versions };
        }
        // The same items with a few keys changed: the last values in bulk, and only the changed ones computed.
        const { values, versions } = patched(last, changed, (index) => compute(items[index] as I));
        tables.set(table, { shared, names, keys, values, versions });
        count(table, items.length - changed.length, changed.length);
        return { values, versions };
      }
      const lastAt = positionsOf(last);
      const values = new Array<O>(items.length);
      const versions = new Int32Array(items.length);
      let reused = 0;
      for (let index = 0; index < items.length; index += 1) {
        const at = lastAt(names[index] as string, index);
        if (
          last !== undefined &&
          at !== undefined &&
          sameShared &&
          (last.keys[at] === keys[index] || sameKey(last.keys[at] as Key, keys[index] as Key))
        ) {
          values[index] = last.values[at] as O;
          versions[index] = last.versions[at] as number;
          reused += 1;
          continue;
        }
        const value = compute(items[index] as I);
        if (last !== undefined && at !== undefined && equalValues(last.values[at], value)) {
          values[index] = last.values[at] as O;
          versions[index] = last.versions[at] as number;
        } else {
          values[index] = value;
          lastVersion += 1;
          versions[index] = lastVersion;
        }
      }
      tables.set(table, { shared, names, keys, values, versions });
      count(table, reused, items.length - reused);
      return { values, versions };
    },

    mapInOrder<I, O>(
      table: string,
      names: readonly string[],
      order: Int32Array,
      source: readonly I[],
      keyOf: (item: I) => KeyPart,
      marks: Marks,
      compute: (item: I) => O,
    ): Versioned<O> {
      used.add(table);
      const last = ordered.get(table);
      const same = last !== undefined && samePlaces(last.names, names);
      const lastPositions = last === undefined || same ? null : positionsByName(last.names);
      let positions: Map<string, number> | null = null;
      const positionOf = (name: string) => (positions ??= positionsByName(names)).get(name);
      const flags = last === undefined ? null : changedMarks(last, names, marks, same ? null : positionOf);
      const done = (values: readonly O[], versions: Int32Array, reused: number): Versioned<O> => {
        ordered.set(table, { names, order, source, marks, values, versions });
        count(table, reused, order.length - reused);
        return { values, versions };
      };
      // The same names in the same places: find the few changed positions first, so an unchanged table is reused
      // whole and a changed one copied in bulk. Filling a new array of every value costs more than all the compares.
      if (last !== undefined && same) {
        const changed = changedInPlace(last, order, source, keyOf, flags, () => inverseOf(order));
        if (changed.length === 0) return done(last.values as readonly O[], last.versions, order.length);
        const { values, versions } = patched(last, changed, (index) => compute(source[order[index] as number] as I));
        return done(values, versions, order.length - changed.length);
      }
      const values = new Array<O>(order.length);
      const versions = new Int32Array(order.length);
      let reused = 0;
      for (let index = 0; index < order.length; index += 1) {
        const item = source[order[index] as number] as I;
        const at = last === undefined ? -1 : (lastPositions?.get(names[index] as string) ?? -1);
        if (at >= 0) {
          const before = (last as OrderedTable).source[(last as OrderedTable).order[at] as number] as I;
          if (keyOf(before) === keyOf(item) && (flags === null || flags[index] === 0)) {
            values[index] = (last as OrderedTable).values[at] as O;
            versions[index] = (last as OrderedTable).versions[at] as number;
            reused += 1;
            continue;
          }
        }
        const value = compute(item);
        if (at >= 0 && equalValues((last as OrderedTable).values[at], value)) {
          values[index] = (last as OrderedTable).values[at] as O;
          versions[index] = (last as OrderedTable).versions[at] as number;
        } else {
          values[index] = value;
          lastVersion += 1;
          versions[index] = lastVersion;
        }
      }
      return done(values, versions, reused);
    },

    cell<O>(name: string, key: Key, compute: () => O): O {
      used.add(name);
      const last = cells.get(name);
      if (last !== undefined && sameKey(last.key, key)) {
        count(name, 1, 0);
        return last.value as O;
      }
      const value = compute();
      lastVersion += 1;
      cells.set(name, { key, value, version: lastVersion });
      count(name, 0, 1);
      return value;
    },

    cellVersion(name) {
      const cell = cells.get(name);
      if (cell === undefined) throw new Error(`the memo has no cell ${name}`);
      return cell.version;
    },

    async revisionAsync(work) {
      if (inRevision) return work();
      inRevision = true;
      used = new Set();
      stats = new Map();
      try {
        return await work();
      } finally {
        inRevision = false;
        tables = new Map([...tables].filter(([name]) => used.has(name)));
        ordered = new Map([...ordered].filter(([name]) => used.has(name)));
        cells = new Map([...cells].filter(([name]) => used.has(name)));
      }
    },

    stats: () => stats,
  };
  return memo;
}
