import type { CompileError, Result } from '../../core/errors';
import type { AdmissionPlan } from '../../core/phases/4-admit/admission-plan';
import { lowerVerdict } from './answer';
import { ADMITTED_DIGEST_CTES, readAnswer, withRows, type AnswerWithRows } from './answer-rows';
import { IDF, phraseHits, phraseScore } from './bm25-sql';
import { VIEW_COLUMNS } from './gate-views';
import { numberedVerdict } from './refused-counts';
import { answerLowering, bind, supersededAt, type Lowering } from './lower';
import type { Database } from './schema';

/**
 * The shards' parts, as common table expressions, each the union of one query per shard over its own foreign tables
 * (`tables`), each holding admission's whole condition in a form postgres_fdw can send (lower.ts's `shippable`): the
 * admitted rows with their gate fields (`admitted`), the admitted count and token total, each one-token term's
 * admitted document count, the admitted records' hits of those terms, the refused count per reason and, for each
 * phrase of several tokens, the admitted records holding every token of it, with each token's positions. Each
 * shard's query is a join or an aggregate postgres_fdw sends to the shard whole (bench/fdw.test.ts and shards.test.ts
 * hold the coordinator's plan to that); a union of them is an Append of asynchronous foreign scans, so the shards work
 * at the same time rather than one after the other.
 */
function shardParts(
  tables: readonly string[],
  where: string,
  counted: CountedBy,
  terms: string,
  phrased: readonly BoundPhrase[],
): string[] {
  const onEach = (query: (tables: string, records: string) => string) =>
    tables.map((schema) => query(schema, `${schema}.records r`)).join('\n      UNION ALL ');
  const holding = (schema: string, records: string) =>
    `${records} JOIN ${schema}.postings p ON p.record_id = r.id WHERE (${where}) AND p.term = ANY (${terms})`;
  return [
    `admitted AS MATERIALIZED (${onEach(
      (_, records) =>
        `SELECT ${VIEW_COLUMNS}, r.ends_chunk, r.title_tokens + r.text_tokens AS length FROM ${records} WHERE ${where}`,
    )})`,
    `shard_part AS MATERIALIZED (${onEach(
      (_, records) =>
        `SELECT count(*) AS n, coalesce(sum(r.title_tokens + r.text_tokens), 0) AS tokens FROM ${records} ` +
        `WHERE ${where}`,
    )})`,
    `shard_df AS MATERIALIZED (${onEach(
      (schema, records) => `SELECT ${counted.term.columns('p.term')} FROM ${holding(schema, records)}`,
    )})`,
    `shard_hits AS MATERIALIZED (${onEach(
      (schema, records) => `SELECT p.record_id, p.term, p.title_tf, p.text_tf FROM ${holding(schema, records)}`,
    )})`,
    `shard_refused AS MATERIALIZED (${onEach(
      (schema, records) =>
        `SELECT ${counted.reason.columns('v.code')} FROM (SELECT ${counted.verdict} AS code FROM ${records} ` +
        `LEFT JOIN ${schema}.supersession_breaks b ON b.id = r.id) v`,
    )})`,
    ...phrased.map(
      ({ phrase, tokens }) =>
        `shard_phrase_${phrase} AS MATERIALIZED (${onEach(
          (schema, records) =>
            `SELECT r.id AS record_id, ${tokens
              .map((_, at) => `t${at}.title_at AS title_${at}, t${at}.text_at AS text_${at}`)
              .join(', ')} FROM ${records} ${tokens
              .map(
                (token, at) => `JOIN ${schema}.postings t${at} ON t${at}.record_id = r.id AND t${at}.term = ${token}`,
              )
              .join(' ')} WHERE ${where}`,
        )})`,
    ),
  ];
}

/** A query phrase of several tokens: its place in the query and its tokens, bound. */
interface BoundPhrase {
  readonly phrase: number;
  readonly tokens: readonly string[];
}

/**
 * Each phrase of several tokens' weighted frequency in the admitted records holding it (bm25-sql.ts's, from the
 * positions the shards sent): 2 × hits in the title + hits in the text, for the records where it occurs.
 */
function phraseFrequencies(phrased: readonly BoundPhrase[]): string {
  if (phrased.length === 0) return 'SELECT 0 AS phrase, NULL::text AS record_id, 0::float8 AS f WHERE false';
  const hits = (field: 'title' | 'text', tokens: readonly string[]) =>
    phraseHits(
      `y.${field}_0`,
      tokens.slice(1).map((_, offset) => `y.${field}_${offset + 1}`),
    );
  return phrased
    .map(
      ({ phrase, tokens }) =>
        `SELECT ${phrase} AS phrase, x.record_id, x.f FROM (SELECT y.record_id, (2.0::float8 * ${hits('title', tokens)} + ${hits('text', tokens)})::float8 AS f
      FROM shard_phrase_${phrase} y) x WHERE x.f > 0`,
    )
    .join('\n  UNION ALL\n  ');
}

/**
 * Counts by key as one row of counts, a column per key, rather than a row per key: postgres_fdw sends a shard an
 * aggregate whose grouping the planner expects to shrink the rows, and it reckons a grouping by an expression
 * of the id to have a group per record. `columns` counts each key of an expression; `rows` turns the shards'
 * rows of counts (`from`, aliased `x`) back into (key, n) rows, for the keys some record has.
 */
interface CountsByKey {
  columns(expression: string): string;
  rows(from: string): string;
}

function countsByKey(keys: readonly string[]): CountsByKey {
  return {
    columns: (expression) =>
      [
        'count(*) AS n',
        ...keys.map((key, column) => `count(*) FILTER (WHERE ${expression} = ${key}) AS c${column}`),
      ].join(', '),
    rows: (from) =>
      keys.length === 0
        ? 'SELECT NULL::text AS key, 0::bigint AS n WHERE false'
        : `SELECT k.key, sum(k.n)::bigint AS n FROM (${from}) x CROSS JOIN LATERAL (VALUES ${keys
            .map((key, column) => `(${key}, x.c${column})`)
            .join(', ')}) AS k(key, n) GROUP BY k.key HAVING sum(k.n) > 0`,
  };
}

interface CountedBy {
  /**
   * The verdict with each reason code numbered: postgres_fdw sends no comparison of text whose collation is not a
   * column's.
   */
  readonly verdict: string;
  readonly reason: CountsByKey;
  readonly term: CountsByKey;
}

/** The verdict's codes as numbers (`numberedVerdict`), and the query's terms. */
function countedBy(verdict: string, terms: readonly string[], into: Lowering): CountedBy & { codes: string[] } {
  const { codes, numbered } = numberedVerdict(verdict);
  return {
    codes,
    verdict: numbered,
    reason: countsByKey(codes.map((_, number) => String(number))),
    term: countsByKey([...new Set(terms)].map((term) => bind(into, term, 'text'))),
  };
}

/**
 * Admission answered through a coordinator (shards.ts) with the filtering and the partial counts on the
 * shards: the coordinator sums each shard's admitted count, token total and per-term document counts into the
 * admitted set's statistics (a record and its postings are on one shard, so the sums are the global ones),
 * scores each admitted record holding a term with them (bm25-sql.ts's formula, as on one server), sums the
 * refused counts and hashes the admitted set. A phrase of several tokens is joined on the shards (the admitted
 * records holding each of its tokens, with their positions) and its positions matched on the coordinator: the
 * match is a subquery, which postgres_fdw does not send. `tables` are the shards' schemas of foreign tables, in
 * shard order; `phrases` are the query terms' tokens.
 */
export async function answerOnShards(
  client: Database,
  tables: readonly string[],
  plan: AdmissionPlan,
  digest: string,
  terms: readonly string[],
  phrases: readonly (readonly string[])[],
): Promise<Result<AnswerWithRows, CompileError>> {
  const into = answerLowering(client.schema, digest, await supersededAt(client, plan));
  const lowered = lowerVerdict(plan, into);
  if (!lowered.ok) return lowered;
  const { conditions, verdict } = lowered.value;
  const where = conditions.length === 0 ? 'true' : conditions.map((condition) => `(${condition})`).join(' AND ');
  const phraseTerms = phrases.map((tokens) => (tokens.length === 1 ? (tokens[0] as string) : null));
  const asked = bind(
    into,
    phraseTerms.filter((term) => term !== null),
    'text[]',
  );
  const byPhrase = bind(into, phraseTerms, 'text[]');
  const counted = countedBy(
    verdict,
    phraseTerms.filter((term) => term !== null),
    into,
  );
  const phrased = phrases.flatMap((tokens, phrase) =>
    tokens.length > 1 ? [{ phrase, tokens: tokens.map((token) => bind(into, token, 'text')) }] : [],
  );
  const ctes = [
    ...shardParts(tables, where, counted, asked, phrased),
    `phrases AS (SELECT q.term, (q.phrase - 1)::integer AS phrase FROM unnest(${byPhrase}) WITH ` +
      `ORDINALITY AS q(term, phrase) WHERE q.term IS NOT NULL)`,
    'stats AS (SELECT sum(n)::float8 AS n, sum(tokens)::float8 AS tokens FROM shard_part)',
    `phrased AS (${phraseFrequencies(phrased)})`,
    `df AS (SELECT q.phrase, sum(d.n)::float8 AS matched FROM (${counted.term.rows('SELECT * FROM shard_df')}) d JOIN phrases q ON q.term = d.key GROUP BY q.phrase
      UNION ALL SELECT phrase, count(*)::float8 AS matched FROM phrased GROUP BY phrase)`,
    `freq AS (SELECT q.phrase, h.record_id, (2.0::float8 * h.title_tf + h.text_tf)::float8 AS f FROM shard_hits h JOIN phrases q ON q.term = h.term
      UNION ALL SELECT phrase, record_id, f FROM phrased)`,
    `weights AS (SELECT d.phrase, ${IDF} AS idf FROM df d CROSS JOIN stats s)`,
    `scored AS (SELECT f.record_id AS id, sum(${phraseScore('a.length')} ORDER BY f.phrase) AS score
      FROM freq f JOIN weights w ON w.phrase = f.phrase JOIN admitted a ON a.id = f.record_id CROSS JOIN stats s GROUP BY f.record_id)`,
    'held AS (SELECT record_id, array_agg(phrase ORDER BY phrase) AS phrases FROM freq GROUP BY record_id)',
    `refused AS (SELECT (${bind(into, counted.codes, 'text[]')})[c.key::integer + 1] AS code, c.n FROM ` +
      `(${counted.reason.rows('SELECT * FROM shard_refused')}) c)`,
    ...ADMITTED_DIGEST_CTES,
    `viewed AS (SELECT a.*, coalesce(h.phrases, '{}') AS phrases, s.score FROM admitted a LEFT JOIN ` +
      `scored s ON s.id = a.id LEFT JOIN held h ON h.record_id = a.id)`,
  ];
  await client.query("SELECT set_config('extra_float_digits', '1', true)");
  return readAnswer(client, withRows(ctes), into.values, digest, terms);
}
