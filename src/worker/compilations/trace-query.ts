import { factContextOf, renderFact, type FactContext } from '../../core/reasons';
import type { RankLookup } from '../../core/ranked';
import type { Receipt, TraceRow } from '../../core/result';
import type { Audience, DisclosedView } from '../../core/disclosure';
import type { ReceiptDiff } from '../../core/receipt-diff';
import { traceChanges, traceRowFacts } from './debug-views';
import {
  MAX_TRACE_WINDOW,
  type RowMark,
  type TraceChange,
  type TraceFilter,
  type TracePage,
  type TraceQuery,
  type TraceRowView,
} from '../protocol';

/**
 * What the trace is read from: the last compilation and its disclosed view (compilations.ts), and the pinned baseline
 * (comparisons.ts), by shape: the remembered result's first page (remember-soon.ts) reads this module's windows, so
 * importing those rooms here would close a cycle.
 */
interface TraceSources<Compiled> {
  readonly compilations: {
    last(): Compiled | null;
    disclosed(compiled: Compiled, audience: Audience): DisclosedView;
    rowMarksOf(compiled: Compiled, audience: Audience): ReadonlyMap<string, RowMark>;
  };
  readonly comparisons: {
    pinnedReceipt(): Receipt | null;
    pinnedDiffOf(compiled: Compiled, pinned: Receipt, audience: Audience): ReceiptDiff;
  };
}

/**
 * The trace as the page scrolls it: window after window of one ordering, so the rows are filtered and sorted once
 * per compilation, filter and pinned baseline, and each row marked with its change against that baseline. Only what
 * is on screen crosses the worker boundary.
 */
export function createTraceQuery<Compiled extends { readonly outcome: { readonly receipt: Receipt } }>({
  compilations,
  comparisons,
}: TraceSources<Compiled>) {
  let cache: {
    readonly source: Compiled;
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

/**
 * Filters and sorts in the worker, once per compilation and query; rows become views only when a window is sent. Ties
 * keep trace order.
 */
export function filterAndSortTrace(
  rows: readonly TraceRow[],
  query: TraceFilter,
  context: FactContext,
  ranks: RankLookup,
): TraceRow[] {
  const needle = query.text.trim().toLowerCase();
  const kept = rows.filter(
    (row) =>
      (query.decision === 'all' || row.decision === query.decision) &&
      (query.code === 'all' || row.code === query.code) &&
      (needle === '' ||
        row.id.toLowerCase().includes(needle) ||
        renderFact(row, context).toLowerCase().includes(needle)),
  );
  const compare = compareBy(query.sortKey, ranks);
  if (compare) {
    const direction = query.descending ? -1 : 1;
    const order = new Map(kept.map((row, index) => [row, index]));
    kept.sort((a, b) => direction * compare(a, b) || (order.get(a) ?? 0) - (order.get(b) ?? 0));
  } else if (query.descending) {
    kept.reverse();
  }
  return kept;
}

function compareBy(key: TraceFilter['sortKey'], ranks: RankLookup): ((a: TraceRow, b: TraceRow) => number) | null {
  switch (key) {
    case 'order':
      return null;
    case 'id':
      return (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    case 'decision':
      return (a, b) => a.decision.localeCompare(b.decision);
    case 'code':
      return (a, b) => a.code.localeCompare(b.code);
    case 'tokens':
      return (a, b) => a.tokens - b.tokens;
    case 'required':
      return (a, b) => Number(a.required) - Number(b.required);
    case 'score': {
      // Scores come from the ranking section; unranked rows sort after every score, whichever the direction.
      const scoreOf = (row: TraceRow) => ranks.get(row.id)?.score ?? Number.NEGATIVE_INFINITY;
      return (a, b) => scoreOf(a) - scoreOf(b);
    }
  }
}

/**
 * Rows `offset` on (at most `limit`, and never more than MAX_TRACE_WINDOW) of a filtered and sorted trace, as the page
 * renders them.
 */
export function traceWindow(
  rows: readonly TraceRow[],
  total: number,
  context: FactContext,
  ranks: RankLookup,
  changes: ReadonlyMap<string, TraceChange>,
  offset: number,
  limit: number,
  marks: ReadonlyMap<string, RowMark> = new Map(),
): TracePage {
  const start = Math.max(0, Math.floor(offset));
  const end = start + Math.min(MAX_TRACE_WINDOW, Math.max(0, Math.floor(limit)));
  return {
    offset: start,
    rows: rows
      .slice(start, end)
      .map((row) => toRowView(row, context, ranks, changes.get(row.id) ?? null, marks.get(row.id) ?? null)),
    matched: rows.length,
    total,
  };
}

/** The compact row the UI renders, its fact in words. */
function toRowView(
  row: TraceRow,
  context: FactContext,
  ranks: RankLookup,
  change: TraceChange | null,
  mark: RowMark | null,
): TraceRowView {
  return { ...traceRowFacts(row, context, ranks), change, mark };
}
