import type { RankingStatistics } from '../../core/result';
import { byScoreThenId, roundScore, type Ranking } from '../../core/phases/5-rank/ranking';
import { safeFtsTerms } from '../sqlite/fts-query';
import type { Database } from './schema';
import type { Tokeniser } from './tokens';

/** FTS5's bm25 constants (fts5_aux.c), and the column weights the built-in path passes it (title 2, text 1). */
const K1 = '1.2::float8';
const B = '0.75::float8';

/** One phrase's hits per record and field: each position of its first token followed by the rest in order. */
function phraseHits(schema: string, phrase: number, tokens: readonly string[], bind: (value: unknown) => string): string {
  const joins = tokens
    .slice(1)
    .map(
      (token, offset) => `JOIN ${schema}.record_terms t${offset + 1} ON t${offset + 1}.record_id = t0.record_id AND t${offset + 1}.field = t0.field
      AND t${offset + 1}.term = ${bind(token)} AND (p.at + ${offset + 1}) = ANY (t${offset + 1}.positions)`,
    )
    .join('\n    ');
  return `SELECT ${phrase} AS phrase, t0.record_id, t0.field, count(*)::float8 AS hits
    FROM ranked_set a JOIN ${schema}.record_terms t0 ON t0.record_id = a.id AND t0.term = ${bind(tokens[0])}
    CROSS JOIN LATERAL unnest(t0.positions) AS p(at)
    ${joins}
    GROUP BY t0.record_id, t0.field`;
}

/**
 * bm25 over the admitted set, in the database, with the admitted set's own statistics (document count,
 * token total, each phrase's document frequency) and FTS5's formula term by term, in its order of
 * operations, so the scores are FTS5's: `-bm25(admitted_text, 2.0, 1.0)` of the built-in path. Runs in the
 * caller's transaction (the snapshot admission read). The tokens are FTS5's own (tokens.ts).
 */
export async function rankInDatabase(client: Database, query: string, admitted: ReadonlySet<string>, tokeniser: Tokeniser): Promise<Ranking> {
  const terms = safeFtsTerms(query).map((quoted) => quoted.slice(1, -1));
  const phrases = terms.map((term) => tokeniser.phrase(term));
  await client.query('CREATE TEMP TABLE IF NOT EXISTS ranked_set (id text COLLATE "C" PRIMARY KEY) ON COMMIT DELETE ROWS');
  await client.query('DELETE FROM ranked_set');
  await client.query('INSERT INTO ranked_set SELECT unnest($1::text[])', [[...admitted]]);
  // Shortest exact float output, whatever the server's setting: the scores are read back bit for bit.
  await client.query("SELECT set_config('extra_float_digits', '1', true)");
  const values: unknown[] = [];
  const bind = (value: unknown) => {
    values.push(value);
    return `$${values.length}::text`;
  };
  const hits = phrases.flatMap((tokens, phrase) => (tokens.length === 0 ? [] : [phraseHits(client.schema, phrase, tokens, bind)]));
  const hitsSql = hits.length === 0 ? 'SELECT 0 AS phrase, NULL::text AS record_id, 0::smallint AS field, 0::float8 AS hits WHERE false' : hits.join('\n  UNION ALL\n  ');
  const idf = `ln((s.n - d.matched + 0.5::float8) / (d.matched + 0.5::float8))`;
  const { rows } = await client.query<{ result: { documents: number; tokens: number; matched: Record<string, number> | null; rows: [string, number][] | null } }>(
    `WITH stats AS (SELECT count(*)::float8 AS n, coalesce(sum(r.title_tokens + r.text_tokens), 0)::float8 AS tokens FROM ranked_set a JOIN ${client.schema}.records r ON r.id = a.id),
hits AS (${hitsSql}),
freq AS (SELECT record_id, phrase, sum(CASE WHEN field = 0 THEN 2.0::float8 ELSE 1.0::float8 END * hits) AS f FROM hits GROUP BY record_id, phrase),
df AS (SELECT phrase, count(*)::float8 AS matched FROM freq GROUP BY phrase),
weights AS (SELECT d.phrase, CASE WHEN ${idf} <= 0 THEN 1e-6::float8 ELSE ${idf} END AS idf FROM df d CROSS JOIN stats s),
scored AS (
  SELECT f.record_id AS id,
    sum(w.idf * ((f.f * (${K1} + 1.0::float8)) / (f.f + ${K1} * (1.0::float8 - ${B} + ${B} * (r.title_tokens + r.text_tokens)::float8 / (s.tokens / s.n)))) ORDER BY f.phrase) AS score
  FROM freq f JOIN weights w ON w.phrase = f.phrase JOIN ${client.schema}.records r ON r.id = f.record_id CROSS JOIN stats s
  GROUP BY f.record_id)
SELECT json_build_object('documents', (SELECT n FROM stats), 'tokens', (SELECT tokens FROM stats),
  'matched', (SELECT json_object_agg(phrase, matched) FROM df), 'rows', (SELECT json_agg(json_build_array(id, score)) FROM scored)) AS result`,
    values,
  );
  const result = rows[0]?.result;
  if (result === undefined) throw new Error('the ranking statement returned no row');
  const statistics: RankingStatistics = {
    mode: 'bm25',
    statistics: 'admitted',
    documents: result.documents,
    tokens: result.tokens,
    terms: terms.map((term, phrase) => ({ term, documents: result.matched?.[String(phrase)] ?? 0 })),
    weights: { title: 2, text: 1 },
  };
  if (terms.length === 0) return { rows: [], statistics };
  return { rows: (result.rows ?? []).map(([id, score]) => ({ id, score: roundScore(score) })).sort(byScoreThenId), statistics };
}
