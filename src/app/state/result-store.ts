import { create } from 'zustand';
import type { MessageWords } from '../../core/messages';
import { DEFAULT_TRACE_QUERY, TRACE_PAGE_SIZE } from '../../shared/trace-page';
import type { CompileResponse, TraceFilter, TracePage, TraceRowView } from '../../worker/protocol';

export interface TraceWindows {
  readonly matched: number;
  readonly total: number;
  /** Loaded pages by page index; a row's page is `Math.floor(index / TRACE_PAGE_SIZE)`. */
  readonly pages: ReadonlyMap<number, readonly TraceRowView[]>;
}

/** A call to the worker that threw or was lost: nothing derived from it may stay on screen. */
export interface CompilerFailure {
  /** What the app was doing, as the catalogue's headline words it. */
  readonly headline: Extract<MessageWords, { readonly code: 'COMPILER_FAILED_WHILE' }>;
  /** Why the call failed, from the error's first line; never a stack trace. */
  readonly reason: MessageWords;
}

interface ResultState {
  readonly response: CompileResponse | null;
  /** Set when the last call failed; `response` is then null, so there is no packet, receipt or trace. */
  readonly failure: CompilerFailure | null;
  /** Counts compilations shown, so a verdict or a notice can tell it is about inputs that have changed since. */
  readonly revision: number;
  readonly compiling: boolean;
  /**
   * The receipt id of the result on screen while it is the one the last session showed, read back at boot; the
   * worker is meanwhile restoring the workspace and compiling it again, which replaces it. Null otherwise, and
   * from the moment the user changes the inputs (the result is then only outdated, no longer being checked).
   */
  readonly rememberedReceipt: string | null;
  /** Records of the whole-corpus index built so far, while the baselines of the result on screen wait for it. */
  readonly baselineProgress: { readonly done: number; readonly total: number } | null;
  readonly traceQuery: Omit<TraceFilter, 'audience'>;
  readonly trace: TraceWindows;
}

export const EMPTY_TRACE: TraceWindows = { matched: 0, total: 0, pages: new Map() };

/** The trace as a first page leaves it: the later pages are fetched as they scroll into view. */
export function traceFrom(firstPage: TracePage): TraceWindows {
  return { matched: firstPage.matched, total: firstPage.total, pages: new Map([[0, firstPage.rows]]) };
}

export function traceRowAt(trace: TraceWindows, index: number): TraceRowView | undefined {
  return trace.pages.get(Math.floor(index / TRACE_PAGE_SIZE))?.[index % TRACE_PAGE_SIZE];
}

export const useResultStore = create<ResultState>(() => ({
  response: null,
  failure: null,
  revision: 0,
  compiling: false,
  rememberedReceipt: null,
  baselineProgress: null,
  traceQuery: DEFAULT_TRACE_QUERY,
  trace: EMPTY_TRACE,
}));
