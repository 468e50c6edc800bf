import { create } from 'zustand';
import type { VerdictView } from '../../worker/protocol';

interface DrillStoreState {
  readonly frozenReceiptId: string | null;
  readonly declared: readonly string[];
  readonly verdict: VerdictView | null;
  /** The compilation (result-store revision) the verdict was given against; any later one makes it stale. */
  readonly verdictRevision: number;
  readonly busy: boolean;
}

export const INITIAL_DRILL: DrillStoreState = {
  frozenReceiptId: null,
  declared: [],
  verdict: null,
  verdictRevision: 0,
  busy: false,
};

export const useDrillStore = create<DrillStoreState>(() => INITIAL_DRILL);
