import type { PlanAnswer, PlanAnsweringStore, PlanQuestion } from '../../core/answered-admission';
import { compileError, err, ok, type CompileError, type Result } from '../../core/errors';
import type { AdmissionPlan } from '../../core/plan/admission-plan';
import { byScoreThenId, roundScore } from '../../core/ranking';
import type { CheckedRecord } from '../../core/passes/validate';
import { safeFtsTerms } from '../sqlite/fts-query';
import { answerPlan } from './answer';
import { bm25Ctes } from './bm25-sql';
import { storedBrokenLinks } from './broken-links';
import { bind, lowerConditions, type Lowering } from './lower';
import { VIEW_COLUMNS, viewsOf, type AdmittedRows } from './gate-views';
import { answerOnShards, type ShardAnswer } from './shard-answer';
import { shardTablesOf } from './shard-snapshots';
import { storedRecordSetDigest } from './record-set-digest';
import type { Database } from './schema';
import type { Tokeniser } from './tokens';

/**
 * Every admitted record's gate view, the query phrases it holds and its bm25 score over the admitted set: the
 * plan's admission again (a statement of its own, in the same snapshot) with the scores of `rankInDatabase`.
 * Every row echoes the plan's digest and carries the admitted count (one row with a null id when none is
 * admitted), so an answer cut short is known to be.
 */
async function admittedRows(
  client: Database,
  plan: AdmissionPlan,
  digest: string,
  phrases: readonly (readonly string[])[],
): Promise<Result<AdmittedRows, CompileError>> {
  const schema = client.schema;
  const into: Lowering = { schema, values: [digest], ctes: [], joins: [] };
  const conditions = lowerConditions(plan, into);
  if (!conditions.ok) return conditions;
  const where =
    conditions.value.length === 0 ? 'true' : conditions.value.map((condition) => `(${condition})`).join('\n  AND ');
  const bm25 = bm25Ctes(schema, 'admitted', phrases, (value, type) => bind(into, value, type));
  const ctes = [
    ...into.ctes,
    `admitted AS MATERIALIZED (SELECT r.id FROM ${schema}.records r ${into.joins.join(' ')} WHERE ${where})`,
    bm25,
    'counted AS (SELECT count(*) AS total FROM admitted)',
    // Each record's phrases gathered once: a subquery per admitted row would scan every hit again for each.
    'held AS (SELECT record_id, array_agg(phrase ORDER BY phrase) AS phrases FROM freq GROUP BY record_id)',
    `viewed AS (SELECT ${VIEW_COLUMNS}, r.title_tokens + r.text_tokens AS length, coalesce(h.phrases, '{}') AS phrases, s.score
      FROM admitted a JOIN ${schema}.records r ON r.id = a.id JOIN ${schema}.documents d ON d.id = a.id LEFT JOIN scored s ON s.id = a.id
      LEFT JOIN held h ON h.record_id = a.id)`,
  ];
  const text = `WITH ${ctes.join(',\n')}
SELECT $1::text AS digest, counted.total::bigint AS total, v.* FROM counted LEFT JOIN viewed v ON true`;
  const { rows } = await client.query<{
    digest: string;
    total: string;
    id: string | null;
    length: number;
    phrases: number[];
    score: number | null;
  }>(text, into.values);
  const total = Number(rows[0]?.total ?? -1);
  if (rows.some((row) => row.digest !== digest || Number(row.total) !== total))
    return ok({ complete: false, problem: 'the rows of one answer disagree on the plan or the count' });
  const present = rows.filter((row) => row.id !== null);
  if (present.length !== total)
    return ok({
      complete: false,
      problem: `${present.length} of the ${total} admitted records arrived (a partial result)`,
    });
  const views = viewsOf(present);
  if (!views.ok) return views;
  return ok({
    complete: true,
    rows: present.map((row, index) => ({
      view: views.value[index] as CheckedRecord,
      length: Number(row.length),
      phrases: row.phrases.map(Number),
    })),
    ranked: present
      .flatMap((row, index) =>
        row.score === null
          ? []
          : [{ id: (views.value[index] as CheckedRecord).record.id, score: roundScore(row.score) }],
      )
      .sort(byScoreThenId),
  });
}

/**
 * An answer whose admitted rows did not all arrive, worded as `acceptAnswer` words an incomplete admission: nothing of
 * it is used.
 */
const incomplete = (problem: string): CompileError =>
  compileError({ pass: 'admit', code: 'ADAPTER_INCOMPLETE' }, 'ADAPTER_NO_ANSWER', { adapter: 'postgresql', problem });

/**
 * The gate views of the records that supersede any of `ids` (through the index of records that supersede something).
 */
async function successorsOf(client: Database, ids: readonly string[]): Promise<Result<CheckedRecord[], CompileError>> {
  const { rows } = await client.query(
    `SELECT ${VIEW_COLUMNS} FROM ${client.schema}.records r JOIN ${client.schema}.documents d ON d.id = r.id
     WHERE cardinality(r.supersedes) > 0 AND r.supersedes && $1::text[] ORDER BY r.id`,
    [ids],
  );
  return viewsOf(rows);
}

/**
 * The counts and the admitted rows on one server (or through a coordinator, the same statements over its partitioned
 * tables).
 */
async function answerOnOneServer(
  client: Database,
  plan: AdmissionPlan,
  digest: string,
  question: { readonly query: string; readonly tokeniser: Tokeniser; readonly phrases: readonly (readonly string[])[] },
): Promise<Result<ShardAnswer, CompileError>> {
  const { query, tokeniser, phrases } = question;
  const counted = await answerPlan(client, plan, digest, query, tokeniser, 1);
  if (!counted.ok) return counted;
  const admitted = await admittedRows(client, plan, digest, phrases);
  return admitted.ok ? ok({ counted: counted.value, admitted: admitted.value }) : admitted;
}

/**
 * The PostgreSQL store's answers to a plan, in the caller's snapshot: the one-statement answer (counts per
 * reason, statistics, the admitted set's digest), the admitted rows with their scores, the successors of the
 * admitted and required records, and the record-set digest the loads keep. Nothing per refused record.
 */
export function createPlanAnswering(
  client: Database,
  tokeniser: Tokeniser,
  readWhole: (ids: readonly string[]) => Promise<Result<readonly CheckedRecord[], CompileError>>,
): PlanAnsweringStore {
  return {
    brokenLinks: async () => ok(await storedBrokenLinks(client)),
    wholeRecords: readWhole,
    async answerPlan(
      plan: AdmissionPlan,
      digest: string,
      question: PlanQuestion,
    ): Promise<Result<PlanAnswer, CompileError>> {
      const bm25 = question.ranking === 'bm25';
      const query = bm25 ? question.query : '';
      const terms = safeFtsTerms(query).map((quoted) => quoted.slice(1, -1));
      const phrases = terms.map((term) => tokeniser.phrase(term));
      const tables = await shardTablesOf(client);
      // Through a coordinator the shards do the work, unless a term is a phrase of several tokens, whose positions only
      // one server's statements match.
      const answered =
        tables !== null && phrases.every((tokens) => tokens.length <= 1)
          ? await answerOnShards(
              client,
              tables,
              plan,
              digest,
              terms,
              phrases.map((tokens) => tokens[0] ?? null),
            )
          : await answerOnOneServer(client, plan, digest, { query, tokeniser, phrases });
      if (!answered.ok) return answered;
      const { counted, admitted } = answered.value;
      if (!admitted.complete) return err(incomplete(admitted.problem));
      const ids = admitted.rows.map((row) => row.view.record.id);
      const successors = await successorsOf(client, [...ids, ...question.required]);
      if (!successors.ok) return successors;
      return ok({
        admission: { status: 'complete', candidates: new Set(ids), predicateDigest: counted.predicateDigest },
        admittedCount: counted.admitted,
        admitted: admitted.rows,
        successors: successors.value,
        statistics: bm25 ? counted.statistics : { mode: 'declared' },
        ranked: bm25 ? admitted.ranked : [],
        refusedByReason: counted.refusedByReason,
        admittedDigest: counted.admittedDigest,
        recordSetDigest: await storedRecordSetDigest(client),
      });
    },
  };
}
