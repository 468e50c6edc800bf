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

function toRows(rows: SqlValue[][]): RankedRow[] {
  return rows
    .map(([id, score]) => ({ id: String(id), score: roundScore(score ?? 0) }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** A predicate over `records r` that limits which rows may be ranked at all. */
export interface SqlRestriction {
  readonly where: string;
  readonly params: readonly SqlValue[];
}

const BM25 = '-bm25(record_text, 2.0, 1.0)';

/**
 * Ranks records against the query. With `admission` (the admitted rows, or the lowered predicate itself),
 * only admitted rows can be ranked at all, so a forbidden record never competes for the budget. Ties break by id.
 */
export function rankRecords(
  driver: SqlDriver,
  query: string,
  ranking: RankingMode,
  admission: SqlRestriction | null,
  limit: number | null,
): RankedRow[] {
  const where = admission ? `AND (${admission.where})` : '';
  const params: SqlValue[] = admission ? [...admission.params] : [];
  const limitClause = limit === null ? '' : 'LIMIT ?';
  if (ranking === 'declared') {
    const sql = `SELECT r.id, r.relevance AS score FROM records r WHERE r.relevance IS NOT NULL ${where} ORDER BY score DESC, r.id ${limitClause}`;
    return toRows(driver.all(sql, limit === null ? params : [...params, limit]));
  }
  const match = toSafeFtsQuery(query);
  if (match === null) return [];
  const sql = `SELECT r.id, ${BM25} AS score FROM record_text JOIN records r ON r.rowid = record_text.rowid
    WHERE record_text MATCH ? ${where} ORDER BY round(score, 9) DESC, r.id ${limitClause}`;
  const bound = [match, ...params];
  return toRows(driver.all(sql, limit === null ? bound : [...bound, limit]));
}
