import { compareStrings } from '../../canonical';
import type { CheckedRecord } from '../1-validate/validate';
import type { RankingStatistics } from '../../result';

export interface RankedRow {
  readonly id: string;
  /** Higher is better: -bm25 (title weighted twice the text), or the record's declared relevance. */
  readonly score: number;
}

export interface Ranking {
  /** Best first, ties broken by id. */
  readonly rows: readonly RankedRow[];
  readonly statistics: RankingStatistics;
}

/** Rounded so that the last bits of a float can never reorder two records between runs. */
export function roundScore(value: number): number {
  return Math.round(value * 1e9) / 1e9;
}

export function byScoreThenId(a: RankedRow, b: RankedRow): number {
  return b.score - a.score || compareStrings(a.id, b.id);
}

/** Admitted records with a declared relevance, best first: the ranking of scenarios that declare scores. */
export function rankDeclared(records: readonly CheckedRecord[]): Ranking {
  const rows: RankedRow[] = [];
  for (const { record } of records)
    if (record.relevance !== null) rows.push({ id: record.id, score: roundScore(record.relevance) });
  return { rows: rows.sort(byScoreThenId), statistics: { mode: 'declared' } };
}
