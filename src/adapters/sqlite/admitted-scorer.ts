import type { SqlDriver } from './driver';
import { safeFtsTerms } from './fts-query';
import { byScoreThenId, roundScore, type RankedRow, type Ranking } from '../../core/phases/5-rank/ranking';
import { columnSizes, rankAdmitted } from './fts5-rank';
import { TOKENIZER } from './record-tables';

/** FTS5's bm25() constants (fts5_aux.c) and the column weights `rankAdmitted` passes it: title 2, text 1. */
const K1 = 1.2;
const B = 0.75;
const WEIGHT = { title: 2, text: 1 } as const;
/** More rows entering than this at once are read from `admitted_text` in bulk instead of tokenised one by one. */
const MAX_TOKENISED = 1_024;

/**
 * The admitted set's bm25 kept in memory: the query terms' postings and every admitted row's length in
 * typed arrays, with the row count, each term's document count and the token total updated as rows enter
 * and leave `admitted_text`. FTS5 stays the tokenizer and the source of the postings: they are read from
 * `admitted_text` once per query (its `fts5vocab` instance table), and a row that enters later is
 * tokenised by a scratch FTS5 table with the same tokenizer. The arithmetic is fts5_aux.c's, in its order,
 * so a score is the double `bm25()` gives over `admitted_text` (search/admitted-scorer.test.ts, FORMAT.md).
 */
export interface AdmittedScorer {
  /** A row was written into `admitted_text` with this title and text. */
  entered(rowid: number, title: string, text: string): void;
  /** A row was deleted from `admitted_text`. */
  left(rowid: number): void;
  /**
   * `rankAdmitted`'s answer for `admitted_text` as it is now; `round` is `roundScore` unless a test compares the
   * doubles.
   */
  rank(query: string, idOf: (rowid: number) => string | undefined, round?: (score: number) => number): Ranking;
}

interface Postings {
  readonly query: string;
  /** The one FTS5 token of each query term, in the query's order (bm25 sums its phrases in that order). */
  readonly tokens: readonly string[];
  /** Row of each slot, its length in tokens (all columns), and per slot and term the weighted frequency. */
  rowids: Int32Array;
  lengths: Float64Array;
  frequencies: Float64Array;
  readonly slotOf: Map<number, number>;
  /** Admitted rows matching each term. */
  readonly documents: Float64Array;
  count: number;
  tokenTotal: number;
}

export function createAdmittedScorer(driver: SqlDriver): AdmittedScorer {
  driver.exec(`
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.scorer_scratch USING fts5(title, text, content='', ${TOKENIZER});
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.scorer_scratch_instances USING fts5vocab(temp, scorer_scratch, instance);
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.scorer_admitted_instances USING fts5vocab(main, admitted_text, instance);
  `);
  const insertScratch = driver.prepare('INSERT INTO temp.scorer_scratch (rowid, title, text) VALUES (?, ?, ?)');
  const clearScratch = () => driver.exec("INSERT INTO temp.scorer_scratch (scorer_scratch) VALUES ('delete-all')");
  let postings: Postings | null = null;
  /** Rows that entered since the postings were read, not yet tokenised (their title and text). */
  const pending = new Map<number, readonly [string, string]>();

  /** The FTS5 tokens of each term, or null when some term is not exactly one token (FTS5 then ranks itself). */
  const tokensOf = (terms: readonly string[]): string[] | null => {
    const tokens: string[] = [];
    for (const term of terms) {
      insertScratch.run([1, term.slice(1, -1), '']);
      const found = driver.all('SELECT term FROM temp.scorer_scratch_instances');
      clearScratch();
      if (found.length !== 1) return null;
      tokens.push(String(found[0]?.[0]));
    }
    return tokens;
  };

  const slotFor = (state: Postings, rowid: number, length: number): number => {
    const slot = state.count;
    if (slot === state.rowids.length) {
      const grow = <T extends Int32Array | Float64Array>(array: T, make: (size: number) => T): T => {
        const next = make(array.length * 2);
        next.set(array);
        return next;
      };
      state.rowids = grow(state.rowids, (size) => new Int32Array(size));
      state.lengths = grow(state.lengths, (size) => new Float64Array(size));
      state.frequencies = grow(state.frequencies, (size) => new Float64Array(size));
    }
    state.rowids[slot] = rowid;
    state.lengths[slot] = length;
    state.frequencies.fill(0, slot * state.tokens.length, (slot + 1) * state.tokens.length);
    state.slotOf.set(rowid, slot);
    state.count += 1;
    state.tokenTotal += length;
    return slot;
  };

  /**
   * Reads each token's instances from an instance table into the state's slots. One integer per instance
   * (row × 2, plus 1 in the text column) in one JSON array per token: one value crosses from SQLite per
   * token, where a `GROUP BY doc, col` or rows handed over one by one cost far more.
   */
  const readInstances = (state: Postings, table: string) => {
    const terms = state.tokens.length;
    state.tokens.forEach((token, term) => {
      const [row] = driver.all(`SELECT json_group_array(doc * 2 + (col = 'text')) FROM ${table} WHERE term = ?`, [
        token,
      ]);
      const instances = JSON.parse(String(row?.[0] ?? '[]')) as number[];
      let documents = state.documents[term] as number;
      for (let index = 0; index < instances.length; index += 1) {
        const packed = instances[index] as number;
        const rowid = packed >>> 1;
        const slot = state.slotOf.get(rowid);
        if (slot === undefined) throw new Error(`${table} has row ${String(rowid)} without a length`);
        const at = slot * terms + term;
        if (state.frequencies[at] === 0) documents += 1;
        // fts5_aux.c adds the column's weight once per instance; integers add exactly, in any order.
        state.frequencies[at] = (state.frequencies[at] as number) + ((packed & 1) === 1 ? WEIGHT.text : WEIGHT.title);
      }
      state.documents[term] = documents;
    });
  };

  const addLengths = (state: Postings, docsizes: string) => {
    for (const [rowid, hex] of JSON.parse(docsizes) as [number, string][])
      slotFor(
        state,
        rowid,
        columnSizes(hex).reduce((sum, size) => sum + size, 0),
      );
  };

  const readAll = (query: string, tokens: readonly string[]): Postings => {
    const size = 1_024;
    const state: Postings = {
      query,
      tokens,
      rowids: new Int32Array(size),
      lengths: new Float64Array(size),
      frequencies: new Float64Array(size * Math.max(1, tokens.length)),
      slotOf: new Map(),
      documents: new Float64Array(tokens.length),
      count: 0,
      tokenTotal: 0,
    };
    addLengths(
      state,
      String(driver.all('SELECT json_group_array(json_array(id, hex(sz))) FROM admitted_text_docsize')[0]?.[0] ?? '[]'),
    );
    readInstances(state, 'temp.scorer_admitted_instances');
    return state;
  };

  const leave = (state: Postings, rowid: number) => {
    const slot = state.slotOf.get(rowid);
    if (slot === undefined) throw new Error(`the scorer does not hold row ${String(rowid)}`);
    const terms = state.tokens.length;
    for (let term = 0; term < terms; term += 1)
      if ((state.frequencies[slot * terms + term] as number) > 0)
        state.documents[term] = (state.documents[term] as number) - 1;
    state.tokenTotal -= state.lengths[slot] as number;
    // The last slot moves into the freed one: slots stay dense.
    const last = state.count - 1;
    if (slot !== last) {
      const moved = state.rowids[last] as number;
      state.rowids[slot] = moved;
      state.lengths[slot] = state.lengths[last] as number;
      state.frequencies.copyWithin(slot * terms, last * terms, (last + 1) * terms);
      state.slotOf.set(moved, slot);
    }
    state.slotOf.delete(rowid);
    state.count = last;
  };

  const tokenisePending = (state: Postings) => {
    driver.transaction(() => {
      for (const [rowid, [title, text]] of pending) insertScratch.run([rowid, title, text]);
      addLengths(
        state,
        String(
          driver.all('SELECT json_group_array(json_array(id, hex(sz))) FROM temp.scorer_scratch_docsize')[0]?.[0] ??
            '[]',
        ),
      );
      readInstances(state, 'temp.scorer_scratch_instances');
      clearScratch();
    });
    pending.clear();
  };

  const score = (
    state: Postings,
    idOf: (rowid: number) => string | undefined,
    round: (score: number) => number,
  ): RankedRow[] => {
    const terms = state.tokens.length;
    // fts5Bm25GetData: avgdl and each phrase's idf, with its floor.
    const averageLength = state.tokenTotal / state.count;
    const idf = Array.from(state.documents, (hits) => {
      const value = Math.log((state.count - hits + 0.5) / (hits + 0.5));
      return value <= 0 ? 1e-6 : value;
    });
    const rows: RankedRow[] = [];
    for (let slot = 0; slot < state.count; slot += 1) {
      const base = slot * terms;
      let matched = false;
      for (let term = 0; term < terms; term += 1) if ((state.frequencies[base + term] as number) > 0) matched = true;
      if (!matched) continue;
      const length = state.lengths[slot] as number;
      let sum = 0;
      for (let term = 0; term < terms; term += 1) {
        const frequency = state.frequencies[base + term] as number;
        sum +=
          (idf[term] as number) *
          ((frequency * (K1 + 1.0)) / (frequency + K1 * (1 - B + (B * length) / averageLength)));
      }
      const rowid = state.rowids[slot] as number;
      const id = idOf(rowid);
      if (id === undefined)
        throw new Error(`admitted_text holds row ${String(rowid)}, which the record index does not`);
      rows.push({ id, score: round(sum) });
    }
    return rows.sort(byScoreThenId);
  };

  return {
    entered(rowid, title, text) {
      if (postings !== null) pending.set(rowid, [title, text]);
    },
    left(rowid) {
      if (postings === null) return;
      if (pending.delete(rowid)) return;
      leave(postings, rowid);
    },
    rank(query, idOf, round = roundScore) {
      const terms = safeFtsTerms(query);
      if (postings === null || postings.query !== query || pending.size > MAX_TOKENISED) {
        pending.clear();
        const tokens = tokensOf(terms);
        postings = tokens === null ? null : readAll(query, tokens);
      } else if (pending.size > 0) tokenisePending(postings);
      if (postings === null) return rankAdmitted(driver, query, idOf);
      const state = postings;
      return {
        rows: terms.length === 0 ? [] : score(state, idOf, round),
        statistics: {
          mode: 'bm25',
          statistics: 'admitted',
          documents: state.count,
          tokens: state.tokenTotal,
          terms: terms.map((term, index) => ({ term: term.slice(1, -1), documents: state.documents[index] as number })),
          weights: { title: 2, text: 1 },
        },
      };
    },
  };
}
