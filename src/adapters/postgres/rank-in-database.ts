import { byScoreThenId, roundScore, type Ranking } from '../../core/phases/5-rank/ranking';
import { safeFtsTerms } from '../sqlite/fts-query';
import { admittedStatistics, bm25Ctes, type Bind } from './bm25-sql';
import type { Database } from './schema';
import type { Tokeniser } from './tokens';

/**
 * bm25 over the admitted set, in the database, with the admitted set's own statistics (document count,
 * token total, each phrase's document frequency) and FTS5's formula term by term, in its order of
 * operations, so the scores are FTS5's: `-bm25(admitted_text, 2.0, 1.0)` of the built-in path. Runs in the
 * caller's transaction (the snapshot admission read). The tokens are FTS5's own (tokens.ts).
 */
export async function rankInDatabase(
  client: Database,
  query: string,
  admitted: ReadonlySet<string>,
  tokeniser: Tokeniser,
): Promise<Ranking> {
  const terms = safeFtsTerms(query).map((quoted) => quoted.slice(1, -1));
  const phrases = terms.map((term) => tokeniser.phrase(term));
  await client.query(
    'CREATE TEMP TABLE IF NOT EXISTS ranked_set (id text COLLATE "C" PRIMARY KEY) ON COMMIT DELETE ROWS',
  );
  await client.query('DELETE FROM ranked_set');
  await client.query('INSERT INTO ranked_set SELECT unnest($1::text[])', [[...admitted]]);
  // Shortest exact float output, whatever the server's setting: the scores are read back bit for bit.
  await client.query("SELECT set_config('extra_float_digits', '1', true)");
  const values: unknown[] = [];
  const bind: Bind = (value, type) => {
    values.push(value);
    return `$${values.length}::${type}`;
  };
  const { rows } = await client.query<{
    result: {
      documents: number;
      tokens: number;
      matched: Record<string, number> | null;
      rows: [string, number][] | null;
    };
  }>(
    `WITH ranked AS (SELECT s.id, r.title_tokens + r.text_tokens AS length FROM ranked_set s JOIN ${client.schema}.records r ON r.id = s.id),
${bm25Ctes(client.schema, 'ranked', phrases, bind)}
SELECT json_build_object('documents', (SELECT n FROM stats), 'tokens', (SELECT tokens FROM stats),
  'matched', (SELECT json_object_agg(phrase, matched) FROM df), 'rows', (SELECT json_agg(json_build_array(id, score)) FROM scored)) AS result`,
    values,
  );
  const result = rows[0]?.result;
  if (result === undefined) throw new Error('the ranking statement returned no row');
  const statistics = admittedStatistics(terms, result);
  if (terms.length === 0) return { rows: [], statistics };
  return {
    rows: (result.rows ?? []).map(([id, score]) => ({ id, score: roundScore(score) })).sort(byScoreThenId),
    statistics,
  };
}
