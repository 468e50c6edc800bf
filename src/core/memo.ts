import { canonicalJson } from './canonical';

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
 * What a pass may ask of whoever runs it. A pass is a plain function of its inputs; where it maps a
 * function over many items, or derives one value from many inputs, it says so through `Derive` and
 * names what the result depends on. Run with `computeAll`, everything is computed; run by a compiler's
 * memo (`createMemo`), what the last revision computed from the same inputs is handed back instead.
 * The answer is the same either way (src/core/incremental.test.ts compares the two).
 */
export interface Derive {
  /**
   * `items.map((item) => compute(item, declared.inputs))`: `compute` is handed its item and the declared
   * inputs (say, the parts of the contract a gate reads), and an earlier value is reused only under the
   * same `declared.key`. With `same`, a value computed again that equals the last one for the same
   * position is replaced by that last object, so what is derived from it is reused too.
   */
  map<I extends object, D, O>(
    table: string,
    declared: Declared<D>,
    items: readonly I[],
    compute: (item: I, inputs: D) => O,
    same?: (a: O, b: O) => boolean,
  ): readonly O[];
  /** `compute(deps)`: it is handed its `deps` (compared element by element with `===`) and may read nothing else. */
  cell<const D extends readonly unknown[], O>(name: string, deps: D, compute: (deps: D) => O): O;
  /**
   * A value kept from one revision to the next and brought up to date rather than built again:
   * `compute(input)` the first time, later `update(last, input)` from the last revision's value, which
   * must equal `compute(input)` (src/core/incremental.test.ts compares them). Both say how many of the
   * value's parts they kept and made, counted under `name`.
   */
  carry<I, S>(name: string, input: I, compute: (input: I) => Carried<S>, update: (last: S, input: I) => Carried<S>): S;
  /**
   * `values` as they are, except that a value equal (`same`) to the last revision's value at the same
   * position is that last object: early cutoff for values that are cheap to build but costly to use
   * (a trace row is cheap; hashing its chunk of the receipt is not).
   */
  stable<V>(table: string, values: readonly V[], same: (a: V, b: V) => boolean): readonly V[];
}

/** Computes everything, every time: the reference a memo must agree with. */
export const computeAll: Derive = {
  map: (_table, declared, items, compute) => items.map((item) => compute(item, declared.inputs)),
  cell: (_name, deps, compute) => compute(deps),
  carry: (_name, input, compute) => compute(input).value,
  stable: (_table, values) => values,
};

/** A carried value and how many of its parts were kept from the last revision and made again. */
export interface Carried<S> {
  readonly value: S;
  readonly reused: number;
  readonly computed: number;
}

export interface TableStats {
  readonly reused: number;
  readonly computed: number;
}

export interface Memo extends Derive {
  /**
   * Runs one revision (one compilation). Whatever a table or cell held from an earlier revision and
   * was not asked for in this one is dropped at its end, so the memo holds at most one revision's
   * values: memory stays flat however many revisions run.
   */
  revision<T>(work: () => T): T;
  /** `revision` for work that finishes later (a store across a network); the caller runs one at a time. */
  revisionAsync<T>(work: () => Promise<T>): Promise<T>;
  /** What the last revision reused and computed, per table and cell name. */
  stats(): ReadonlyMap<string, TableStats>;
  /** Drops everything, as if the memo were new. */
  clear(): void;
}

interface Table {
  readonly key: string;
  readonly items: readonly object[];
  readonly outputs: readonly unknown[];
}

interface Cell {
  readonly deps: readonly unknown[];
  readonly value: unknown;
}

/** Positional misses beyond which matching items by identity pays for building a map (positions moved). */
const REALIGN_AFTER_MISSES = 64;

function sameDeps(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

/**
 * The compiler's one memo layer, in the manner of salsa: tables of per-item values and single cells,
 * each valid for the inputs it was computed from, reused on identical inputs, evicted by revision.
 * Nothing here knows what a pass computes; no pass knows it is being memoised.
 */
export function createMemo(): Memo {
  let tables = new Map<string, Table>();
  let cells = new Map<string, Cell>();
  let usedTables = new Set<string>();
  let usedCells = new Set<string>();
  let stats = new Map<string, TableStats>();
  let inRevision = false;

  const count = (name: string, reused: number, computed: number) => {
    const before = stats.get(name);
    stats.set(name, { reused: (before?.reused ?? 0) + reused, computed: (before?.computed ?? 0) + computed });
  };

  const begin = () => {
    inRevision = true;
    usedTables = new Set();
    usedCells = new Set();
    stats = new Map();
  };
  const end = () => {
    inRevision = false;
    for (const name of tables.keys()) if (!usedTables.has(name)) tables.delete(name);
    for (const name of cells.keys()) if (!usedCells.has(name)) cells.delete(name);
  };

  const memo: Memo = {
    map<I extends object, D, O>(
      table: string,
      declared: Declared<D>,
      items: readonly I[],
      compute: (item: I, inputs: D) => O,
      same?: (a: O, b: O) => boolean,
    ): readonly O[] {
      const { key, inputs } = declared;
      usedTables.add(table);
      const last = tables.get(table) as
        { readonly key: string; readonly items: readonly I[]; readonly outputs: readonly O[] } | undefined;
      if (last !== undefined && last.key === key && last.items === items) {
        count(table, items.length, 0);
        return last.outputs;
      }
      const sameKey = last !== undefined && last.key === key;
      const aligned = last !== undefined && last.items.length === items.length;
      if (sameKey && aligned) {
        // A few changed positions among many (a toggle): copy the last outputs and compute only where the item
        // is another object. Many misses mean the items moved: then matching by identity, below, reuses more.
        const outputs = last.outputs.slice();
        const lastItems = last.items;
        let computed = 0;
        for (let index = 0; index < items.length && computed <= REALIGN_AFTER_MISSES; index += 1) {
          const item = items[index] as I;
          if (lastItems[index] === item) continue;
          computed += 1;
          const value = compute(item, inputs);
          const previous = last.outputs[index] as O;
          outputs[index] = same !== undefined && same(previous, value) ? previous : value;
        }
        if (computed <= REALIGN_AFTER_MISSES) {
          tables.set(table, { key, items, outputs });
          count(table, items.length - computed, computed);
          return outputs;
        }
      }
      let byItem: Map<I, O> | null = null;
      let misses = 0;
      const previousFor = (item: I, index: number): O | undefined => {
        if (last === undefined) return undefined;
        if (aligned && last.items[index] === item) return last.outputs[index];
        if (byItem === null && (!aligned || misses > REALIGN_AFTER_MISSES)) {
          byItem = new Map();
          for (let at = 0; at < last.items.length; at += 1) byItem.set(last.items[at] as I, last.outputs[at] as O);
        }
        return byItem?.get(item);
      };
      const outputs = new Array<O>(items.length);
      let reused = 0;
      for (let index = 0; index < items.length; index += 1) {
        const item = items[index] as I;
        if (sameKey) {
          const previous = previousFor(item, index);
          if (previous !== undefined || (aligned && last.items[index] === item)) {
            outputs[index] = previous as O;
            reused += 1;
            continue;
          }
          misses += 1;
        }
        const value = compute(item, inputs);
        const previous = same !== undefined && aligned ? last.outputs[index] : undefined;
        outputs[index] = previous !== undefined && same !== undefined && same(previous, value) ? previous : value;
      }
      tables.set(table, { key, items, outputs });
      count(table, reused, items.length - reused);
      return outputs;
    },

    cell<const D extends readonly unknown[], O>(name: string, deps: D, compute: (deps: D) => O): O {
      usedCells.add(name);
      const last = cells.get(name);
      if (last !== undefined && sameDeps(last.deps, deps)) {
        count(name, 1, 0);
        return last.value as O;
      }
      const value = compute(deps);
      cells.set(name, { deps, value });
      count(name, 0, 1);
      return value;
    },

    carry<I, S>(
      name: string,
      input: I,
      compute: (input: I) => Carried<S>,
      update: (last: S, input: I) => Carried<S>,
    ): S {
      usedCells.add(name);
      const last = cells.get(name);
      const carried = last === undefined ? compute(input) : update(last.value as S, input);
      cells.set(name, { deps: [], value: carried.value });
      count(name, carried.reused, carried.computed);
      return carried.value;
    },

    stable<V>(table: string, values: readonly V[], same: (a: V, b: V) => boolean): readonly V[] {
      usedTables.add(table);
      const last = tables.get(table);
      const previous =
        last !== undefined && last.outputs.length === values.length ? (last.outputs as readonly V[]) : null;
      let reused = 0;
      const kept =
        previous === null
          ? values
          : values.map((value, index) => {
              const before = previous[index] as V;
              if (before === value || !same(before, value)) return value;
              reused += 1;
              return before;
            });
      tables.set(table, { key: '', items: [], outputs: kept });
      count(table, reused, values.length - reused);
      return kept;
    },

    revision(work) {
      if (inRevision) return work();
      begin();
      try {
        return work();
      } finally {
        end();
      }
    },

    async revisionAsync(work) {
      if (inRevision) return work();
      begin();
      try {
        return await work();
      } finally {
        end();
      }
    },

    stats: () => stats,

    clear() {
      tables = new Map();
      cells = new Map();
      stats = new Map();
    },
  };
  return memo;
}
