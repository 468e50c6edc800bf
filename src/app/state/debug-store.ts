import { create } from 'zustand';
import type { InputIssue } from '../../core/errors';
import type { AsOfStops, BaselinePin, DiffView, InspectResponse } from '../../worker/protocol';

interface DebugState {
  /** The record inspector: the id asked for, and the worker's answer once it came (null while on its way). */
  readonly inspector: { readonly id: string; readonly response: InspectResponse | null } | null;
  /** The compilation pinned as the baseline, as the worker named it; null when none is pinned. */
  readonly baseline: BaselinePin | null;
  /** The baseline against what is compiled now, for the view on screen. */
  readonly baselineDiff: DiffView | null;
  readonly stops: AsOfStops | null;
  /** From the compilation before the last as-of step to what is compiled now. */
  readonly asOfDiff: DiffView | null;
  readonly stepping: boolean;
  readonly stepIssues: readonly InputIssue[];
}

export const INITIAL_DEBUG: DebugState = { inspector: null, baseline: null, baselineDiff: null, stops: null, asOfDiff: null, stepping: false, stepIssues: [] };

export const useDebugStore = create<DebugState>(() => INITIAL_DEBUG);
