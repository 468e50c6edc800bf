import type { PlanAnswer, PlanAnsweringStore, PlanQuestion } from '../../core/answered-admission';
import { compileError, err, ok, type CompileError, type Result } from '../../core/errors';
import type { AdmissionPlan } from '../../core/phases/4-admit/admission-plan';
import type { CheckedRecord } from '../../core/phases/1-validate/validate';
import { safeFtsTerms } from '../sqlite/fts-query';
import { ANSWER_SETTINGS, answerCtes } from './answer';
import { answerOf, withRows, type AnswerRow, type AnswerWithRows } from './answer-rows';
import { storedBrokenLinks } from './broken-links';
import { answerLowering, supersededAt } from './lower';
import { VIEW_COLUMNS, viewsOf } from './gate-views';
import { answerOnShards } from './shard-answer';
import type { ShardTables } from './shard-snapshots';
import { storedRecordSetDigest } from './record-set-digest';
import type { Database } from './schema';
import type { Tokeniser } from './tokens';

/**
 * An answer whose admitted rows did not all arrive, worded as `acceptAnswer` words an incomplete admission: nothing of
 * it is used.
 */
const incomplete = (problem: string): CompileError =>
  compileError({ pass: 'admit', code: 'ADAPTER_INCOMPLETE' }, 'ADAPTER_NO_ANSWER', { adapter: 'postgresql', problem });

/**
 * The statement giving the gate views of the records that supersede any of the ids `$1` (through the index of records
 * that supersede something). Each target is looked up in the ids as a set: `supersedes && ids` compares every element
 * with every id, so its cost was the successors times the admitted records, which grow together with the corpus.
 */
export const successorsStatement = (schema: string) =>
  // The few successors' ids found first, as one array, then their rows and documents by key: a join with them let the
  // planner, which cannot tell how few they are, walk every record and document in id order.
  `WITH wanted AS MATERIALIZED (SELECT DISTINCT unnest($1::text[]) COLLATE "C" AS id)
   SELECT ${VIEW_COLUMNS} FROM ${schema}.records r
   WHERE r.id = ANY (ARRAY(SELECT s.id FROM ${schema}.records s CROSS JOIN LATERAL unnest(s.supersedes) AS t(id)
     JOIN wanted w ON w.id = t.id COLLATE "C" WHERE cardinality(s.supersedes) > 0))
   ORDER BY r.id`;

async function successorsOf(client: Database, ids: readonly string[]): Promise<Result<CheckedRecord[], CompileError>> {
  const { rows } = await client.query(successorsStatement(client.schema), [ids]);
  return viewsOf(rows);
}

/**
 * The statement answering a plan on one server: the counts and the admitted rows, so admission runs once and every row
 * is of the plan the counts are.
 */
export function oneServerStatement(
  schema: string,
  plan: AdmissionPlan,
  digest: string,
  phrases: readonly (readonly string[])[],
  superseded: readonly string[],
): Result<{ readonly text: string; readonly values: readonly unknown[] }, CompileError> {
  // Admission in the form a shard gets, every set bound: no table expression in the scans, so each can run in parallel.
  const into = answerLowering(schema, digest, superseded);
  const ctes = answerCtes(plan, phrases, into);
  if (!ctes.ok) return ctes;
  const text = withRows([
    ...ctes.value,
    // Each record's phrases come with its score, gathered in the one grouping of the hits by record: a grouping of its
    // own sorted every hit again, and a subquery per admitted row scanned every hit again for each.
    `viewed AS (SELECT ${VIEW_COLUMNS}, r.length, coalesce(s.phrases, '{}') AS phrases, s.score
      FROM admitted r LEFT JOIN scored s ON s.id = r.id)`,
  ]);
  return ok({ text, values: into.values });
}

/** The counts and the admitted rows on one server, in one statement. */
async function answerOnOneServer(
  client: Database,
  plan: AdmissionPlan,
  digest: string,
  terms: readonly string[],
  phrases: readonly (readonly string[])[],
): Promise<Result<AnswerWithRows, CompileError>> {
  const statement = oneServerStatement(client.schema, plan, digest, phrases, await supersededAt(client, plan));
  if (!statement.ok) return statement;
  await client.query(ANSWER_SETTINGS);
  const { rows } = await client.query<AnswerRow>(statement.value.text, statement.value.values);
  return answerOf(rows, digest, terms);
}

/**
 * The PostgreSQL store's answers to a plan, in the caller's snapshot: one statement on one server, or through the
 * coordinator on the `shards` the snapshot check found, gives the counts per reason, the statistics, the admitted
 * set's digest and the admitted rows with their scores; then the successors of the admitted and required records,
 * and the record-set digest the loads keep. Nothing per refused record.
 */
export function createPlanAnswering(
  client: Database,
  tokeniser: Tokeniser,
  shards: ShardTables,
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
      // Through a coordinator the shards do the work.
      const answered =
        shards !== null
          ? await answerOnShards(client, shards, plan, digest, terms, phrases)
          : await answerOnOneServer(client, plan, digest, terms, phrases);
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
