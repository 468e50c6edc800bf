import { recordsKey, type PlanAnswer, type PlanAnsweringStore, type PlanQuestion } from '../../core/answered-admission';
import { compareStrings } from '../../core/canonical';
import { compileError, err, ok, type CompileError, type Result } from '../../core/errors';
import type { AdmissionPlan } from '../../core/phases/4-admit/admission-plan';
import type { CheckedRecord } from '../../core/phases/1-validate/validate';
import type { RankingStatistics } from '../../core/result';
import { safeFtsTerms } from '../sqlite/fts-query';
import { ANSWER_SETTINGS, answerCtes } from './answer';
import {
  countedOf,
  readAnswer,
  refusalCounts,
  splitVerdictCode,
  SUMMARY_COLUMNS,
  withRows,
  type AnswerWithRows,
  type RefusalCounts,
  type SummaryRow,
} from './answer-rows';
import { wordMessage } from '../../core/messages';
import { storedBrokenLinks } from './broken-links';
import { verdictsOfChanges, type ChangedVerdicts } from './change-log';
import { answerLowering, supersededAt } from './lower';
import { VIEW_COLUMNS, viewsOf } from './gate-views';
import { answerOnShards } from './shard-answer';
import type { ShardTables } from './shard-snapshots';
import { storedRecordSetDigest } from './record-set-digest';
import { currentSnapshot, type Database } from './schema';
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
  superseded: readonly string[],
): Promise<Result<AnswerWithRows, CompileError>> {
  const statement = oneServerStatement(client.schema, plan, digest, phrases, superseded);
  if (!statement.ok) return statement;
  await client.query(ANSWER_SETTINGS);
  return readAnswer(client, statement.value.text, statement.value.values, digest, terms);
}

/**
 * The counts and the admitted set's digest on one server, with no query term's hits: what tells whether an answer
 * kept from an earlier compile still holds.
 */
async function recountOnOneServer(
  client: Database,
  plan: AdmissionPlan,
  digest: string,
  superseded: readonly string[],
): Promise<Result<AnswerWithRows['counted'], CompileError>> {
  const into = answerLowering(client.schema, digest, superseded);
  const ctes = answerCtes(plan, [], into);
  if (!ctes.ok) return ctes;
  await client.query(ANSWER_SETTINGS);
  const { rows } = await client.query<SummaryRow>(
    `WITH ${ctes.value.join(',\n')}\nSELECT ${SUMMARY_COLUMNS}`,
    into.values,
  );
  const summary = rows[0];
  if (summary === undefined) return err(incomplete(wordMessage('ANSWER_HAD_NO_ROW')));
  return ok(countedOf(summary.digest, Number(summary.total), summary, []));
}

/**
 * The answers a long-lived compiler kept, by plan and question: each with the ids superseded when it was answered and
 * the successors of its required records. A few are kept, the oldest dropped first.
 */
export interface KeptAnswers {
  get(key: string): KeptAnswer | undefined;
  keep(key: string, kept: KeptAnswer): void;
}

export interface KeptAnswer {
  /** The snapshot the records were at when it was answered. */
  readonly snapshot: number;
  readonly superseded: string;
  readonly requiredSuccessors: string;
  readonly answer: PlanAnswer;
}

export function createKeptAnswers(size = 4): KeptAnswers {
  const kept = new Map<string, KeptAnswer>();
  return {
    get: (key) => kept.get(key),
    keep(key, answer) {
      kept.delete(key);
      kept.set(key, answer);
      for (const oldest of kept.keys()) {
        if (kept.size <= size) break;
        kept.delete(oldest);
      }
    },
  };
}

/** The successors among `successors` that supersede a required record, as ids and fingerprints in id order. */
function successorsOfRequired(successors: readonly CheckedRecord[], required: readonly string[]): string {
  const wanted = new Set(required);
  return recordsKey(
    successors
      .filter((successor) => successor.record.supersedes.some((id) => wanted.has(id)))
      .sort((a, b) => compareStrings(a.record.id, b.record.id)),
  );
}

/**
 * The refused counts of a kept answer moved by the changes since: each changed record's reason then taken off, its
 * reason now added, and the withheld count likewise. Null when a changed record was or is admitted (the admitted set
 * is not the kept one), or when a count would go below zero.
 */
function countsAfter(counts: RefusalCounts, changes: ChangedVerdicts): RefusalCounts | null {
  if ([...changes.before, ...changes.now].some((code) => code === null)) return null;
  const moved: Record<string, number> = { ...counts.refusedByReason };
  let withheld = counts.withheld;
  const move = (code: string, by: number) => {
    const split = splitVerdictCode(code);
    moved[split.reason] = (moved[split.reason] ?? 0) + by;
    if (split.withheld) withheld += by;
  };
  for (const code of changes.before as string[]) move(code, -1);
  for (const code of changes.now as string[]) move(code, 1);
  if (withheld < 0 || Object.values(moved).some((count) => count < 0)) return null;
  const left = refusalCounts(Object.fromEntries(Object.entries(moved).filter(([, count]) => count > 0)));
  return { refusedByReason: left.refusedByReason, withheld };
}

/**
 * The refused counts now, when admission still admits what the kept answer's did: from the records the log says
 * changed since (change-log.ts), judged as they were and as they are; or, where the log cannot tell, from admission
 * recounted in the database without any query term's hits, with the admitted set's digest, count and token total
 * compared. Null when the admitted set is another.
 */
async function refusedIfSameAdmitted(
  client: Database,
  kept: KeptAnswer,
  plan: AdmissionPlan,
  digest: string,
  superseded: readonly string[],
): Promise<Result<RefusalCounts | null, CompileError>> {
  const last = kept.answer;
  const changes = await verdictsOfChanges(client, plan, digest, superseded, kept.snapshot);
  if (!changes.ok) return changes;
  if (changes.value !== null) return ok(countsAfter(last, changes.value));
  const counted = await recountOnOneServer(client, plan, digest, superseded);
  if (!counted.ok) return counted;
  const tokens = (statistics: RankingStatistics) => (statistics.mode === 'bm25' ? statistics.tokens : null);
  const same =
    counted.value.admittedDigest === last.admittedDigest &&
    counted.value.admitted === last.admittedCount &&
    (last.statistics.mode !== 'bm25' || tokens(counted.value.statistics) === tokens(last.statistics));
  return ok(same ? { refusedByReason: counted.value.refusedByReason, withheld: counted.value.withheld } : null);
}

/**
 * The kept answer to the same plan and question, superseding the same ids, when it still holds: the required
 * records have the same successors, and admission admits what it admitted (`refusedIfSameAdmitted`). The admitted
 * set's digest covers every admitted id and fingerprint, so its rows, statistics and scores are the kept ones; the
 * refused counts and the record-set digest are new. Null when something differs: the caller answers in full.
 */
async function keptAnswerIfSame(
  client: Database,
  kept: KeptAnswer,
  plan: AdmissionPlan,
  digest: string,
  question: PlanQuestion,
  superseded: readonly string[],
): Promise<Result<PlanAnswer | null, CompileError>> {
  const refused = await refusedIfSameAdmitted(client, kept, plan, digest, superseded);
  if (!refused.ok || refused.value === null) return refused.ok ? ok(null) : refused;
  const successors = await successorsOf(client, question.required);
  if (!successors.ok) return successors;
  if (successorsOfRequired(successors.value, question.required) !== kept.requiredSuccessors) return ok(null);
  return ok({
    ...kept.answer,
    refusedByReason: refused.value.refusedByReason,
    withheld: refused.value.withheld,
    recordSetDigest: await storedRecordSetDigest(client),
  });
}

/**
 * The PostgreSQL store's answers to a plan, in the caller's snapshot: one statement on one server, or through the
 * coordinator on the `shards` the snapshot check found, gives the counts per reason, the statistics, the admitted
 * set's digest and the admitted rows with their scores; then the successors of the admitted and required records,
 * and the record-set digest the loads keep. Nothing per refused record. On one server, an answer `kept` from an
 * earlier snapshot is used again when a recount shows its admitted set unchanged (`keptAnswerIfSame`).
 */
export function createPlanAnswering(
  client: Database,
  tokeniser: Tokeniser,
  shardsNow: () => ShardTables,
  readWhole: (ids: readonly string[]) => Promise<Result<readonly CheckedRecord[], CompileError>>,
  kept: KeptAnswers = createKeptAnswers(),
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
      const shards = shardsNow();
      const key = JSON.stringify([digest, question.ranking, query, question.required]);
      let answered: Result<AnswerWithRows, CompileError>;
      let superseded = '';
      let snapshot = 0;
      // Through a coordinator the shards do the work.
      if (shards !== null) answered = await answerOnShards(client, shards, plan, digest, terms, phrases);
      else {
        const ids = await supersededAt(client, plan);
        superseded = ids.join('\n');
        snapshot = await currentSnapshot(client);
        const last = kept.get(key);
        if (last?.superseded === superseded) {
          const same = await keptAnswerIfSame(client, last, plan, digest, question, ids);
          if (!same.ok) return same;
          if (same.value !== null) {
            kept.keep(key, { ...last, snapshot, answer: same.value });
            return ok(same.value);
          }
        }
        answered = await answerOnOneServer(client, plan, digest, terms, phrases, ids);
      }
      if (!answered.ok) return answered;
      const { counted, admitted } = answered.value;
      if (!admitted.complete) return err(incomplete(admitted.problem));
      const ids = admitted.rows.map((row) => row.view.record.id);
      const successors = await successorsOf(client, [...ids, ...question.required]);
      if (!successors.ok) return successors;
      const answer: PlanAnswer = {
        admission: { status: 'complete', candidates: new Set(ids), predicateDigest: counted.predicateDigest },
        admittedCount: counted.admitted,
        admitted: admitted.rows,
        successors: successors.value,
        statistics: bm25 ? counted.statistics : { mode: 'declared' },
        ranked: bm25 ? admitted.ranked : [],
        refusedByReason: counted.refusedByReason,
        withheld: counted.withheld,
        admittedDigest: counted.admittedDigest,
        recordSetDigest: await storedRecordSetDigest(client),
      };
      if (shards === null)
        kept.keep(key, {
          snapshot,
          superseded,
          requiredSuccessors: successorsOfRequired(successors.value, question.required),
          answer,
        });
      return ok(answer);
    },
  };
}
