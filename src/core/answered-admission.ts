import type { Sha256 } from './fingerprints';
import { canonicalJson, compareStrings, sortedSet } from './canonical';
import { finishCompile, type CompileRequest, type PreparedCompile } from './compile-stages';
import { err, ok, type CompileError, type Result } from './errors';
import { freshQueries, type Queries } from './queries';
import { type Admission, admit, divergence, evaluateGates, gateCodeOf, type GateVerdict } from './phases/4-admit/admit';
import { WITHHOLDING_GATES } from './disclosure';
import { recordSetDigest } from './phases/7-attest/attest-digests';
import {
  IdPositions,
  resolve,
  supersessionsInForce,
  type BrokenLink,
  type Resolution,
  type ResolvedContract,
  type ResolvedRecord,
} from './phases/2-resolve/resolve';
import { recordSetOf, type CheckedRecord } from './phases/1-validate/validate';
import { typeCheck } from './phases/3-type-check/type-check';
import { buildAdmissionPlan, planDigest, type AdmissionPlan } from './phases/4-admit/admission-plan';
import {
  acceptAnswer,
  checkAdapterFor,
  type AcceptedAnswer,
  type AdmissionAnswer,
  type AdmittingStore,
} from './phases/4-admit/adapter';
import { rankDeclared, type RankedRow, type Ranking } from './phases/5-rank/ranking';
import type { ReasonCode } from './reasons';
import type { CompileOutcome, RankingStatistics, Receipt } from './result';
import { receiptIdOf } from './phases/7-attest/attest';

/**
 * An admitted record as the store's gate columns describe it: what the gates and the plan read, without its title and
 * text.
 */
export interface AdmittedRow {
  /**
   * The record's gate view: every field a gate or the plan reads; title and text are empty, and only a whole record
   * enters a packet.
   */
  readonly view: CheckedRecord;
  /** Its title and text tokens: its length in the admitted set's bm25 statistics. */
  readonly length: number;
  /** The query's phrases (by position) it holds. */
  readonly phrases: readonly number[];
}

/**
 * What a store that answers a plan itself hands the core: every admitted row, and nothing per refused record but a
 * count.
 */
export interface PlanAnswer {
  /** The admitted ids and the digest of the plan the store ran. */
  readonly admission: AdmissionAnswer;
  /** How many records the store says it admits, counted apart from the rows below. */
  readonly admittedCount: number;
  readonly admitted: readonly AdmittedRow[];
  /** The records that supersede an admitted or required record, as gate views: what resolve reads of versions. */
  readonly successors: readonly CheckedRecord[];
  /** The admitted set's bm25 statistics as the store counted them (bm25 contracts; `declared` otherwise). */
  readonly statistics: RankingStatistics;
  /** Every admitted record that holds a query phrase with its score, best first (bm25 contracts). */
  readonly ranked: readonly RankedRow[];
  /** How many records each reason refuses, as the store decided: the first failing gate's code. */
  readonly refusedByReason: Readonly<Partial<Record<ReasonCode, number>>>;
  /** How many refused records fail an authorisation or deny gate, as the store decided: the withheld ones. */
  readonly withheld: number;
  /** The admitted set's tree digest as the store hashed it. */
  readonly admittedDigest: string;
  /** The digest of every record (the receipt's `recordSetDigest`), which the store keeps without reading them. */
  readonly recordSetDigest: string;
}

/** What the plan asks besides admission: the query and how records are ranked, and the records required by name. */
export interface PlanQuestion {
  readonly query: string;
  readonly ranking: 'bm25' | 'declared';
  readonly required: readonly string[];
}

/**
 * A store that answers admission with counts instead of handing the core its records (PostgreSQL): the core
 * then reads the admitted rows' gate columns and, whole, only the records that can enter the packet.
 */
export interface PlanAnsweringStore {
  /**
   * The records whose own supersession links are broken, as the store keeps them: what the plan's broken-link clause
   * lists.
   */
  brokenLinks(): Promise<Result<ReadonlyMap<string, BrokenLink>, CompileError>>;
  answerPlan(plan: AdmissionPlan, digest: string, question: PlanQuestion): Promise<Result<PlanAnswer, CompileError>>;
  /**
   * The records with these ids, whole, validated and fingerprinted from their documents (an id the store lacks is left
   * out).
   */
  wholeRecords(ids: readonly string[]): Promise<Result<readonly CheckedRecord[], CompileError>>;
}

/**
 * The resolution of the records that crossed: versions from the successors the store named, broken links from its list.
 */
function resolveAnswered(
  contract: ResolvedContract,
  records: ReadonlyMap<string, CheckedRecord>,
  successors: readonly CheckedRecord[],
  broken: ReadonlyMap<string, BrokenLink>,
): Resolution {
  const inForce = supersessionsInForce(successors, contract.asOf);
  const ids = [...records.keys()].sort(compareStrings);
  return {
    contract,
    records: ids.map((id) => ({
      checked: records.get(id) as CheckedRecord,
      supersededBy: inForce.get(id) ?? null,
      brokenLink: broken.get(id) ?? null,
    })),
    indexOf: new IdPositions(ids),
    brokenLinks: [...broken.keys()].sort(compareStrings),
  };
}

/**
 * Puts whole records in place of their gate views; a whole record whose fingerprint is not its view's is the store's
 * disagreement.
 */
function withWhole(records: Map<string, CheckedRecord>, whole: readonly CheckedRecord[]): CompileError | null {
  for (const item of whole) {
    const view = records.get(item.record.id);
    if (view !== undefined && view.fingerprint !== item.fingerprint)
      return divergence(
        item.record.id,
        'its document does not have the fingerprint its gate columns were admitted under',
      );
    records.set(item.record.id, item);
  }
  return null;
}

const admittedRecords = (admission: Admission, resolution: Resolution): CheckedRecord[] =>
  admission.admitted.map((position) => (resolution.records[position] as ResolvedRecord).checked);

/** (A) The store's statistics and admitted-set digest, recomputed from the admitted rows the evaluator agreed with. */
function checkAdmittedSet(
  sha256: Sha256,
  answer: PlanAnswer,
  admission: Admission,
  resolution: Resolution,
  bm25: boolean,
): CompileError | null {
  const admitted = admittedRecords(admission, resolution);
  const named = (detail: string) => divergence(admitted[0]?.record.id ?? '(the admitted set)', detail);
  if (answer.admittedCount !== admitted.length)
    return named(`the store counted ${answer.admittedCount} admitted records and returned ${admitted.length}`);
  if (recordSetDigest(sha256, admitted) !== answer.admittedDigest)
    return named("the admitted set's digest the store computed is not the digest of the rows it returned");
  if (!bm25 || answer.statistics.mode !== 'bm25')
    return bm25 === (answer.statistics.mode === 'bm25')
      ? null
      : named('the store ranked by other statistics than the contract asks for');
  const stats = answer.statistics;
  const matched = new Array<number>(stats.terms.length).fill(0);
  let tokens = 0;
  let holding = 0;
  for (const row of answer.admitted) {
    tokens += row.length;
    if (row.phrases.length > 0) holding += 1;
    for (const phrase of row.phrases) matched[phrase] = (matched[phrase] ?? 0) + 1;
  }
  if (
    stats.documents !== admitted.length ||
    stats.tokens !== tokens ||
    stats.terms.some((term, phrase) => term.documents !== matched[phrase])
  )
    return named("the admitted set's bm25 statistics the store counted are not those of the rows it returned");
  if (answer.ranked.length !== holding || answer.ranked.some((row) => !admission.admittedIds.has(row.id)))
    return named('the store ranked other records than the admitted ones that hold a query term');
  return null;
}

/**
 * The receipt over the records that crossed, made the whole corpus's: the record-set digest the store keeps,
 * and the refused records it counted (less the required ones, which have rows) in `omitted`. The id is computed again.
 */
function sealForCorpus(
  sha256: Sha256,
  outcome: CompileOutcome,
  answer: PlanAnswer,
  refusedHere: readonly GateVerdict[],
): Result<CompileOutcome, CompileError> {
  const rows: Record<string, number> = { ...(outcome.receipt.omitted?.rows ?? {}) };
  const elsewhere: Record<string, number> = { ...answer.refusedByReason };
  let withheld = (outcome.receipt.omitted?.withheld ?? 0) + answer.withheld;
  for (const verdict of refusedHere) {
    if (verdict.fact === null) continue;
    const { id } = verdict.resolved.checked.record;
    const code = gateCodeOf(verdict.fact);
    const left = (elsewhere[code] ?? 0) - 1;
    if (left < 0)
      return err(
        divergence(id, `the store counted no record refused for ${code}, and the evaluator refuses it for that`),
      );
    elsewhere[code] = left;
    if ((verdict.failed & WITHHOLDING_GATES) === 0) continue;
    withheld -= 1;
    if (withheld < 0)
      return err(divergence(id, 'the store counted no refused record withheld, and the evaluator withholds it'));
  }
  let refused = 0;
  for (const [code, count] of Object.entries(elsewhere)) {
    refused += count;
    if (count > 0) rows[code] = (rows[code] ?? 0) + count;
  }
  const omitted = {
    admittedDigest: answer.admittedDigest,
    rows: Object.fromEntries(Object.entries(rows).sort(([a], [b]) => compareStrings(a, b))),
    withheld,
  };
  const { receiptId: _partial, ...partial } = outcome.receipt;
  const body = { ...partial, recordSetDigest: answer.recordSetDigest, omitted };
  const receipt: Receipt = { receiptId: receiptIdOf(sha256, body), ...body };
  const records = outcome.trace.length + refused;
  const counts = { ...outcome.counts, candidates: records, excluded: records - outcome.counts.selected };
  return ok({ ...outcome, receipt, trace: receipt.trace, counts });
}

/**
 * Admission answered by the store: the plan (its broken-link clause from the store's list), the store's answer,
 * then two checks before anything enters a packet. (A) The reference evaluator judges every admitted row's gate
 * columns, and the admitted set's statistics and digest are recomputed from those rows. (B) Every record that
 * can enter the packet (required, evidence, planned down to the budget cut) is read whole, its fingerprint
 * compared with its row's and every gate run on it. Any disagreement is ADAPTER_MISMATCH. Only the admitted
 * rows and those records cross: a refused record is a count. Plan and attest are the core's, over those records,
 * and the receipt is a `candidates` receipt.
 */
export async function compileAnswered(
  sha256: Sha256,
  store: AdmittingStore,
  answering: PlanAnsweringStore,
  request: CompileRequest,
  cells: Cells = freshQueries(sha256),
): Promise<Result<CompileOutcome, CompileError>> {
  const { contract } = request;
  // The contract resolved over no record: the as-of instant, the subject (an ambiguous one is refused) and the
  // directory.
  const resolved = resolve(contract, recordSetOf([]));
  if (!resolved.ok) return resolved;
  const broken = await answering.brokenLinks();
  if (!broken.ok) return broken;
  const plan = buildAdmissionPlan(resolved.value.contract, [...broken.value.keys()].sort(compareStrings));
  const digest = planDigest(sha256, plan);
  const fits = checkAdapterFor(plan, store);
  if (!fits.ok) return fits;
  const required = sortedSet(contract.requiredRecords);
  const answer = await answering.answerPlan(plan, digest, {
    query: contract.query,
    ranking: contract.ranking,
    required,
  });
  if (!answer.ok) return answer;
  const accepted = acceptAnswer(store, digest, answer.value.admission);
  if (!accepted.ok) return accepted;
  const requiredWhole = await answering.wholeRecords(required);
  if (!requiredWhole.ok) return requiredWhole;

  const asked = { plan, digest };
  const judging = { contract: resolved.value.contract, answer: answer.value, broken: broken.value, asked };
  const inputs = [
    canonicalJson([contract, request.attestation, digest, [...broken.value]]),
    answerKey(answer.value),
    recordsKey(requiredWhole.value),
  ];
  // The plan over the gate views says which records can enter the packet; those are read whole and judged again.
  const drafted = cells.cell('answered-draft', inputs, () =>
    draftOverViews(sha256, request, judging, requiredWhole.value, accepted.value),
  );
  if (!drafted.ok) return drafted;
  const { candidates } = drafted.value;
  const whole = await answering.wholeRecords(candidates);
  if (!whole.ok) return whole;
  const read = new Set(whole.value.map((item) => item.record.id));
  const missing = candidates.find((id) => !read.has(id));
  if (missing !== undefined) return err(divergence(missing, 'the store admitted it but holds no document for it'));
  const checked = cells.cell('answered-outcome', [...inputs, recordsKey(whole.value)], () =>
    outcomeOverWhole(sha256, request, drafted.value, whole.value, accepted.value),
  );
  if (!checked.ok) return checked;
  return sealForCorpus(sha256, checked.value.outcome, answer.value, checked.value.refusedHere);
}

/** The memo's single cells as the answered pipeline uses them (`freshQueries` computes every time). */
type Cells = Pick<Queries, 'cell'>;

interface Judging {
  readonly contract: ResolvedContract;
  readonly answer: PlanAnswer;
  readonly broken: ReadonlyMap<string, BrokenLink>;
  readonly asked: { readonly plan: AdmissionPlan; readonly digest: string };
}

interface Draft {
  readonly records: ReadonlyMap<string, CheckedRecord>;
  /** The judgement of the gate views (with the required records whole). */
  readonly judged: Judged;
  readonly ranking: Ranking;
  /** The records besides the required ones that the plan over the gate views can put in the packet. */
  readonly candidates: readonly string[];
  readonly traceIds: readonly string[];
}

/**
 * What an answer holds, as a memo key: the admitted set's digest covers every admitted id and fingerprint, and a
 * fingerprint the record it names; the statistics, the scores and the successors are the rest.
 */
function answerKey(answer: PlanAnswer): string[] {
  return [
    String(answer.admittedCount),
    answer.admittedDigest,
    canonicalJson(answer.statistics),
    answer.ranked.map((row) => `${row.id}\u0000${row.score}`).join('\n'),
    recordsKey(answer.successors),
  ];
}

/** Records as a memo key: each id with its fingerprint, in the order given. */
export const recordsKey = (records: readonly CheckedRecord[]): string =>
  records.map((item) => `${item.record.id}\u0000${item.fingerprint}`).join('\n');

/** (A) and the packet planned over the gate views: which records the store must hand over whole. */
function draftOverViews(
  sha256: Sha256,
  request: CompileRequest,
  judging: Judging,
  requiredWhole: readonly CheckedRecord[],
  accepted: AcceptedAnswer,
): Result<Draft, CompileError> {
  const { answer } = judging;
  const records = new Map(answer.admitted.map((row) => [row.view.record.id, row.view]));
  const wrongRequired = withWhole(records, requiredWhole);
  if (wrongRequired !== null) return err(wrongRequired);
  const first = judge(judging, records, accepted.candidates);
  if (!first.ok) return first;
  const bm25 = request.contract.ranking === 'bm25';
  const wrongSet = checkAdmittedSet(sha256, answer, first.value.admission, first.value.resolution, bm25);
  if (wrongSet !== null) return err(wrongSet);
  const ranking: Ranking = bm25
    ? { rows: answer.ranked, statistics: answer.statistics }
    : rankDeclared(admittedRecords(first.value.admission, first.value.resolution));
  const draft = finishCompile(
    request,
    first.value.prepared,
    first.value.admission,
    accepted.admission,
    ranking,
    freshQueries(sha256),
  );
  const required = new Set(request.contract.requiredRecords);
  const traceIds = draft.receipt.trace.map((row) => row.id);
  const candidates = traceIds.filter((id) => !required.has(id));
  return ok({ records, judged: first.value, ranking, candidates, traceIds });
}

/**
 * (B) The records that can enter the packet, whole, in the places of their gate views: each fingerprint compared with
 * its view's, every gate run on it where its view was judged (the same successors and broken links), and the packet
 * planned again from them, which must list the same records. The packet and what the evaluator refused.
 */
function outcomeOverWhole(
  sha256: Sha256,
  request: CompileRequest,
  draft: Draft,
  whole: readonly CheckedRecord[],
  accepted: AcceptedAnswer,
): Result<{ readonly outcome: CompileOutcome; readonly refusedHere: readonly GateVerdict[] }, CompileError> {
  const { resolution, admission, prepared } = draft.judged;
  const records = [...resolution.records];
  const verdicts = [...admission.verdicts];
  for (const item of whole) {
    const id = item.record.id;
    const position = resolution.indexOf.get(id);
    const view = draft.records.get(id);
    if (position === undefined || view === undefined) continue;
    if (view.fingerprint !== item.fingerprint)
      return err(divergence(id, 'its document does not have the fingerprint its gate columns were admitted under'));
    const resolved: ResolvedRecord = { ...(records[position] as ResolvedRecord), checked: item };
    const verdict = evaluateGates(admission.gates, resolved);
    if (verdict.failed !== (verdicts[position] as GateVerdict).failed)
      return err(divergence(id, `SQL admitted it but the evaluator refuses it (${verdict.fact?.fact ?? 'a gate'})`));
    records[position] = resolved;
    verdicts[position] = verdict;
  }
  const wholeResolution: Resolution = { ...resolution, records };
  const outcome = finishCompile(
    request,
    { ...prepared, resolution: wholeResolution },
    { ...admission, verdicts },
    accepted.admission,
    draft.ranking,
    freshQueries(sha256),
  );
  const { trace } = outcome.receipt;
  if (trace.length !== draft.traceIds.length || trace.some((row, index) => row.id !== draft.traceIds[index]))
    return err(
      divergence(
        outcome.receipt.selected[0] ?? '(the packet)',
        'its whole record plans differently from its gate columns',
      ),
    );
  return ok({ outcome, refusedHere: verdicts.filter((verdict) => verdict.failed !== 0) });
}

interface Judged {
  readonly resolution: Resolution;
  readonly admission: Admission;
  readonly prepared: PreparedCompile;
}

/** Resolve, type-check and the reference evaluator over the records that crossed, against the store's admitted ids. */
function judge(
  { contract, answer, broken, asked }: Judging,
  records: ReadonlyMap<string, CheckedRecord>,
  admittedByStore: ReadonlySet<string>,
): Result<Judged, CompileError> {
  const resolution = resolveAnswered(contract, records, answer.successors, broken);
  const typed = typeCheck(resolution);
  const missingRequired = !typed.ok && typed.error.code === 'REQUIRED_NOT_FOUND' ? typed.error : null;
  if (!typed.ok && !missingRequired) return typed;
  const admission = admit(resolution, admittedByStore);
  if (!admission.ok) return admission;
  return ok({ resolution, admission: admission.value, prepared: { resolution, missingRequired, ...asked } });
}
