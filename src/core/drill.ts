import type { Sha256 } from './fingerprints';
import type { Compiler, CompileRequest } from './compile';
import { isWithheldFromUser } from './disclosure';
import { receiptIdOf } from './phases/7-attest/attest';
import { ENGINE_VERSION, SCHEMA_VERSION, staleEngineDetail } from './version';
import { wordMessage } from './messages';
import type { ReasonCode } from './reasons';
import { contradictedClaim, sameDeclaredTerms } from './receipt-claims';
import { diffReceipts, discloseDiff, firstDifference, type FirstDifference, type ReceiptDiff } from './receipt-diff';
import type { CompileOutcome, DrillAction, DrillVerdict, Receipt, ReceiptAdmission } from './result';

export interface DrillRequest extends CompileRequest {
  /** The receipt frozen before the late change, or handed in to be checked. */
  readonly priorReceipt: Receipt;
  /** Late changes declared since that receipt; `lateChanges` lists those the current inputs already apply. */
  readonly declaredChanges: readonly string[];
  /**
   * The receipt's own declared inputs as the caller could rebuild them: the same scenario with the
   * receipt's controls and late changes applied. They reperform the receipt when the current inputs
   * are not its inputs; null or absent when they cannot be rebuilt (an unknown control, say). Failing
   * those, the contract the receipt carries is compiled over these records (or the current ones).
   */
  readonly declaredInputs?: CompileRequest | null;
}

/**
 * A drill verdict with what it rests on: the diff a reader needs to see why, and whether the receipt was reperformed.
 */
export interface ReceiptVerdict extends DrillVerdict {
  /**
   * From the receipt to what decided the verdict: the reperformance of its declared inputs for
   * RECEIPT_MISMATCH, else what the current inputs compile to. Null when nothing was compiled or nothing differs.
   */
  readonly diff: ReceiptDiff | null;
  /** The same diff as the user view may show it (no record the user view withholds is named). */
  readonly userDiff: ReceiptDiff | null;
  /**
   * RECEIPT_MISMATCH only: where the receipt and the reperformance of its declared inputs first differ, or its first
   * claim the records still at hand contradict.
   */
  readonly mismatch: FirstDifference | null;
  /**
   * True when compiling the receipt's declared inputs reproduced it byte for byte, false when it did
   * not (RECEIPT_MISMATCH), null when they were not at hand (then a stale verdict says so).
   */
  readonly reperformed: boolean | null;
}

/** The fields that name a receipt's inputs: equal in two receipts, the inputs are the same. */
function sameInputs(a: Receipt, b: Receipt): boolean {
  return (
    a.schemaVersion === b.schemaVersion &&
    a.engineVersion === b.engineVersion &&
    a.contractFingerprint === b.contractFingerprint &&
    a.recordSetDigest === b.recordSetDigest &&
    a.controls.join('\u0000') === b.controls.join('\u0000') &&
    a.lateChanges.join('\u0000') === b.lateChanges.join('\u0000')
  );
}

/**
 * `receipt` as `store` would name it: the adapter and its version are the one thing two stores that agree
 * on every claim write differently, so a receipt is compared with another store's reperformance this way.
 * The plan digest the adapter echoed is kept: it is a claim.
 */
export function namingStoreOf(sha256: Sha256, receipt: Receipt, store: ReceiptAdmission): Receipt {
  if (receipt.executedBy.adapter === store.adapter && receipt.executedBy.adapterVersion === store.adapterVersion)
    return receipt;
  const { receiptId: _id, ...body } = receipt;
  const named = {
    ...body,
    executedBy: { ...body.executedBy, adapter: store.adapter, adapterVersion: store.adapterVersion },
  };
  return { receiptId: receiptIdOf(sha256, named), ...named };
}

const storeName = ({ adapter, adapterVersion }: ReceiptAdmission) => `the ${adapter} adapter ${adapterVersion}`;

/**
 * Whether `candidate`, named as the receipt's store names itself, is `receipt` exactly: the same id and every field
 * equal, so the same canonical bytes.
 */
function reproduces(sha256: Sha256, candidate: Receipt, receipt: Receipt): boolean {
  const named = namingStoreOf(sha256, candidate, receipt.executedBy);
  return named.receiptId === receipt.receiptId && firstDifference(receipt, named) === null;
}

/** What a verdict adds when another store than the receipt's reperformed it: which made it, which judged it. */
function storesLine(prior: Receipt, reperformedBy: Receipt): string {
  const made = prior.executedBy;
  const again = reperformedBy.executedBy;
  if (made.adapter === again.adapter && made.adapterVersion === again.adapterVersion) return '';
  return wordMessage('REPERFORMED_ELSEWHERE', { made: storeName(made), again: storeName(again) });
}

/**
 * Why a receipt that is not current is stale: the first of its inputs that differs from the current
 * ones, in the order a reader would check them.
 */
function staleCode(
  prior: Receipt,
  current: Receipt,
  declaredChanges: readonly string[],
): { code: ReasonCode; detail: string } {
  if (prior.contractFingerprint !== current.contractFingerprint)
    return { code: 'STALE_CONTRACT_FINGERPRINT', detail: wordMessage('CONTRACT_DIFFERS') };
  if (prior.packetFingerprint !== current.packetFingerprint)
    return { code: 'STALE_PACKET_FINGERPRINT', detail: wordMessage('PACKET_DIFFERS') };
  if (prior.recordSetDigest !== current.recordSetDigest)
    return { code: 'STALE_RECORD_SET', detail: wordMessage('RECORD_SET_DIFFERS') };
  const unapplied = declaredChanges.filter((id) => !prior.lateChanges.includes(id));
  if (unapplied.length > 0)
    return {
      code: 'LATE_USER_INPUT_NOT_APPLIED',
      detail: wordMessage('DECLARED_AFTER_RECEIPT', { changes: unapplied }),
    };
  return {
    code: 'STALE_CONTROLS',
    detail: wordMessage('SWITCHES_DIFFER', {
      controls: prior.controls,
      lateChanges: prior.lateChanges,
      nowControls: current.controls,
      nowLateChanges: current.lateChanges,
    }),
  };
}

/** What a false claim the receipt makes of itself is, by its path; a row's is said by the general sentence. */
const CLAIM_DETAIL: Readonly<Partial<Record<string, 'CLAIMED_CONTRACT_FINGERPRINT' | 'CLAIMED_SELECTED'>>> = {
  contractFingerprint: 'CLAIMED_CONTRACT_FINGERPRINT',
  selected: 'CLAIMED_SELECTED',
};

/** Why a receipt cannot be judged or compared as it stands, in the order it is checked. */
export interface ReceiptUnusable {
  readonly code: 'STALE_ENGINE_VERSION' | 'RECEIPT_INVALID';
  /** Follows the code's summary in a message. */
  readonly detail: string;
}

/**
 * What every reader of a receipt checks first (docs/FORMAT.md, "Checking a receipt"): another schema is
 * STALE_ENGINE_VERSION (its id is computed another way, so this engine can only say to recompile), an id
 * that its content does not hash to is RECEIPT_INVALID, another engine version is STALE_ENGINE_VERSION.
 * Null when the receipt is this engine's and unaltered since its id was computed.
 */
export function receiptIntegrity(sha256: Sha256, receipt: Receipt): ReceiptUnusable | null {
  if (receipt.schemaVersion !== SCHEMA_VERSION)
    return { code: 'STALE_ENGINE_VERSION', detail: staleEngineDetail(receipt) };
  const { receiptId, ...body } = receipt;
  if (receiptIdOf(sha256, body) !== receiptId)
    return { code: 'RECEIPT_INVALID', detail: wordMessage('RECEIPT_HASH_DIFFERS') };
  if (receipt.engineVersion !== ENGINE_VERSION)
    return { code: 'STALE_ENGINE_VERSION', detail: staleEngineDetail(receipt) };
  return null;
}

/**
 * The fire drill and the receipt check, stateless: may an agent continue on `priorReceipt`, given what
 * was declared since and the current contract and records? A receipt is CURRENT only when compiling its
 * declared inputs (contract, records, controls, late changes), which are the current ones, reproduces
 * that receipt exactly: same canonical bytes, same id. A receipt whose own inputs compile to something
 * else is refused as RECEIPT_MISMATCH, naming the first differing field; one whose inputs are no longer
 * the current ones is stale, with the diff that shows why. It compares what it is handed; it observes nothing.
 */
export async function drill(
  compiler: Pick<Compiler, 'compile' | 'sha256'>,
  request: DrillRequest,
): Promise<ReceiptVerdict> {
  const { sha256 } = compiler;
  const prior = request.priorReceipt;
  const { priorReceipt: _prior, declaredChanges, declaredInputs: given, ...asked } = request;
  // The receipt is compiled again as it attests (full or candidates), or no compile could reproduce its bytes.
  const attestation = prior.attestation;
  const current = { ...asked, attestation };
  const declaredInputs = given ? { ...given, attestation } : given;
  const compiled: CompileOutcome[] = [];
  const verdict = (
    action: DrillAction,
    code: ReasonCode,
    detail: string,
    extra: {
      currentReceiptId?: string | null;
      diff?: ReceiptDiff | null;
      mismatch?: FirstDifference | null;
      reperformed?: boolean | null;
    } = {},
  ): ReceiptVerdict => {
    const diff = extra.diff ?? null;
    return {
      action,
      code,
      message: wordMessage('DRILL_VERDICT', { code, detail }),
      priorReceiptId: prior.receiptId,
      currentReceiptId: extra.currentReceiptId ?? null,
      diff,
      userDiff: diff && discloseDiff(diff, withheldFromUser(prior, compiled)),
      mismatch: extra.mismatch ?? null,
      reperformed: extra.reperformed ?? null,
    };
  };

  const unusable = receiptIntegrity(sha256, prior);
  if (unusable)
    return verdict(
      unusable.code === 'RECEIPT_INVALID' ? 'block' : 'recompile_required',
      unusable.code,
      unusable.detail,
    );

  const now = await compiler.compile(current);
  if (!now.ok)
    return verdict(
      'block',
      'CURRENT_INPUTS_FAIL_CLOSED',
      wordMessage('CURRENT_INPUTS_FAILED', { code: now.error.code, problem: now.error.message }),
    );
  compiled.push(now.value);
  const currentReceipt = now.value.receipt;
  const currentReceiptId = currentReceipt.receiptId;

  if (reproduces(sha256, currentReceipt, prior)) {
    if (prior.outcome === 'fail_closed')
      return verdict(
        'block',
        'RECEIPT_FAIL_CLOSED',
        wordMessage('FAILED_CLOSED_WITH', { failure: prior.failure?.code ?? null }),
        { currentReceiptId, reperformed: true },
      );
    const unapplied = declaredChanges.filter((id) => !prior.lateChanges.includes(id));
    if (unapplied.length > 0)
      return verdict(
        'recompile_required',
        'LATE_USER_INPUT_NOT_APPLIED',
        wordMessage('DECLARED_AFTER_RECEIPT', { changes: unapplied }),
        { currentReceiptId, reperformed: true },
      );
    return verdict('continue', 'RECEIPT_CURRENT', storesLine(prior, currentReceipt), {
      currentReceiptId,
      reperformed: true,
    });
  }

  // Not what the current inputs compile to. Reperform the receipt's own inputs, if at hand, to tell one that
  // went stale from one that claims what its inputs never produced. Candidates, cheapest first: the current
  // inputs, those the caller rebuilt, and the contract the receipt carries over those records (which finds
  // a contract edited since).
  let reperformance: Receipt | null = sameInputs(currentReceipt, prior) ? currentReceipt : null;
  const records = declaredInputs?.recordSet ?? current.recordSet;
  const candidates: CompileRequest[] = declaredInputs ? [declaredInputs] : [];
  candidates.push({
    contract: prior.contract,
    recordSet: records,
    controls: prior.controls,
    lateChanges: prior.lateChanges,
    attestation,
  });
  let ownContract: Receipt | null = null;
  for (const candidate of candidates) {
    if (reperformance !== null) break;
    const again = await compiler.compile(candidate);
    if (!again.ok) continue;
    compiled.push(again.value);
    if (candidate.contract === prior.contract) ownContract = again.value.receipt;
    if (sameInputs(again.value.receipt, prior)) reperformance = again.value.receipt;
  }
  if (reperformance !== null && !reproduces(sha256, reperformance, prior)) {
    const mismatch = firstDifference(prior, namingStoreOf(sha256, reperformance, prior.executedBy));
    // The message names no record (the user view may withhold it); the diff names the first difference.
    return verdict(
      'block',
      'RECEIPT_MISMATCH',
      wordMessage('DECLARED_INPUTS_GIVE', { receipt: reperformance.receiptId }),
      {
        currentReceiptId,
        diff: diffReceipts(prior, namingStoreOf(sha256, reperformance, prior.executedBy)),
        mismatch,
        reperformed: false,
      },
    );
  }

  // Its record set is not at hand: every claim that can still be checked is, so a forgery cannot pass for stale.
  const terms =
    reperformance === null
      ? (compiled.find((outcome) => sameDeclaredTerms(outcome.receipt, prior))?.receipt ?? null)
      : null;
  if (reperformance === null) {
    const claim =
      ownContract !== null && ownContract.contractFingerprint !== prior.contractFingerprint
        ? { path: 'contractFingerprint', recordId: null }
        : terms && contradictedClaim(prior, terms);
    if (claim) {
      return verdict('block', 'RECEIPT_MISMATCH', wordMessage(CLAIM_DETAIL[claim.path] ?? 'CLAIMED_ROW'), {
        currentReceiptId,
        diff: diffReceipts(prior, terms ?? ownContract ?? currentReceipt),
        mismatch: claim,
        reperformed: false,
      });
    }
  }

  const diff = diffReceipts(prior, currentReceipt);
  const checked =
    reperformance !== null
      ? ` ${storesLine(prior, reperformance)}`.trimEnd()
      : terms !== null
        ? ` ${wordMessage('RECORDS_NOT_AT_HAND')}`
        : ` ${wordMessage('INPUTS_NOT_AT_HAND')}`;
  if (now.value.status === 'fail_closed') {
    return verdict(
      'block',
      'CURRENT_INPUTS_FAIL_CLOSED',
      `${wordMessage('CURRENT_INPUTS_FAILED', { code: now.value.failure.code, problem: now.value.failure.message })}${checked}`,
      {
        currentReceiptId,
        diff,
        reperformed: reperformance === null ? null : true,
      },
    );
  }
  if (prior.outcome === 'fail_closed')
    return verdict(
      'block',
      'RECEIPT_FAIL_CLOSED',
      `${wordMessage('FAILED_CLOSED_WITH', { failure: prior.failure?.code ?? null })}${checked}`,
      {
        currentReceiptId,
        diff,
        reperformed: reperformance === null ? null : true,
      },
    );
  const { code, detail } = staleCode(prior, currentReceipt, declaredChanges);
  return verdict('recompile_required', code, `${detail}${checked}`, {
    currentReceiptId,
    diff,
    reperformed: reperformance === null ? null : true,
  });
}

/** Records the user view may not name: rows it withholds in the receipt or in anything compiled to check it. */
function withheldFromUser(prior: Receipt, compiled: readonly CompileOutcome[]): Set<string> {
  const withheld = new Set<string>();
  for (const trace of [prior.trace, ...compiled.map((outcome) => outcome.trace)])
    for (const row of trace) if (isWithheldFromUser(row)) withheld.add(row.id);
  return withheld;
}
