import { create } from 'zustand';
import type { VerdictView } from '../../worker/protocol';

interface DrillStoreState {
  readonly frozenReceiptId: string | null;
  readonly declared: readonly string[];
  readonly verdict: VerdictView | null;
  readonly busy: boolean;
}

export const INITIAL_DRILL: DrillStoreState = { frozenReceiptId: null, declared: [], verdict: null, busy: false };

export const useDrillStore = create<DrillStoreState>(() => INITIAL_DRILL);
