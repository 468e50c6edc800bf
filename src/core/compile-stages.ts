import { ok, type CompileError, type Result } from './errors';
import type { Contract } from './format/contract';
import type { Sha256 } from './fingerprints';
import type { Admission } from './phases/4-admit/admit';
import { renderPacket } from './phases/7-attest/attest';
import type { Resolution } from './phases/2-resolve/resolve';
import { freshQueries, type Queries } from './queries';
import type { RecordSet } from './phases/1-validate/validate';
import { typeCheck } from './phases/3-type-check/type-check';
import { buildAdmissionPlan, planDigest, type AdmissionPlan } from './phases/4-admit/admission-plan';
import type { Attestation, CompileOutcome, Packet, ReceiptAdmission } from './result';
import type { Ranking } from './phases/5-rank/ranking';

export interface CompileRequest {
  readonly contract: Contract;
  readonly recordSet: RecordSet;
  /** Ids of the scenario controls already applied to the contract and records (recorded in the receipt). */
  readonly controls?: readonly string[];
  /** Ids of declared late changes already applied (recorded in the receipt, checked by the fire drill). */
  readonly lateChanges?: readonly string[];
  /** How much of the trace the receipt attests: `full` (one row per record) unless asked. */
  readonly attestation?: Attestation;
}

/** A compilation up to admission: what every adapter is handed, whatever store it admits in. */
export interface PreparedCompile {
  readonly resolution: Resolution;
  /** A required record that is absent: the compilation goes on so the receipt can say so, and fails closed. */
  readonly missingRequired: CompileError | null;
  readonly plan: AdmissionPlan;
  readonly digest: string;
}

/** Phases 2 and 3 (resolve, type-check), then the admission plan and its digest. */
export function prepareCompile(
  sha256: Sha256,
  request: CompileRequest,
  queries: Queries = freshQueries(sha256),
): Result<PreparedCompile, CompileError> {
  const resolution = queries.resolve(request.contract, request.recordSet);
  if (!resolution.ok) return resolution;
  const typed = typeCheck(resolution.value);
  const missingRequired = !typed.ok && typed.error.code === 'REQUIRED_NOT_FOUND' ? typed.error : null;
  if (!typed.ok && !missingRequired) return typed;
  const admissionPlan = buildAdmissionPlan(resolution.value.contract, resolution.value.brokenLinks);
  return ok({
    resolution: resolution.value,
    missingRequired,
    plan: admissionPlan,
    digest: planDigest(sha256, admissionPlan),
  });
}

/**
 * Passes 6 and 7 (packet planning, attest) over an admission the reference evaluator agreed with (`admittedBy` the
 * adapter's accepted answer), and a ranking of it.
 */
export function finishCompile(
  request: CompileRequest,
  prepared: PreparedCompile,
  admission: Admission,
  admittedBy: ReceiptAdmission,
  ranking: Ranking,
  queries: Queries,
): CompileOutcome {
  const { contract } = request;
  const planned = queries.planPacket(prepared.resolution, admission, ranking, prepared.missingRequired);
  const packet: Packet | null = planned.failure
    ? null
    : renderPacket(contract, prepared.resolution.contract.asOf, planned);
  const receipt = queries.attest({
    contract,
    records: prepared.resolution.records,
    admitted: admission.admitted,
    attestation: request.attestation ?? 'full',
    packetPlan: planned,
    packet,
    ranking: ranking.statistics,
    admission: admittedBy,
    controls: request.controls ?? [],
    lateChanges: request.lateChanges ?? [],
  });
  const selected = planned.selected.length;
  const counts = {
    candidates: planned.trace.length,
    admitted: admission.admitted.length,
    selected,
    excluded: planned.trace.length - selected,
  };
  const common = {
    trace: planned.trace,
    ranked: planned.ranked,
    receipt,
    counts,
    admitted: admission.admittedIds,
    unreadable: request.recordSet.unreadable,
  };
  if (planned.failure) return { status: 'fail_closed', failure: planned.failure, ...common };
  return {
    status: 'packet',
    packet: packet as Packet,
    evidence: planned.evidence,
    decisionBlockedBy: planned.decisionBlockedBy,
    ...common,
  };
}
