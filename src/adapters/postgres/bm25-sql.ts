import type { RankingStatistics } from '../../core/result';

/** FTS5's bm25 constants (fts5_aux.c), and the column weights the built-in path passes it (title 2, text 1). */
const K1 = '1.2::float8';
const B = '0.75::float8';

/** Binds a value and names its parameter. */
export type Bind = (value: unknown, type: string) => string;

/**
 * One phrase's weighted frequency in each record of `set` holding it, with the record's length from `set`: 2 × hits
 * in the title + hits in the text. A one-token phrase reads only the postings index's included frequencies; a longer
 * one counts the positions of its first token followed by the rest in order.
 */
function phraseFrequency(schema: string, set: string, phrase: number, tokens: readonly string[], bind: Bind): string {
  const first = `JOIN ${schema}.postings t0 ON t0.term = ${bind(tokens[0], 'text')} AND t0.record_id = a.id`;
  if (tokens.length === 1)
    return `SELECT ${phrase} AS phrase, t0.record_id, a.length, (2.0::float8 * t0.title_tf + t0.text_tf)::float8 AS f FROM ${set} a ${first}`;
  const rest = tokens
    .slice(1)
    .map(
      (token, offset) =>
        `JOIN ${schema}.postings t${offset + 1} ON t${offset + 1}.term = ${bind(token, 'text')} AND ` +
        `t${offset + 1}.record_id = t0.record_id`,
    );
  const hits = (field: 'title_at' | 'text_at') =>
    phraseHits(
      `t0.${field}`,
      tokens.slice(1).map((_, offset) => `t${offset + 1}.${field}`),
    );
  return `SELECT * FROM (SELECT ${phrase} AS phrase, t0.record_id, a.length, (2.0::float8 * ${hits('title_at')} + ${hits('text_at')})::float8 AS f
    FROM ${set} a ${first} ${rest.join(' ')}) x WHERE x.f > 0`;
}

/**
 * How often a phrase occurs in one field: each position of its first token (`first`, an array of positions) followed,
 * one after the other, by the positions of the rest (`rest`, arrays in the phrase's order).
 */
export const phraseHits = (first: string, rest: readonly string[]) =>
  `(SELECT count(*) FROM unnest(${first}) AS p(at) WHERE ${rest
    .map((positions, offset) => `(p.at + ${offset + 1}) = ANY (${positions})`)
    .join(' AND ')})`;

/**
 * The common table expressions of bm25 over the records of the relation `set` (columns `id` and `length`, the record's
 * title and text tokens), with that set's own statistics and FTS5's formula term by term in its order of operations, so
 * the scores are FTS5's (`-bm25(admitted_text, 2.0, 1.0)` of the built-in path): `stats` (n, tokens), `freq`, `df`
 * (each phrase's document count) and `scored` (id, score, the
 * phrases it holds) of every record holding some phrase.
 */
export function bm25Ctes(schema: string, set: string, phrases: readonly (readonly string[])[], bind: Bind): string {
  const hits = phrases.flatMap((tokens, phrase) =>
    tokens.length === 0 ? [] : [phraseFrequency(schema, set, phrase, tokens, bind)],
  );
  const freq =
    hits.length === 0
      ? 'SELECT 0 AS phrase, NULL::text AS record_id, 0 AS length, 0::float8 AS f WHERE false'
      : hits.join('\n  UNION ALL\n  ');
  // Every length comes with the set: joining the records again here made the planner hash the whole table twice.
  return `stats AS (SELECT count(*)::float8 AS n, coalesce(sum(a.length), 0)::float8 AS tokens FROM ${set} a),
freq AS (${freq}),
df AS (SELECT phrase, count(*)::float8 AS matched FROM freq GROUP BY phrase),
weights AS (SELECT d.phrase, ${IDF} AS idf FROM df d CROSS JOIN stats s),
scored AS (
  SELECT f.record_id AS id,
    sum(${phraseScore('f.length')} ORDER BY f.phrase) AS score, array_agg(f.phrase ORDER BY f.phrase) AS phrases
  FROM freq f JOIN weights w ON w.phrase = f.phrase CROSS JOIN stats s
  GROUP BY f.record_id)`;
}

const LN_IDF = `ln((s.n - d.matched + 0.5::float8) / (d.matched + 0.5::float8))`;

/** FTS5's idf of a phrase held by `d.matched` of the set's `s.n` records, floored as FTS5 floors it. */
export const IDF = `CASE WHEN ${LN_IDF} <= 0 THEN 1e-6::float8 ELSE ${LN_IDF} END`;

/**
 * One phrase's part of a record's score: its weighted frequency `f.f`, its idf `w.idf`, the record's `length` and the
 * set's statistics `s`.
 */
export const phraseScore = (length: string) =>
  `w.idf * ((f.f * (${K1} + 1.0::float8)) / (f.f + ${K1} * (1.0::float8 - ${B} + ${B} * ` +
  `(${length})::float8 / (s.tokens / s.n))))`;

/**
 * The admitted set's statistics as the statement above returns them: its size, its tokens and, per query phrase, how
 * many of its records hold it.
 */
export function admittedStatistics(
  terms: readonly string[],
  counted: {
    readonly documents: number;
    readonly tokens: number;
    readonly matched: Readonly<Record<string, number>> | null;
  },
): RankingStatistics {
  return {
    mode: 'bm25',
    statistics: 'admitted',
    documents: counted.documents,
    tokens: counted.tokens,
    terms: terms.map((term, phrase) => ({ term, documents: counted.matched?.[String(phrase)] ?? 0 })),
    weights: { title: 2, text: 1 },
  };
}
