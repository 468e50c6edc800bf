import type { RankingMode } from '../../core/format/contract';
import type { RankingStatistics } from '../../core/result';
import { byScoreThenId, roundScore, type RankedRow, type Ranking } from '../../core/phases/5-rank/ranking';
import type { SqlDriver, SqlValue } from './driver';
import { safeFtsTerms } from './fts-query';

const BM25 = (table: string) => `-bm25(${table}, 2.0, 1.0)`;

/**
 * Rows of (id, score) read as one JSON array: stepping each row through the WASM boundary costs more than scoring
 * them.
 */
function readScored(
  driver: SqlDriver,
  sql: string,
  params: readonly SqlValue[],
  nameOf: (id: SqlValue) => string = String,
): RankedRow[] {
  const [row] = driver.all(`SELECT json_group_array(json_array(id, score)) FROM (${sql})`, params);
  // SQLite writes each double with enough digits to read back exactly.
  const pairs = JSON.parse(String(row?.[0] ?? '[]')) as [SqlValue, SqlValue][];
  return pairs.map(([id, score]) => ({ id: nameOf(id), score: roundScore(Number(score ?? 0)) })).sort(byScoreThenId);
}

/** SQLite's varint (big-endian, 7 bits a byte, the ninth byte whole), as FTS5 writes its records. */
function readVarint(bytes: readonly number[], offset: number): [number, number] {
  let value = 0;
  for (let index = 0; index < 8; index += 1) {
    const byte = bytes[offset + index] ?? 0;
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return [value, offset + index + 1];
  }
  return [value * 256 + (bytes[offset + 8] ?? 0), offset + 9];
}

/** The varints of an FTS5 record given as hex (a docsize row's column sizes, the averages record's counts). */
export function columnSizes(hex: string): number[] {
  const bytes = Array.from({ length: hex.length / 2 }, (_, index) =>
    Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16),
  );
  const values: number[] = [];
  for (let offset = 0; offset < bytes.length;) {
    const [value, next] = readVarint(bytes, offset);
    values.push(value);
    offset = next;
  }
  return values;
}

/** FTS5's own totals for a table (its "averages" record): the row count and the tokens of each column. */
function tableTotals(driver: SqlDriver, table: string): { documents: number; tokens: number } {
  const [row] = driver.all(`SELECT hex(block) FROM ${table}_data WHERE id = 1`);
  const [documents = 0, ...columns] = columnSizes(String(row?.[0] ?? ''));
  return { documents: Math.max(0, documents), tokens: columns.reduce((sum, tokens) => sum + tokens, 0) };
}

/**
 * Ranks the admitted records against the query with bm25 whose statistics (document count, document
 * frequencies, average length) come from `admitted_text`, which holds exactly the admitted set: a record
 * the caller may not see can change no score. Every admitted match is returned, best first. Rows are read
 * by rowid and named by `idOf` (the record index's): the join to `records` for the ids is a large share of the query.
 */
export function rankAdmitted(driver: SqlDriver, query: string, idOf: (rowid: number) => string | undefined): Ranking {
  const terms = safeFtsTerms(query);
  const totals = tableTotals(driver, 'admitted_text');
  const statistics: RankingStatistics = {
    mode: 'bm25',
    statistics: 'admitted',
    documents: totals.documents,
    tokens: totals.tokens,
    terms: terms.map((term) => ({
      term: term.slice(1, -1),
      documents: Number(
        driver.all('SELECT count(*) FROM admitted_text WHERE admitted_text MATCH ?', [term])[0]?.[0] ?? 0,
      ),
    })),
    weights: { title: 2, text: 1 },
  };
  if (terms.length === 0) return { rows: [], statistics };
  const rows = readScored(
    driver,
    // The ORDER BY keeps SQLite from flattening the subquery, which would take bm25() out of its FTS5 context.
    `SELECT rowid AS id, ${BM25('admitted_text')} AS score FROM admitted_text WHERE admitted_text MATCH ? ` +
      `ORDER BY rowid`,
    [terms.join(' OR ')],
    (rowid) => {
      const id = idOf(Number(rowid));
      if (id === undefined)
        throw new Error(`admitted_text holds row ${String(rowid)}, which the record index does not`);
      return id;
    },
  );
  return { rows, statistics };
}

/**
 * The naive baseline's order: the first `limit` records of the whole corpus, with bm25 statistics of
 * the whole corpus (`corpus_text`) or the declared scores, legal or not. What relevance-only retrieval does.
 */
export function rankCorpus(driver: SqlDriver, query: string, mode: RankingMode, limit: number): RankedRow[] {
  if (mode === 'declared') {
    return readScored(
      driver,
      'SELECT r.id AS id, r.relevance AS score FROM records r WHERE r.relevance IS NOT NULL ORDER BY score ' +
        'DESC, r.id LIMIT ?',
      [limit],
    );
  }
  const terms = safeFtsTerms(query);
  if (terms.length === 0) return [];
  return readScored(
    driver,
    `SELECT r.id AS id, ${BM25('corpus_text')} AS score FROM corpus_text JOIN records r ON r.rowid = corpus_text.rowid
      WHERE corpus_text MATCH ? ORDER BY round(score, 9) DESC, r.id LIMIT ?`,
    [terms.join(' OR '), limit],
  );
}
