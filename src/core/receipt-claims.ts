import { canonicalJson } from './canonical';
import type { FirstDifference } from './receipt-diff';
import type { GateName, Receipt, TraceRow } from './result';

/**
 * Supersession is the one gate that reads other records; every other gate is decided by the contract and the record
 * alone.
 */
const recordOwnGate = (gate: GateName) => gate !== 'supersession';

const ownGates = (row: TraceRow) => row.gates.filter(recordOwnGate).join(',');

/**
 * The first claim of `row` that `again` (the same record, same fingerprint, under the same contract) contradicts:
 * its tokens, whether it is required, the gates its own fields fail, and the reason a gate of its own gave.
 * What depends on other records (supersession, ranking, budget) is not judged here.
 */
function contradictedField(row: TraceRow, again: TraceRow): string | null {
  if (row.tokens !== again.tokens) return 'tokens';
  if (row.required !== again.required) return 'required';
  if (ownGates(row) !== ownGates(again)) return 'gates';
  const first = again.gates[0];
  if (first === undefined || !recordOwnGate(first) || row.gates[0] !== first) return null;
  if (row.decision !== again.decision) return 'decision';
  if (row.code !== again.code) return 'code';
  if (row.fact !== again.fact) return 'fact';
  if (canonicalJson(row.args) !== canonicalJson(again.args)) return 'args';
  return null;
}

/** A claim the receipt makes of itself that its own fields contradict: a row that fails a gate yet is selected. */
function selfContradiction(receipt: Receipt): FirstDifference | null {
  for (const row of receipt.trace)
    if (row.decision === 'selected' && row.gates.length > 0)
      return { path: `trace[${row.id}].decision`, recordId: row.id };
  const selectedRows = receipt.trace.filter((row) => row.decision === 'selected').map((row) => row.id);
  const listed = new Set(receipt.selected);
  if (selectedRows.length !== listed.size || selectedRows.some((id) => !listed.has(id)))
    return { path: 'selected', recordId: null };
  return null;
}

/**
 * Reperforms every claim of a receipt that can still be checked when its record set is not the one at hand:
 * each row whose record is still at hand with the same fingerprint against
 * `reperformed`, the receipt's own contract, controls and late changes compiled over the records at hand.
 * Null when every checkable claim holds; else where the first false one is (docs/FORMAT.md, "What a drill verdict
 * establishes").
 */
export function contradictedClaim(receipt: Receipt, reperformed: Receipt): FirstDifference | null {
  const againById = new Map(reperformed.trace.map((row) => [row.id, row]));
  for (const row of receipt.trace) {
    const again = againById.get(row.id);
    if (again === undefined || again.fingerprint !== row.fingerprint) continue;
    const field = contradictedField(row, again);
    if (field !== null) return { path: `trace[${row.id}].${field}`, recordId: row.id };
  }
  return selfContradiction(receipt);
}

/**
 * Whether two receipts were compiled from the same contract, controls and late changes by the same engine: their record
 * sets may differ.
 */
export function sameDeclaredTerms(a: Receipt, b: Receipt): boolean {
  return (
    a.schemaVersion === b.schemaVersion &&
    a.engineVersion === b.engineVersion &&
    a.contractFingerprint === b.contractFingerprint &&
    a.controls.join('\u0000') === b.controls.join('\u0000') &&
    a.lateChanges.join('\u0000') === b.lateChanges.join('\u0000')
  );
}
