import { sha256InNode } from '../lib/node-sha256';
import type { CompileRequest } from '../core/compile';
import { receiptIdOf } from '../core/phases/7-attest/attest';
import type { CompileOutcome, Receipt } from '../core/result';

/** One line of `check`'s report. */
export interface CheckResult {
  readonly name: string;
  readonly passed: boolean;
  readonly detail: string;
}

/** What every compiled receipt must hold, whichever adapter admitted its records. */
export function invariantProblems(request: CompileRequest, outcome: CompileOutcome): string[] {
  const problems: string[] = [];
  const { receipt } = outcome;
  const { receiptId, ...body } = receipt;
  if (receiptIdOf(sha256InNode, body) !== receiptId) problems.push('receipt id does not hash its body');
  if (receipt.tokensUsed > receipt.contract.tokenBudget)
    problems.push(`tokens ${receipt.tokensUsed} exceed budget ${receipt.contract.tokenBudget}`);
  if (outcome.trace.length !== request.recordSet.records.length)
    problems.push(`${outcome.trace.length} trace rows for ${request.recordSet.records.length} candidates`);
  for (const row of outcome.trace) {
    if (row.decision === 'selected' && row.gates.length > 0)
      problems.push(`${row.id} selected although gate ${row.gates.join(', ')} failed`);
  }
  if (outcome.status === 'fail_closed' && receipt.packetFingerprint !== null)
    problems.push('fail-closed receipt carries a packet fingerprint');
  for (const id of request.contract.requiredRecords) {
    if (outcome.status === 'packet' && !receipt.selected.includes(id))
      problems.push(`required ${id} missing from an emitted packet`);
  }
  return problems;
}

/**
 * The receipt with its first trace row's decision flipped and its id recomputed: what the receipt check must refuse.
 */
export function forgedCopy(receipt: Receipt): Receipt {
  const { receiptId: _id, ...body } = receipt;
  const edited = {
    ...body,
    trace: body.trace.map((row, index) =>
      index === 0
        ? { ...row, decision: row.decision === 'selected' ? ('excluded' as const) : ('selected' as const) }
        : row,
    ),
  };
  return { receiptId: receiptIdOf(sha256InNode, edited), ...edited };
}
