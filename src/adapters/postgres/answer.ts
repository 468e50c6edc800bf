import { compileError, err, ok, type CompileError, type Result } from '../../core/errors';
import type { AdmissionPlan, PlanClause } from '../../core/phases/4-admit/admission-plan';
import { byScoreThenId, roundScore, type RankedRow } from '../../core/phases/5-rank/ranking';
import type { ReasonCode } from '../../core/reasons';
import { GATE_ORDER, type RankingStatistics } from '../../core/result';
import { safeFtsTerms } from '../sqlite/fts-query';
import { admittedStatistics, bm25Ctes } from './bm25-sql';
import { answerLowering, bind, lowerConditions, supersededAt, type Lowering } from './lower';
import { VIEW_COLUMNS } from './gate-views';
import { refusedCountCtes } from './refused-counts';
import { ADMITTED_DIGEST_CTES, refusalCounts, SUMMARY_COLUMNS, verdictCode, type SummaryRow } from './answer-rows';
import { WITHHOLDING_GATE_NAMES } from '../../core/disclosure';
import type { Database } from './schema';
import type { Tokeniser } from './tokens';
import { wordMessage } from '../../core/messages';

/** What the database answers for one plan and query, in one statement over one snapshot: nothing per refused record. */
export interface PlanAnswer {
  /** The snapshot the records are at (counted up by every load that changes one). */
  readonly snapshot: number;
  /** The digest the statement echoes: the plan it ran. */
  readonly predicateDigest: string;
  /** How many records the plan admits. */
  readonly admitted: number;
  /** The admitted set's bm25 statistics: document count, token total and each query term's document count. */
  readonly statistics: RankingStatistics;
  /** How many records each reason refuses: the code of the first gate each fails, as the evaluator names it. */
  readonly refusedByReason: Readonly<Partial<Record<ReasonCode, number>>>;
  /** How many refused records fail an authorisation or deny gate: those the user view withholds. */
  readonly withheld: number;
  /** The best admitted matches of the query, best first, ties by id; at most `top` of them. */
  readonly candidates: readonly RankedRow[];
  /**
   * The admitted set's digest: the record-set tree (tree-digest.ts) over the admitted records' ids and fingerprints.
   */
  readonly admittedDigest: string;
}

/** The reason code a scalar clause's failure stands for, by its gate. */
const SCALAR_CODE: Partial<Readonly<Record<PlanClause['gate'], ReasonCode>>> = {
  project: 'EXCLUDE_PROJECT',
  scope: 'EXCLUDE_SCOPE',
  identity: 'EXCLUDE_IDENTITY',
  lifecycle: 'EXCLUDE_LIFECYCLE',
  source: 'EXCLUDE_SOURCE',
  authority: 'EXCLUDE_AUTHORITY',
  review: 'EXCLUDE_REVIEW',
  provenance: 'EXCLUDE_PROVENANCE',
  sensitivity: 'EXCLUDE_SENSITIVITY',
  deny: 'EXCLUDE_DENY_LABEL',
};

const code = (reason: ReasonCode) => `'${reason}'`;

/**
 * The SQL naming the reason a record failing this clause is refused for, as admit.ts words the gate's first
 * failure: a time gate says future or expired, supersession says the record's own broken link first
 * (`supersession_breaks`, joined as `b`), authorisation says the principal before the purpose, evidence
 * says whether the record claims a proposition the contract asks for. Null for a clause it cannot name.
 */
function refusalCode(clause: PlanClause, into: Lowering): string | null {
  switch (clause.op) {
    case 'in-force-at': {
      const at = bind(into, clause.at.epochMs, 'bigint');
      return `CASE WHEN r.known_at > ${at} OR r.valid_from > ${at} THEN ${code('EXCLUDE_FUTURE')} ELSE ${code('EXCLUDE_EXPIRED')} END`;
    }
    case 'not-superseded-at':
      return SUPERSESSION_CODE;
    case 'every-group-meets-list':
      return code('EXCLUDE_NOT_AUTHORISED');
    case 'list-contains':
      return clause.gate === 'authorisation' ? code('EXCLUDE_PURPOSE') : null;
    case 'required-or-accepted-evidence':
      return `CASE WHEN r.claims && ${bind(
        into,
        clause.accepted.map((item) => item.proposition),
        'text[]',
      )} THEN ${code('EXCLUDE_EVIDENCE_CLASS')} ELSE ${code('EXCLUDE_NOT_NEEDED')} END`;
    default: {
      // The plan's broken links (an id clause) and a successor in force are one gate.
      if (clause.gate === 'supersession') return SUPERSESSION_CODE;
      const found = SCALAR_CODE[clause.gate];
      return found === undefined ? null : code(found);
    }
  }
}

/**
 * Supersession's reason: the record's own broken link first (`supersession_breaks`, joined as `b`), else its successor
 * in force.
 */
const SUPERSESSION_CODE =
  `CASE b.kind WHEN 'dangling' THEN ${code('EXCLUDE_DANGLING_SUPERSESSION')} WHEN 'self' THEN ` +
  `${code('EXCLUDE_SUPERSESSION_CYCLE')} WHEN 'cycle' THEN ${code('EXCLUDE_SUPERSESSION_CYCLE')} ELSE ` +
  `${code('EXCLUDE_SUPERSEDED')} END`;

/**
 * The plan's conditions and, for a row `r` of the records joined with `supersession_breaks` as `b`, the SQL
 * of its verdict: null when admitted, else the code of the first clause it fails in gate order (within a
 * gate, the plan's order: principals before purpose), marked (`WITHHELD_MARK`) when it also fails an authorisation
 * or deny clause: the user view counts such a record among the withheld ones.
 */
export function lowerVerdict(
  plan: AdmissionPlan,
  into: Lowering,
): Result<{ readonly conditions: readonly string[]; readonly verdict: string }, CompileError> {
  const conditions = lowerConditions(plan, into);
  if (!conditions.ok) return conditions;
  const ordered = plan.clauses
    .map((clause, index) => ({ clause, condition: conditions.value[index] as string }))
    .sort((a, b) => GATE_ORDER.indexOf(a.clause.gate) - GATE_ORDER.indexOf(b.clause.gate));
  const branches: { readonly condition: string; readonly reason: string }[] = [];
  for (const { clause, condition } of ordered) {
    const reason = refusalCode(clause, into);
    if (reason === null)
      return err(
        compileError({ pass: 'admit', code: 'LOWERING_UNSUPPORTED' }, 'ANSWER_NO_REASON_CODE', {
          gate: clause.gate,
          op: clause.op,
        }),
      );
    branches.push({ condition, reason });
  }
  const first =
    branches.length === 0
      ? 'NULL::text'
      : into.shippable === undefined
        ? `CASE ${branches.map(({ condition, reason }) => `WHEN NOT coalesce((${condition}), false) THEN ${reason}`).join('\n    ')} ELSE NULL END`
        : // postgres_fdw sends no COALESCE to a shard: a clause that is not true (false or null) takes its ELSE.
          branches.reduceRight(
            (passed, { condition, reason }) => `CASE WHEN (${condition}) THEN ${passed} ELSE ${reason} END`,
            'NULL::text',
          );
  // A clause that is not true (false or null) withholds the record, as in the evaluator, whichever gate fails first.
  const guards = ordered
    .filter(({ clause }) => WITHHOLDING_GATE_NAMES.includes(clause.gate))
    .map(({ condition }) => condition);
  return ok({
    conditions: conditions.value,
    verdict:
      guards.length === 0
        ? first
        : `CASE WHEN ${guards.map((condition) => `(${condition})`).join(' AND ')} THEN ${first} ELSE ${first.replace(
            /'(EXCLUDE_[A-Z_]+)'/g,
            (_, reason: string) => `'${verdictCode(reason, true)}'`,
          )} END`,
  });
}

/**
 * The common table expressions of one answer on one server, in `into`'s parameters: `admitted` (the gate columns,
 * ends_chunk and length), the refused counts per code, bm25 over the admitted set (bm25-sql.ts) and the admitted set's
 * digest: what `SUMMARY_COLUMNS` reads.
 */
export function answerCtes(
  plan: AdmissionPlan,
  phrases: readonly (readonly string[])[],
  into: Lowering,
): Result<string[], CompileError> {
  const { schema } = into;
  const lowered = lowerVerdict(plan, into);
  if (!lowered.ok) return lowered;
  const { conditions, verdict } = lowered.value;
  const where = conditions.length === 0 ? 'true' : conditions.map((condition) => `(${condition})`).join('\n  AND ');
  const bm25 = bm25Ctes(schema, 'admitted', phrases, (value, type) => bind(into, value, type));
  const joins = into.joins.join(' ');
  return ok([
    ...into.ctes,
    // Admission as lowerPlan states it, and the refused counts in a scan of their own: each can run in parallel, and
    // most records stop at their first failing clause. The admitted rows carry what the statistics, the scores and the
    // gate views read, so none of them reads the records again: a join back to the records made the planner hash or
    // scan the whole table for each.
    `admitted AS MATERIALIZED (SELECT ${VIEW_COLUMNS}, r.ends_chunk, r.title_tokens + r.text_tokens AS ` +
      `length FROM ${schema}.records r ${joins} WHERE ${where})`,
    ...refusedCountCtes(
      verdict,
      `${schema}.records r ${joins} LEFT JOIN ${schema}.supersession_breaks b ON b.id = r.id`,
      into,
    ),
    bm25,
    ...ADMITTED_DIGEST_CTES,
  ]);
}

/**
 * The settings of the transaction an answer runs in. Shortest exact float output, whatever the server's setting: the
 * scores are read back bit for bit. Memory enough to sort and group the admitted set's term hits and rows without
 * spilling to disk, which the default work memory does on a large corpus.
 */
export const ANSWER_SETTINGS =
  "SELECT set_config('extra_float_digits', '1', true), set_config('work_mem', '128MB', true)";

/**
 * Answers a plan and a query in the caller's snapshot (REPEATABLE READ, JIT off: see `inSnapshot`) with one
 * statement; bm25 as `rankInDatabase` scores, over the admitted set's own statistics. A database error is
 * the caller's to turn into ADAPTER_INCOMPLETE.
 */
export async function answerPlan(
  client: Database,
  plan: AdmissionPlan,
  digest: string,
  query: string,
  tokeniser: Tokeniser,
  top: number,
): Promise<Result<PlanAnswer, CompileError>> {
  const terms = safeFtsTerms(query).map((quoted) => quoted.slice(1, -1));
  const phrases = terms.map((term) => tokeniser.phrase(term));
  const into = answerLowering(client.schema, digest, await supersededAt(client, plan));
  const ctes = answerCtes(plan, phrases, into);
  if (!ctes.ok) return ctes;
  const limit = bind(into, top, 'integer');
  const best = [
    `best AS (SELECT id, score FROM scored ORDER BY score DESC, id LIMIT ${limit})`,
    // A record tied with the last of the best to within rounding may still be among the best once rounded, so the
    // cut is Node's, as the core makes it.
    'candidates AS (SELECT id, score FROM scored WHERE score >= (SELECT min(score) FROM best) - 1e-8::float8)',
  ];
  await client.query(ANSWER_SETTINGS);
  const { rows } = await client.query<SummaryRow & { snapshot: string; candidates: [string, number][] | null }>(
    `WITH ${[...ctes.value, ...best].join(',\n')}
SELECT (SELECT snapshot FROM ${client.schema}.layout)::text AS snapshot, ${SUMMARY_COLUMNS},
  (SELECT json_agg(json_build_array(id, score)) FROM candidates) AS candidates`,
    into.values,
  );
  const row = rows[0];
  if (row === undefined)
    return err(
      compileError({ pass: 'admit', code: 'ADAPTER_INCOMPLETE' }, 'ADAPTER_NO_ANSWER', {
        adapter: 'postgresql',
        problem: wordMessage('ANSWER_HAD_NO_ROW'),
      }),
    );
  const statistics = admittedStatistics(terms, {
    documents: row.set_documents,
    tokens: row.set_tokens,
    matched: row.matched,
  });
  const candidates =
    terms.length === 0
      ? []
      : (row.candidates ?? [])
          .map(([id, score]) => ({ id, score: roundScore(score) }))
          .sort(byScoreThenId)
          .slice(0, top);
  return ok({
    snapshot: Number(row.snapshot),
    predicateDigest: row.digest,
    admitted: Number(row.total),
    statistics,
    ...refusalCounts(row.refused),
    candidates,
    admittedDigest: row.admitted_digest,
  });
}
