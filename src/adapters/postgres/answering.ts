import { z } from 'zod';
import type { AdmittedRow, PlanAnswer, PlanAnsweringStore, PlanQuestion } from '../../core/answered-admission';
import { err, ok, type CompileError, type Result } from '../../core/errors';
import { LIFECYCLE_STATES, REVIEW_STATES } from '../../core/format/record';
import { formatInstant } from '../../core/format/time';
import type { AdmissionPlan } from '../../core/phases/4-admit/admission-plan';
import { byScoreThenId, roundScore, type RankedRow } from '../../core/phases/5-rank/ranking';
import { endsChunk } from '../../core/tree-digest';
import type { CheckedRecord } from '../../core/phases/1-validate/validate';
import { safeFtsTerms } from '../sqlite/fts-query';
import { answerPlan } from './answer';
import { bm25Ctes } from './bm25-sql';
import { storedBrokenLinks } from './broken-links';
import { bind, lowerConditions, type Lowering } from './lower';
import { storedRecordSetDigest } from './record-set-digest';
import type { Database } from './schema';
import type { Tokeniser } from './tokens';

/**
 * A record's gate columns as a row of the narrow table, with its declared tokens and relevance from its
 * document: validated at the boundary, then made the gate view the core judges (no title, no text).
 */
const viewRowSchema = z.object({
  id: z.string(),
  fingerprint: z.string(),
  project: z.string(),
  scope: z.string(),
  subject: z.string().nullable(),
  known_at: z.coerce.number(),
  valid_from: z.coerce.number(),
  valid_to: z.coerce.number().nullable(),
  lifecycle: z.enum(LIFECYCLE_STATES),
  source_class: z.string(),
  authority_class: z.string(),
  review_state: z.enum(REVIEW_STATES),
  provenance_ok: z.boolean(),
  sensitivity: z.string(),
  evidence_class: z.string().nullable(),
  roles: z.array(z.string()),
  purposes: z.array(z.string()),
  labels: z.array(z.string()),
  claims: z.array(z.string()),
  supersedes: z.array(z.string()),
  tokens: z.coerce.number().int(),
  relevance: z.number().nullable(),
});

type ViewRow = z.infer<typeof viewRowSchema>;

/** The columns a gate view is made of, for a row `r` of the records and `d` of the documents. */
const VIEW_COLUMNS = `r.id, r.fingerprint, r.project, r.scope, r.subject, r.known_at, r.valid_from, r.valid_to, r.lifecycle, r.source_class,
  r.authority_class, r.review_state, r.provenance_ok, r.sensitivity, r.evidence_class, r.roles, r.purposes, r.labels, r.claims, r.supersedes,
  (d.document::json->>'tokens')::integer AS tokens, (d.document::json->>'relevance')::float8 AS relevance`;

/**
 * The gate view of a row: the fields the gates and the plan read, as validation would have made them. The claims
 * stand as supported propositions (the gates and the plan read only which propositions a record claims); the
 * digest's chunk rule is computed here from the id, not read from the row.
 */
function viewOf(row: ViewRow): CheckedRecord {
  return {
    record: {
      id: row.id,
      title: '',
      text: '',
      tokens: row.tokens,
      project: row.project,
      scope: row.scope,
      subject: row.subject,
      knownAt: formatInstant(row.known_at),
      validFrom: formatInstant(row.valid_from),
      validTo: row.valid_to === null ? null : formatInstant(row.valid_to),
      lifecycle: row.lifecycle,
      supersedes: row.supersedes,
      sourceClass: row.source_class,
      authorityClass: row.authority_class,
      reviewState: row.review_state,
      provenance: null,
      sensitivity: row.sensitivity,
      access: { roles: row.roles, purposes: row.purposes, labels: row.labels },
      evidence:
        row.evidence_class === null ? null : { class: row.evidence_class, supports: row.claims, contradicts: [] },
      relevance: row.relevance,
    },
    fingerprint: row.fingerprint,
    provenanceVerified: row.provenance_ok,
    knownAt: row.known_at,
    validFrom: row.valid_from,
    validTo: row.valid_to,
    endsDigestChunk: endsChunk(row.id),
  };
}

function viewsOf(rows: readonly unknown[]): Result<CheckedRecord[], CompileError> {
  const views: CheckedRecord[] = [];
  for (const row of rows) {
    const parsed = viewRowSchema.safeParse(row);
    if (!parsed.success)
      return err({
        pass: 'admit',
        code: 'ADAPTER_MISMATCH',
        message: `The postgresql adapter returned a record row the gates cannot read: ${parsed.error.issues[0]?.message ?? 'malformed'}.`,
      });
    views.push(viewOf(parsed.data));
  }
  return ok(views);
}

/** The admitted rows of one answer, or why they are not all there. */
type AdmittedRows =
  | { readonly complete: true; readonly rows: AdmittedRow[]; readonly ranked: RankedRow[] }
  | { readonly complete: false; readonly problem: string };

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

/** An answer whose admitted rows did not all arrive, worded as `acceptAnswer` words an incomplete admission: nothing of it is used. */
const incomplete = (problem: string): CompileError => ({
  pass: 'admit',
  code: 'ADAPTER_INCOMPLETE',
  message: `The postgresql adapter returned no complete answer: ${problem}. No candidate is used.`,
});

/** The gate views of the records that supersede any of `ids` (through the index of records that supersede something). */
async function successorsOf(client: Database, ids: readonly string[]): Promise<Result<CheckedRecord[], CompileError>> {
  const { rows } = await client.query(
    `SELECT ${VIEW_COLUMNS} FROM ${client.schema}.records r JOIN ${client.schema}.documents d ON d.id = r.id
     WHERE cardinality(r.supersedes) > 0 AND r.supersedes && $1::text[] ORDER BY r.id`,
    [ids],
  );
  return viewsOf(rows);
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
      const counted = await answerPlan(client, plan, digest, query, tokeniser, 1);
      if (!counted.ok) return counted;
      const phrases = safeFtsTerms(query).map((quoted) => tokeniser.phrase(quoted.slice(1, -1)));
      const admitted = await admittedRows(client, plan, digest, phrases);
      if (!admitted.ok) return admitted;
      if (!admitted.value.complete) return err(incomplete(admitted.value.problem));
      const ids = admitted.value.rows.map((row) => row.view.record.id);
      const successors = await successorsOf(client, [...ids, ...question.required]);
      if (!successors.ok) return successors;
      return ok({
        admission: { status: 'complete', candidates: new Set(ids), predicateDigest: counted.value.predicateDigest },
        admittedCount: counted.value.admitted,
        admitted: admitted.value.rows,
        successors: successors.value,
        statistics: bm25 ? counted.value.statistics : { mode: 'declared' },
        ranked: bm25 ? admitted.value.ranked : [],
        refusedByReason: counted.value.refusedByReason,
        admittedDigest: counted.value.admittedDigest,
        recordSetDigest: await storedRecordSetDigest(client),
      });
    },
  };
}
