import type { Receipt } from '../../core/result';
import type { DrillState, ReceiptCheck, VerdictView } from '../protocol';
import type { SharedInputs } from '../exports/share-link';
import type { HeldReceipt } from '../exports/shared-screen';

export interface DrillDeps {
  /** The receipt of the compilation on screen and what it was compiled from, if any: what a freeze takes. */
  readonly lastReceipt: () => HeldReceipt | null;
  /** A receipt judged against the inputs in force now, with the late changes declared since it. */
  readonly check: (prior: Receipt, declared: readonly string[]) => Promise<VerdictView>;
}

export type DrillSession = ReturnType<typeof createDrillSession>;

export interface LoadedReceipt {
  readonly file: string;
  readonly receipt: Receipt;
}

/**
 * What the fire drill and the receipt check hold between calls: the frozen receipt and the late changes declared
 * since, and the receipts the last load brought. Every verdict is worked out again from the inputs in force when it
 * is asked for, so a receipt judged once is judged again after any recompilation, never remembered as current.
 */
export function createDrillSession({ lastReceipt, check }: DrillDeps) {
  let frozen: HeldReceipt | null = null;
  let declared: string[] = [];
  let loadedReceipts: readonly LoadedReceipt[] = [];
  const state = (): DrillState => ({ frozenReceiptId: frozen?.receipt.receiptId ?? null, declared: [...declared] });
  const checkReceipts = async (): Promise<ReceiptCheck[]> => {
    const checks: ReceiptCheck[] = [];
    // One after another: each check compiles, and the compiler answers in the order asked.
    for (const { file, receipt } of loadedReceipts) checks.push({ file, verdict: await check(receipt, []) });
    return checks;
  };

  return {
    state,
    freeze(): DrillState {
      frozen = lastReceipt();
      declared = [];
      return state();
    },
    /**
     * The frozen receipt's inputs and the late changes declared since, for a share link; null when nothing is frozen
     * from inputs.
     */
    shared(): { readonly frozen: SharedInputs; readonly declared: readonly string[] } | null {
      return frozen?.inputs ? { frozen: frozen.inputs, declared: [...declared] } : null;
    },
    /** Freezes a receipt a share link's inputs compiled again, with the late changes the link declared. */
    restore(held: HeldReceipt, declaredIds: readonly string[]): DrillState {
      frozen = held;
      declared = [...declaredIds];
      return state();
    },
    declare(id: string): DrillState {
      frozen ??= lastReceipt();
      if (!declared.includes(id)) declared = [...declared, id];
      return state();
    },
    async attempt(): Promise<VerdictView | null> {
      frozen ??= lastReceipt();
      return frozen ? check(frozen.receipt, declared) : null;
    },
    reset(): DrillState {
      frozen = null;
      declared = [];
      return state();
    },
    /**
     * Other inputs were selected or loaded: the frozen receipt stays (an agent still holds it) and is judged
     * against them; the late changes declared were changes of the inputs left behind, so none carries over.
     */
    inputsReplaced(): DrillState {
      declared = [];
      return state();
    },
    /** Keeps the receipts a load brought, and judges them against the inputs now in force. */
    keepReceipts(receipts: readonly LoadedReceipt[]): Promise<ReceiptCheck[]> {
      loadedReceipts = [...receipts];
      return checkReceipts();
    },
    checkReceipts,
  };
}
