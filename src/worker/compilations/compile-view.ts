import { MAX_REPORTED_ISSUES } from '../../core/format/input-issues';
import type { CompileRequest } from '../../core/compile';
import { disclosedFailure, type Audience, type DisclosedView } from '../../core/disclosure';
import type { Control, LateChange, ScenarioFile } from '../../core/format/scenario';
import { packetWithManifest } from '../../core/phases/7-attest/attest';
import type { RecordSet } from '../../core/phases/1-validate/validate';
import type { RankLookup } from '../../core/ranked';
import { factContextOf, REASONS, renderFact, type FactContext, type ReasonCode } from '../../core/reasons';
import type { ReceiptDiff } from '../../core/receipt-diff';
import type { Baselines, CompileOutcome, Receipt, TraceRow } from '../../core/result';
import type { UserView } from '../../core/user-view';
import { changeTextsFor, withShownLabels } from './change-texts-for-view';
import { codesOf, columnCoverage, traceChanges, traceRowFacts, type ViewSource } from './debug-views';
import {
  MAX_TRACE_WINDOW,
  type AppliedChange,
  type ChangeMarks,
  type ColumnEntry,
  type CompileView,
  type EvidenceAttempts,
  type PacketColumn,
  type RowMark,
  type TraceChange,
  type TraceFilter,
  type TracePage,
  type TraceQuery,
  type TraceRowView,
} from '../protocol';

/*
 * One compilation as the page shows it, for one audience: its three packet columns, counts, failure, evidence and
 * the texts of what was applied (pure: the session hands it what it worked out), and its trace, window by window as
 * the page scrolls it.
 */

/** What a compilation was, as the compile view reads it. */
export interface Compiled {
  /** Counts compilations, so a wait for the baselines can tell whether it is still about the one on screen. */
  readonly serial: number;
  readonly scenarioKey: string;
  readonly appliedChanges: readonly AppliedChange[];
  /** The scenario's controls and late changes when it was compiled: their texts are shown per view. */
  readonly changes: Pick<ScenarioFile, 'controls' | 'lateChanges'>;
  readonly request: CompileRequest;
  readonly outcome: CompileOutcome;
}

/** What each applied control and late change touched, from its patches, in the order they were applied. */
export function appliedChanges(scenario: ScenarioFile, request: CompileRequest): AppliedChange[] {
  const describe = (change: Control | LateChange, kind: AppliedChange['kind']): AppliedChange => {
    const contractFields = new Set<string>();
    const records = { added: 0, removed: 0, patched: 0 };
    for (const patch of change.patches) {
      if (patch.op === 'mergeContract') for (const field of Object.keys(patch.patch)) contractFields.add(field);
      else if (patch.op === 'addRecord') records.added += 1;
      else if (patch.op === 'removeRecord') records.removed += 1;
      else records.patched += 1;
    }
    return { id: change.id, label: change.label, kind, contractFields: [...contractFields], records };
  };
  const controls = new Set(request.controls ?? []);
  const lateChanges = new Set(request.lateChanges ?? []);
  return [
    ...scenario.controls.filter((change) => controls.has(change.id)).map((change) => describe(change, 'control')),
    ...scenario.lateChanges
      .filter((change) => lateChanges.has(change.id))
      .map((change) => describe(change, 'late-change')),
  ];
}

function titleOf(recordSet: RecordSet, id: string): string {
  return recordSet.byId.get(id)?.record.title ?? id;
}

/**
 * `userView` in the user view only: there the identity, counts, failure and packet text are its own, built from what it
 * shows.
 */
export function compileView(
  compiled: Compiled,
  source: ViewSource,
  userView: UserView | null,
  baselines: Baselines | null,
  baselineIndexing: { readonly done: number; readonly total: number } | null,
  attempts: readonly EvidenceAttempts[] | null,
  marks: ChangeMarks | null = null,
): CompileView {
  const { outcome, request } = compiled;
  const { view } = source;
  const required = new Set(request.contract.requiredRecords);
  const tokensOf = (id: string) => request.recordSet.byId.get(id)?.record.tokens ?? 0;
  const k = request.contract.naiveTopK;
  /** Why a baseline chose nothing: nothing ranked, every ranked record dropped as illegal, or none fits the budget. */
  const emptyNote = (baseline: Baselines['naive'], naive: Baselines['naive']): PacketColumn['emptyNote'] => {
    if (baseline.selected.length > 0) return null;
    if (naive.ranked === 0) return { code: 'NOTHING_RANKED', args: { k, ranked: 0 } };
    if (baseline.ranked === 0) return { code: 'EVERY_TOP_K_ILLEGAL', args: { k, ranked: naive.ranked } };
    return { code: 'NONE_FITS_BUDGET', args: { k, ranked: baseline.ranked } };
  };
  const baselineColumn = (
    kind: 'naive' | 'post-filter',
    baseline: Baselines['naive'],
    naive: Baselines['naive'],
  ): PacketColumn => {
    const illegal = new Set(baseline.illegal);
    const rows = codesOf(outcome, baseline.selected);
    const entries: ColumnEntry[] = baseline.selected.map((id) => ({
      id,
      title: titleOf(request.recordSet, id),
      tokens: tokensOf(id),
      required: required.has(id),
      illegal: illegal.has(id),
      code: rows.get(id)?.code ?? 'EXCLUDE_BUDGET',
    }));
    return {
      kind,
      emitted: true,
      entries,
      tokensUsed: baseline.tokensUsed,
      tokenBudget: baseline.tokenBudget,
      illegalCount: baseline.illegal.length,
      requiredMissed: baseline.requiredMissed,
      coverage: columnCoverage(request, entries),
      emptyNote: emptyNote(baseline, naive),
    };
  };

  const receipt = outcome.receipt;
  const context = factContextOf(receipt.contract);
  const failure = userView ? userView.failure : disclosedFailure(outcome, view, context);
  const packetEntries: ColumnEntry[] =
    outcome.status === 'packet'
      ? outcome.packet.entries.map((entry) => ({
          id: entry.id,
          title: entry.title,
          tokens: entry.tokens,
          required: entry.required,
          illegal: false,
          code: entry.code,
        }))
      : [];
  const compiledColumn: PacketColumn =
    outcome.status === 'packet'
      ? {
          kind: 'compiled',
          emitted: true,
          entries: packetEntries,
          tokensUsed: outcome.packet.tokensUsed,
          tokenBudget: outcome.packet.tokenBudget,
          illegalCount: 0,
          requiredMissed: [],
          coverage: columnCoverage(request, packetEntries),
          emptyNote: null,
        }
      : {
          kind: 'compiled',
          emitted: false,
          entries: [],
          tokensUsed: 0,
          tokenBudget: receipt.contract.tokenBudget,
          illegalCount: 0,
          requiredMissed: failure?.recordId ? [failure.recordId] : [],
          coverage: columnCoverage(request, []),
          emptyNote: null,
        };

  const changeTexts = changeTextsFor(compiled.changes, request, view);
  const codeCounts = new Map<ReasonCode, number>();
  for (const row of view.rows) codeCounts.set(row.code, (codeCounts.get(row.code) ?? 0) + 1);

  return {
    compilation: compiled.serial,
    scenarioKey: compiled.scenarioKey,
    audience: view.audience,
    baselineIndexing,
    status: outcome.status,
    counts: userView ? userView.counts : { ...outcome.counts, withheld: 0 },
    receiptId: userView ? null : receipt.receiptId,
    userViewId: userView ? userView.id : null,
    contractFingerprint: receipt.contractFingerprint,
    recordSetDigest: userView ? null : receipt.recordSetDigest,
    packetFingerprint: receipt.packetFingerprint,
    tokensUsed: receipt.tokensUsed,
    tokenBudget: receipt.contract.tokenBudget,
    columns: {
      naive: baselines === null ? null : baselineColumn('naive', baselines.naive, baselines.naive),
      postFilter: baselines === null ? null : baselineColumn('post-filter', baselines.postFilter, baselines.naive),
      compiled: compiledColumn,
    },
    failure: failure ? { ...failure, summary: REASONS[failure.code].summary } : null,
    evidence: outcome.status === 'packet' ? outcome.evidence : [],
    evidenceAttempts: attempts,
    decisionBlockedBy: outcome.status === 'packet' ? outcome.decisionBlockedBy : [],
    packetText: userView
      ? userView.packetText
      : outcome.status === 'packet'
        ? packetWithManifest(outcome.packet, receipt)
        : null,
    withheldCount: view.withheldCount,
    withheldNotice: view.withheldNotice,
    unreadable: view.unreadable.slice(0, MAX_REPORTED_ISSUES).flatMap((item) => item.issues),
    controls: request.controls ?? [],
    lateChanges: request.lateChanges ?? [],
    compiledContract: request.contract,
    // Lines that were not records count too: the user view counts them among the withheld.
    recordCount: request.recordSet.records.length + outcome.unreadable.length,
    appliedChanges: withShownLabels(compiled.appliedChanges, changeTexts),
    changeTexts,
    marks,
    traceCodes: [...codeCounts].map(([code, count]) => ({ code, count })).sort((a, b) => a.code.localeCompare(b.code)),
  };
}

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
