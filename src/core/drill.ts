import type { Compiler, CompileRequest } from './compile';
import { contractFingerprint } from './fingerprints';
import { ENGINE_VERSION, receiptIdOf, SCHEMA_VERSION } from './passes/attest';
import { sha256Hex } from './hash';
import { REASONS, type ReasonCode } from './reasons';
import type { DrillAction, DrillVerdict, Receipt } from './result';

export interface DrillRequest extends CompileRequest {
  /** The receipt frozen before the late change. */
  readonly priorReceipt: Receipt;
  /** Late changes declared since that receipt; `lateChanges` lists those the current inputs already apply. */
  readonly declaredChanges: readonly string[];
}

/**
 * The fire drill, stateless: may an agent continue on `priorReceipt`, given what was declared since
 * and the current contract and records? It compares evidence it is handed; it observes nothing.
 */
export function drill(compiler: Compiler, request: DrillRequest): DrillVerdict {
  const prior = request.priorReceipt;
  const verdict = (action: DrillAction, code: ReasonCode, detail: string, currentReceiptId: string | null = null): DrillVerdict => ({
    action,
    code,
    message: `${REASONS[code].summary} ${detail}`.trim(),
    priorReceiptId: prior.receiptId,
    currentReceiptId,
  });

  const stale = () => verdict('recompile_required', 'STALE_ENGINE_VERSION', `Receipt ${prior.engineVersion} (${prior.schemaVersion}); engine ${ENGINE_VERSION} (${SCHEMA_VERSION}).`);
  // Another schema computes its id another way: this engine can only say it must be recompiled.
  if (prior.schemaVersion !== SCHEMA_VERSION) return stale();
  const { receiptId, ...body } = prior;
  if (receiptIdOf(body) !== receiptId) return verdict('block', 'RECEIPT_INVALID', 'Its content hashes to a different id.');
  if (prior.outcome === 'fail_closed') return verdict('block', 'RECEIPT_FAIL_CLOSED', `It failed closed with ${prior.failure?.code ?? 'a failure'}.`);
  if (prior.engineVersion !== ENGINE_VERSION) return stale();
  if (contractFingerprint(request.contract) !== prior.contractFingerprint) {
    return verdict('recompile_required', 'STALE_CONTRACT_FINGERPRINT', 'The contract fingerprint differs from the receipt.');
  }

  const current = compiler.compile(request);
  if (!current.ok) return verdict('block', 'CURRENT_INPUTS_FAIL_CLOSED', `${current.error.code}: ${current.error.message}`);
  const outcome = current.value;
  if (outcome.status === 'fail_closed') {
    return verdict('block', 'CURRENT_INPUTS_FAIL_CLOSED', `${outcome.failure.code}: ${outcome.failure.message}`, outcome.receipt.receiptId);
  }
  const currentId = outcome.receipt.receiptId;
  if (sha256Hex(outcome.packet.body) !== prior.packetFingerprint) {
    return verdict('recompile_required', 'STALE_PACKET_FINGERPRINT', 'The current inputs compile to a different packet.', currentId);
  }
  if (outcome.receipt.recordSetDigest !== prior.recordSetDigest) {
    return verdict('recompile_required', 'STALE_RECORD_SET', 'The record-set digest differs from the receipt.', currentId);
  }
  const unapplied = request.declaredChanges.filter((id) => !prior.lateChanges.includes(id));
  if (unapplied.length > 0) {
    return verdict('recompile_required', 'LATE_USER_INPUT_NOT_APPLIED', `Declared after the receipt: ${unapplied.join(', ')}.`, currentId);
  }
  return verdict('continue', 'RECEIPT_CURRENT', '', currentId);
}
