import type { Receipt } from '../core/result';
import type { DrillState, ReceiptCheck, VerdictView } from './protocol';

export interface DrillDeps {
  /** The receipt of the compilation on screen, if any: what a freeze takes. */
  readonly lastReceipt: () => Receipt | null;
  /** A receipt judged against the inputs in force now, with the late changes declared since it. */
  readonly check: (prior: Receipt, declared: readonly string[]) => VerdictView;
}

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
  let frozen: Receipt | null = null;
  let declared: string[] = [];
  let loadedReceipts: readonly LoadedReceipt[] = [];
  const state = (): DrillState => ({ frozenReceiptId: frozen?.receiptId ?? null, declared: [...declared] });

  return {
    state,
    freeze(): DrillState {
      frozen = lastReceipt();
      declared = [];
      return state();
    },
    declare(id: string): DrillState {
      frozen ??= lastReceipt();
      if (!declared.includes(id)) declared = [...declared, id];
      return state();
    },
    attempt(): VerdictView | null {
      frozen ??= lastReceipt();
      return frozen ? check(frozen, declared) : null;
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
    keepReceipts(receipts: readonly LoadedReceipt[]): ReceiptCheck[] {
      loadedReceipts = [...receipts];
      return this.checkReceipts();
    },
    checkReceipts(): ReceiptCheck[] {
      return loadedReceipts.map(({ file, receipt }) => ({ file, verdict: check(receipt, []) }));
    },
  };
}
