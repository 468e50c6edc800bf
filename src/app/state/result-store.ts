import { create } from 'zustand';
import type { CompileResponse, TraceFilter, TraceRowView } from '../../worker/protocol';

/** Rows are fetched from the worker a page at a time, as they scroll into view. */
export const TRACE_PAGE_SIZE = 200;

export interface TraceWindows {
  readonly matched: number;
  readonly total: number;
  /** Loaded pages by page index; a row's page is `Math.floor(index / TRACE_PAGE_SIZE)`. */
  readonly pages: ReadonlyMap<number, readonly TraceRowView[]>;
}

/** A call to the worker that threw or was lost: nothing derived from it may stay on screen. */
export interface CompilerFailure {
  /** What the app was doing, as a phrase: "compiling", "loading files". */
  readonly during: string;
  /** The reason in plain words; never a stack trace. */
  readonly reason: string;
}

interface ResultState {
  readonly response: CompileResponse | null;
  /** Set when the last call failed; `response` is then null, so there is no packet, receipt or trace. */
  readonly failure: CompilerFailure | null;
  /** Counts compilations shown, so a verdict or a notice can tell it is about inputs that have changed since. */
  readonly revision: number;
  readonly compiling: boolean;
  /** Records of the whole-corpus index built so far, while the baselines of the result on screen wait for it. */
  readonly baselineProgress: { readonly done: number; readonly total: number } | null;
  readonly traceQuery: Omit<TraceFilter, 'audience'>;
  readonly trace: TraceWindows;
}

export const DEFAULT_TRACE_QUERY: Omit<TraceFilter, 'audience'> = { sortKey: 'order', descending: false, decision: 'all', code: 'all', text: '' };

export const EMPTY_TRACE: TraceWindows = { matched: 0, total: 0, pages: new Map() };

export function traceRowAt(trace: TraceWindows, index: number): TraceRowView | undefined {
  return trace.pages.get(Math.floor(index / TRACE_PAGE_SIZE))?.[index % TRACE_PAGE_SIZE];
}

export const useResultStore = create<ResultState>(() => ({ response: null, failure: null, revision: 0, compiling: false, baselineProgress: null, traceQuery: DEFAULT_TRACE_QUERY, trace: EMPTY_TRACE }));
