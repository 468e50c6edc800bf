import { create } from 'zustand';
import type { InputIssue } from '../../core/errors';
import type { AsOfStops, BaselinePin, DiffView, InspectResponse, WhatIfResponse } from '../../worker/protocol';

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
  /**
   * What would change the inspected record's admission, for one compilation and view (null while on its way); null when
   * not asked.
   */
  readonly whatIf: { readonly id: string; readonly key: string; readonly response: WhatIfResponse | null } | null;
  /** Why a suggested change could not be applied, in words; null when none was refused. */
  readonly whatIfIssue: string | null;
}

export const INITIAL_DEBUG: DebugState = {
  inspector: null,
  baseline: null,
  baselineDiff: null,
  stops: null,
  asOfDiff: null,
  stepping: false,
  stepIssues: [],
  whatIf: null,
  whatIfIssue: null,
};

export const useDebugStore = create<DebugState>(() => INITIAL_DEBUG);
