import type { PlanAnswer, PlanAnsweringStore, PlanQuestion } from '../../core/answered-admission';
import { compileError, err, ok, type CompileError, type Result } from '../../core/errors';
import type { AdmissionPlan } from '../../core/phases/4-admit/admission-plan';
import type { CheckedRecord } from '../../core/phases/1-validate/validate';
import { safeFtsTerms } from '../sqlite/fts-query';
import { answerCtes } from './answer';
import { answerOf, withRows, type AnswerRow, type AnswerWithRows } from './answer-rows';
import { storedBrokenLinks } from './broken-links';
import type { Lowering } from './lower';
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
 * The counts and the admitted rows on one server in one statement, so admission runs once and every row is of the
 * plan the counts are.
 */
async function answerOnOneServer(
  client: Database,
  plan: AdmissionPlan,
  digest: string,
  terms: readonly string[],
  phrases: readonly (readonly string[])[],
): Promise<Result<AnswerWithRows, CompileError>> {
  const { schema } = client;
  const into: Lowering = { schema, values: [digest], ctes: [], joins: [] };
  const ctes = answerCtes(plan, phrases, into);
  if (!ctes.ok) return ctes;
  const statement = withRows([
    ...ctes.value,
    // Each record's phrases gathered once: a subquery per admitted row would scan every hit again for each.
    'held AS (SELECT record_id, array_agg(phrase ORDER BY phrase) AS phrases FROM freq GROUP BY record_id)',
    `viewed AS (SELECT ${VIEW_COLUMNS}, r.title_tokens + r.text_tokens AS length, coalesce(h.phrases, '{}') AS phrases, s.score
      FROM admitted a JOIN ${schema}.records r ON r.id = a.id JOIN ${schema}.documents d ON d.id = a.id LEFT JOIN scored s ON s.id = a.id
      LEFT JOIN held h ON h.record_id = a.id)`,
  ]);
  // Shortest exact float output, whatever the server's setting: the scores are read back bit for bit.
  await client.query("SELECT set_config('extra_float_digits', '1', true)");
  const { rows } = await client.query<AnswerRow>(statement, into.values);
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
