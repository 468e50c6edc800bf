import { create } from 'zustand';
import type { CompileResponse, TracePage, TraceQuery } from '../../worker/protocol';

interface ResultState {
  readonly response: CompileResponse | null;
  readonly compiling: boolean;
  readonly traceQuery: Omit<TraceQuery, 'audience'>;
  readonly trace: TracePage;
}

export const DEFAULT_TRACE_QUERY: Omit<TraceQuery, 'audience'> = { sortKey: 'order', descending: false, decision: 'all', code: 'all', text: '' };

export const useResultStore = create<ResultState>(() => ({ response: null, compiling: false, traceQuery: DEFAULT_TRACE_QUERY, trace: { rows: [], total: 0 } }));
