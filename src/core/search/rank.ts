import type { RankingMode } from '../format/contract';
import type { SqlDriver, SqlValue } from './driver';
import { toSafeFtsQuery } from './fts-query';

export interface RankedRow {
  readonly id: string;
  /** Higher is better: -bm25 (title weighted twice the text), or the record's declared relevance. */
  readonly score: number;
}

/** Rounded so that the last bits of a float can never reorder two records between runs. */
function roundScore(value: SqlValue): number {
  return Math.round(Number(value) * 1e9) / 1e9;
}

function toRows(rows: readonly (readonly [SqlValue, SqlValue])[]): RankedRow[] {
  return rows
    .map(([id, score]) => ({ id: String(id), score: roundScore(score ?? 0) }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

const BM25 = '-bm25(record_text, 2.0, 1.0)';

/**
 * Ranks every indexed record against the query, best first, ties broken by id. A score depends only
 * on the query and the indexed text (bm25 statistics are corpus-wide), never on which rows are
 * admitted: the compiled ranking is this order restricted to the admitted set, and the naive
 * baseline is its first k rows.
 */
export function rankRecords(driver: SqlDriver, query: string, ranking: RankingMode, limit: number | null): RankedRow[] {
  const limitClause = limit === null ? '' : 'LIMIT ?';
  const bound: SqlValue[] = [];
  let sql: string;
  if (ranking === 'declared') {
    sql = `SELECT r.id AS id, r.relevance AS score FROM records r WHERE r.relevance IS NOT NULL ORDER BY score DESC, r.id ${limitClause}`;
  } else {
    const match = toSafeFtsQuery(query);
    if (match === null) return [];
    sql = `SELECT r.id AS id, ${BM25} AS score FROM record_text JOIN records r ON r.rowid = record_text.rowid
      WHERE record_text MATCH ? ORDER BY round(score, 9) DESC, r.id ${limitClause}`;
    bound.push(match);
  }
  // One JSON array instead of a step per row: reading 100,000 rows through the WASM boundary one by one
  // cost more than scoring them. SQLite writes each double with enough digits to read back exactly.
  const [row] = driver.all(`SELECT json_group_array(json_array(id, score)) FROM (${sql})`, limit === null ? bound : [...bound, limit]);
  return toRows(JSON.parse(String(row?.[0] ?? '[]')) as [SqlValue, SqlValue][]);
}
