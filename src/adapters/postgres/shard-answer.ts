import { ok, type CompileError, type Result } from '../../core/errors';
import type { AdmissionPlan } from '../../core/phases/4-admit/admission-plan';
import { byScoreThenId, roundScore } from '../../core/phases/5-rank/ranking';
import type { ReasonCode } from '../../core/reasons';
import type { CheckedRecord } from '../../core/phases/1-validate/validate';
import { lowerVerdict } from './answer';
import { admittedStatistics, IDF, phraseScore } from './bm25-sql';
import { VIEW_COLUMNS, viewsOf, type AdmittedRows } from './gate-views';
import { bind, type Lowering } from './lower';
import { leafBytes, utf16Order } from './order-key';
import type { Database } from './schema';

/** What one statement through a coordinator answers: the counts and digests of `answerPlan`, and the admitted rows. */
export interface ShardAnswer {
  readonly counted: {
    readonly predicateDigest: string;
    readonly admitted: number;
    readonly statistics: ReturnType<typeof admittedStatistics>;
    readonly refusedByReason: Readonly<Partial<Record<ReasonCode, number>>>;
    readonly admittedDigest: string;
  };
  readonly admitted: AdmittedRows;
}

/**
 * The ids some successor in force at `at` supersedes: read from every shard (a successor may live on another), few
 * rows.
 */
async function supersededAt(client: Database, plan: AdmissionPlan): Promise<string[]> {
  const clause = plan.clauses.find((item) => item.op === 'not-superseded-at');
  if (clause?.op !== 'not-superseded-at') return [];
  const { rows } = await client.query<{ id: string }>(
    `SELECT DISTINCT t.id FROM ${client.schema}.records y CROSS JOIN LATERAL unnest(y.supersedes) AS t(id)
     WHERE cardinality(y.supersedes) > 0 AND y.lifecycle = 'active' AND y.known_at <= $1 AND y.valid_from <= $1`,
    [clause.at.epochMs],
  );
  return rows.map((row) => row.id);
}

/**
 * Each shard's part, as common table expressions over its own foreign tables (`tables`), each holding
 * admission's whole condition in a form postgres_fdw can send (lower.ts's `shippable`): the admitted rows with
 * their documents' gate fields, the admitted count and token total, each query term's admitted document count,
 * the admitted records' hits of the query terms, and the refused count per reason. Each is a join or an
 * aggregate postgres_fdw sends to the shard whole (bench/fdw.test.ts holds the coordinator's plan to that).
 */
function shardParts(index: number, tables: string, where: string, counted: CountedBy, terms: string): string[] {
  const records = `${tables}.records r`;
  const holding = `${records} JOIN ${tables}.postings p ON p.record_id = r.id WHERE (${where}) AND p.term = ANY (${terms})`;
  return [
    `rows_${index} AS MATERIALIZED (SELECT ${VIEW_COLUMNS}, r.ends_chunk, r.title_tokens + r.text_tokens AS length
      FROM ${records} JOIN ${tables}.documents d ON d.id = r.id WHERE ${where})`,
    `part_${index} AS MATERIALIZED (SELECT count(*) AS n, coalesce(sum(r.title_tokens + r.text_tokens), 0) AS tokens FROM ${records} WHERE ${where})`,
    `df_${index} AS MATERIALIZED (SELECT ${counted.term.columns('p.term')} FROM ${holding})`,
    `hits_${index} AS MATERIALIZED (SELECT p.record_id, p.term, p.title_tf, p.text_tf FROM ${holding})`,
    `refused_${index} AS MATERIALIZED (SELECT ${counted.reason.columns('v.code')}
      FROM (SELECT ${counted.verdict} AS code FROM ${records} LEFT JOIN ${tables}.supersession_breaks b ON b.id = r.id) v)`,
  ];
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

/**
 * The verdict's reason codes as numbers (the codes are the literals its text holds; values are bound, never in its
 * text), and the query's terms.
 */
function countedBy(verdict: string, terms: readonly string[], into: Lowering): CountedBy & { codes: string[] } {
  const codes = [...new Set(verdict.match(/'EXCLUDE_[A-Z_]+'/g) ?? [])].map((quoted) => quoted.slice(1, -1));
  const numbered = verdict
    .replace(/'(EXCLUDE_[A-Z_]+)'/g, (_, code: string) => String(codes.indexOf(code)))
    .replaceAll('NULL::text', 'NULL::integer');
  return {
    codes,
    verdict: numbered,
    reason: countsByKey(codes.map((_, number) => String(number))),
    term: countsByKey([...new Set(terms)].map((term) => bind(into, term, 'text'))),
  };
}

const unionOf = (name: string, count: number) =>
  Array.from({ length: count }, (_, index) => `SELECT * FROM ${name}_${index}`).join(' UNION ALL ');

/**
 * Admission answered through a coordinator (shards.ts) with the filtering and the partial counts on the
 * shards: the coordinator sums each shard's admitted count, token total and per-term document counts into the
 * admitted set's statistics (a record and its postings are on one shard, so the sums are the global ones),
 * scores each admitted record holding a term with them (bm25-sql.ts's formula, as on one server), sums the
 * refused counts and hashes the admitted set. For queries whose every term is one token: a phrase's positions
 * are matched on one server's statements. `tables` are the shards' schemas of foreign tables, in shard order.
 */
export async function answerOnShards(
  client: Database,
  tables: readonly string[],
  plan: AdmissionPlan,
  digest: string,
  terms: readonly string[],
  phraseTerms: readonly (string | null)[],
): Promise<Result<ShardAnswer, CompileError>> {
  const into: Lowering = {
    schema: client.schema,
    values: [digest],
    ctes: [],
    joins: [],
    shippable: { superseded: await supersededAt(client, plan) },
  };
  const lowered = lowerVerdict(plan, into);
  if (!lowered.ok) return lowered;
  const { conditions, verdict } = lowered.value;
  const where = conditions.length === 0 ? 'true' : conditions.map((condition) => `(${condition})`).join(' AND ');
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
  const ctes = [
    ...tables.flatMap((schema, index) => shardParts(index, schema, where, counted, asked)),
    `phrases AS (SELECT q.term, (q.phrase - 1)::integer AS phrase FROM unnest(${byPhrase}) WITH ORDINALITY AS q(term, phrase) WHERE q.term IS NOT NULL)`,
    `admitted AS (${unionOf('rows', tables.length)})`,
    `stats AS (SELECT sum(n)::float8 AS n, sum(tokens)::float8 AS tokens FROM (${unionOf('part', tables.length)}) x)`,
    `df AS (SELECT q.phrase, sum(d.n)::float8 AS matched FROM (${counted.term.rows(unionOf('df', tables.length))}) d JOIN phrases q ON q.term = d.key GROUP BY q.phrase)`,
    `freq AS (SELECT q.phrase, h.record_id, (2.0::float8 * h.title_tf + h.text_tf)::float8 AS f FROM (${unionOf('hits', tables.length)}) h JOIN phrases q ON q.term = h.term)`,
    `weights AS (SELECT d.phrase, ${IDF} AS idf FROM df d CROSS JOIN stats s)`,
    `scored AS (SELECT f.record_id AS id, sum(${phraseScore('a.length')} ORDER BY f.phrase) AS score
      FROM freq f JOIN weights w ON w.phrase = f.phrase JOIN admitted a ON a.id = f.record_id CROSS JOIN stats s GROUP BY f.record_id)`,
    'held AS (SELECT record_id, array_agg(phrase ORDER BY phrase) AS phrases FROM freq GROUP BY record_id)',
    `refused AS (SELECT (${bind(into, counted.codes, 'text[]')})[c.key::integer + 1] AS code, c.n FROM (${counted.reason.rows(unionOf('refused', tables.length))}) c)`,
    `ordered AS (SELECT id, fingerprint, coalesce(sum(ends_chunk::integer) OVER (ORDER BY ${utf16Order('id')} ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS chunk, ${utf16Order('id')} AS key FROM admitted)`,
    `chunks AS (SELECT chunk, sha256(string_agg(${leafBytes('id', 'fingerprint')}, ''::bytea ORDER BY key)) AS digest FROM ordered GROUP BY chunk)`,
    `viewed AS (SELECT a.*, coalesce(h.phrases, '{}') AS phrases, s.score FROM admitted a LEFT JOIN scored s ON s.id = a.id LEFT JOIN held h ON h.record_id = a.id)`,
  ];
  await client.query("SELECT set_config('extra_float_digits', '1', true)");
  const { rows } = await client.query<SummaryRow & { id: string | null; length: number; phrases: number[] }>(
    `WITH ${ctes.join(',\n')}
SELECT $1::text AS digest, (SELECT n FROM stats)::bigint AS total, (SELECT n FROM stats) AS set_documents, (SELECT tokens FROM stats) AS set_tokens,
  (SELECT json_object_agg(phrase, matched) FROM df) AS matched, (SELECT json_object_agg(code, n) FROM refused) AS refused,
  encode(sha256(coalesce((SELECT string_agg(convert_to(encode(digest, 'hex') || E'\\n', 'UTF8'), ''::bytea ORDER BY chunk) FROM chunks), ''::bytea)), 'hex') AS admitted_digest,
  v.* FROM (SELECT 1) one LEFT JOIN viewed v ON true`,
    into.values,
  );
  return answerOf(rows, digest, terms);
}

interface SummaryRow {
  readonly digest: string;
  readonly total: string;
  /** Named apart from the gate view's columns, which follow them in each row (its `tokens` is the record's own). */
  readonly set_documents: number;
  readonly set_tokens: number;
  readonly matched: Record<string, number> | null;
  readonly refused: Record<string, number> | null;
  readonly admitted_digest: string;
  readonly score: number | null;
}

/**
 * The statement's rows as the counts and the admitted rows, each row echoing the summary: an answer cut short is known
 * to be.
 */
function answerOf(
  rows: readonly (SummaryRow & { id: string | null; length: number; phrases: number[] })[],
  digest: string,
  terms: readonly string[],
): Result<ShardAnswer, CompileError> {
  const first = rows[0];
  const total = Number(first?.total ?? -1);
  const present = rows.filter((row) => row.id !== null);
  const counted = {
    predicateDigest: first?.digest ?? '',
    admitted: total,
    statistics: admittedStatistics(terms, {
      documents: first?.set_documents ?? 0,
      tokens: first?.set_tokens ?? 0,
      matched: first?.matched ?? null,
    }),
    refusedByReason: Object.fromEntries(
      Object.entries(first?.refused ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    ),
    admittedDigest: first?.admitted_digest ?? '',
  };
  if (first === undefined || rows.some((row) => row.digest !== digest || Number(row.total) !== total))
    return ok({
      counted,
      admitted: { complete: false, problem: 'the rows of one answer disagree on the plan or the count' },
    });
  if (present.length !== total)
    return ok({
      counted,
      admitted: {
        complete: false,
        problem: `${present.length} of the ${total} admitted records arrived (a partial result)`,
      },
    });
  const views = viewsOf(present);
  if (!views.ok) return views;
  const viewed = views.value;
  return ok({
    counted,
    admitted: {
      complete: true,
      rows: present.map((row, index) => ({
        view: viewed[index] as CheckedRecord,
        length: Number(row.length),
        phrases: row.phrases.map(Number),
      })),
      ranked: present
        .flatMap((row, index) =>
          row.score === null ? [] : [{ id: (viewed[index] as CheckedRecord).record.id, score: roundScore(row.score) }],
        )
        .sort(byScoreThenId),
    },
  });
}
