import { create } from 'zustand';
import type { DrillVerdict } from '../../core/result';

interface DrillStoreState {
  readonly frozenReceiptId: string | null;
  readonly declared: readonly string[];
  readonly verdict: DrillVerdict | null;
  readonly busy: boolean;
}

export const INITIAL_DRILL: DrillStoreState = { frozenReceiptId: null, declared: [], verdict: null, busy: false };

export const useDrillStore = create<DrillStoreState>(() => INITIAL_DRILL);
