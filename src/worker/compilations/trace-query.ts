import { factContextOf, type FactContext } from '../../core/reasons';
import type { RankLookup } from '../../core/ranked';
import type { Receipt, TraceRow } from '../../core/result';
import type { Comparisons } from '../comparisons/comparisons';
import type { Compilations, LastCompile } from './compilations';
import { traceChanges } from './debug-views';
import type { TraceChange, TracePage, TraceQuery } from '../protocol';
import { filterAndSortTrace, traceWindow } from './trace-windows';

/**
 * The trace as the page scrolls it: window after window of one ordering, so the rows are filtered and sorted once
 * per compilation, filter and pinned baseline, and each row marked with its change against that baseline.
 */
export function createTraceQuery({
  compilations,
  comparisons,
}: {
  readonly compilations: Compilations;
  readonly comparisons: Comparisons;
}) {
  let cache: {
    readonly source: LastCompile;
    readonly key: string;
    readonly pinned: Receipt | null;
    readonly context: FactContext;
    readonly rows: readonly TraceRow[];
    readonly total: number;
    readonly ranks: RankLookup;
    readonly changes: ReadonlyMap<string, TraceChange>;
  } | null = null;

  return {
    queryTrace(query: TraceQuery): TracePage {
      const last = compilations.last();
      if (!last) return { offset: 0, rows: [], matched: 0, total: 0 };
      const { offset, limit, ...filter } = query;
      const key = JSON.stringify(filter);
      const pinnedReceipt = comparisons.pinnedReceipt();
      if (cache?.source !== last || cache.key !== key || cache.pinned !== pinnedReceipt) {
        const view = compilations.disclosed(last, filter.audience);
        const context = factContextOf(last.outcome.receipt.contract);
        const changes = pinnedReceipt
          ? traceChanges(comparisons.pinnedDiffOf(last, pinnedReceipt, filter.audience))
          : new Map<string, TraceChange>();
        cache = {
          source: last,
          key,
          pinned: pinnedReceipt,
          context,
          rows: filterAndSortTrace(view.rows, filter, context, view.ranks),
          total: view.rows.length,
          ranks: view.ranks,
          changes,
        };
      }
      const { rows, total, context, ranks, changes } = cache;
      return traceWindow(
        rows,
        total,
        context,
        ranks,
        changes,
        offset,
        limit,
        compilations.rowMarksOf(last, filter.audience),
      );
    },
  };
}
