import type { RankedEntry } from './result';

/** The ranking section by record id: how a view puts a row's score and rank beside it. */
export type RankLookup = ReadonlyMap<string, RankedEntry>;

export const rankLookup = (ranked: readonly RankedEntry[]): RankLookup =>
  new Map(ranked.map((entry) => [entry.id, entry]));

/** A record's score and rank from the ranking section: both null when it is not ranked. */
export function rankOf(ranks: RankLookup, id: string): { readonly score: number | null; readonly rank: number | null } {
  const entry = ranks.get(id);
  return entry === undefined ? { score: null, rank: null } : { score: entry.score, rank: entry.rank };
}
