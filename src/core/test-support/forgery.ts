import { sha256 } from './sha256';
import fc from 'fast-check';
import type { Compiler } from '../compile';
import { drill } from '../drill';
import { receiptIdOf } from '../phases/7-attest/attest';
import { createRecordSet } from '../phases/1-validate/validate';
import type { GateName, Receipt, TraceRow } from '../result';
import { caseArbitrary } from './arbitraries';

/** What a forger does: edit the body, then recompute the id as docs/FORMAT.md describes. */
export function withBody(receipt: Receipt, change: Partial<Omit<Receipt, 'receiptId'>>): Receipt {
  const { receiptId: _, ...body } = receipt;
  const changed = { ...body, ...change };
  return { receiptId: receiptIdOf(sha256, changed), ...changed };
}

const ownGates = (row: TraceRow) => row.gates.filter((gate) => gate !== 'supersession');
const firstGateIsOwn = (row: TraceRow) => row.gates[0] !== undefined && row.gates[0] !== 'supersession';

/**
 * Edits of one trace row, each a false claim that the record and the receipt's own contract decide alone
 * (never supersession, ranking or the budget, which read other records); null where the edit would not be one.
 */
export const FALSE_CLAIMS: readonly ((row: TraceRow) => TraceRow | null)[] = [
  (row) => ({ ...row, tokens: row.tokens + 1 }),
  (row) => ({ ...row, required: !row.required }),
  (row) =>
    ownGates(row).length > 0
      ? { ...row, gates: row.gates.filter((gate) => gate === 'supersession') }
      : { ...row, gates: [...row.gates, 'deny' as GateName] },
  (row) => (row.gates.length > 0 ? { ...row, decision: 'selected', code: 'SELECTED_RANKED' } : null),
  (row) =>
    firstGateIsOwn(row) ? { ...row, code: row.code === 'EXCLUDE_SCOPE' ? 'EXCLUDE_PROJECT' : 'EXCLUDE_SCOPE' } : null,
  (row) => (firstGateIsOwn(row) ? { ...row, args: { ...row.args, forged: 'x' } } : null),
];

const flipHex = (hex: string) => `${hex.slice(0, 63)}${hex.endsWith('0') ? '1' : '0'}`;

/**
 * A forgery that poses as stale: one row edited, and another version of another record claimed, hence
 * another record-set digest, so that no compile over the records at hand reproduces the receipt; the id recomputed.
 */
export function posingAsStale(genuine: Receipt, target: string, edited: TraceRow, flipped: string): Receipt {
  const trace = genuine.trace.map((row) =>
    row.id === flipped ? { ...row, fingerprint: flipHex(row.fingerprint) } : row.id === target ? edited : row,
  );
  const { receiptId: _id, ...body } = genuine;
  const changed = { ...body, trace, recordSetDigest: flipHex(genuine.recordSetDigest) };
  return { receiptId: receiptIdOf(sha256, changed), ...changed };
}

/** The property: over generated records and contracts, no such forgery is judged anything but RECEIPT_MISMATCH. */
export function forgeryProperty(compiler: Pick<Compiler, 'compile' | 'sha256'>): fc.IRawProperty<unknown, boolean> {
  return fc.asyncProperty(
    caseArbitrary,
    fc.nat(),
    fc.nat(),
    fc.nat({ max: FALSE_CLAIMS.length - 1 }),
    async ({ contract, records }, targetPick, flippedPick, claim) => {
      const request = { contract, recordSet: createRecordSet(sha256, records) };
      const compiled = await compiler.compile(request);
      fc.pre(compiled.ok && compiled.value.receipt.trace.length > 1);
      if (!compiled.ok) return;
      const genuine = compiled.value.receipt;
      const target = genuine.trace[targetPick % genuine.trace.length] as TraceRow;
      const others = genuine.trace.filter((row) => row.id !== target.id);
      const flipped = others[flippedPick % others.length] as TraceRow;
      const edited = FALSE_CLAIMS[claim]?.(target) ?? null;
      fc.pre(edited !== null);
      if (edited === null) return;
      const verdict = await drill(compiler, {
        ...request,
        priorReceipt: posingAsStale(genuine, target.id, edited, flipped.id),
        declaredChanges: [],
      });
      if (verdict.code !== 'RECEIPT_MISMATCH')
        throw new Error(
          `a false claim about ${target.id} (edit ${claim}, ${flipped.id} flipped) was judged ${verdict.code}: ${verdict.message}`,
        );
    },
  );
}
