import { MAX_REPORTED_ISSUES } from '../../core/format/input-issues';
import type { CompileRequest } from '../../core/compile';
import { disclosedFailure } from '../../core/disclosure';
import type { Control, LateChange, ScenarioFile } from '../../core/format/scenario';
import { packetWithManifest } from '../../core/phases/7-attest/attest';
import type { RecordSet } from '../../core/phases/1-validate/validate';
import { factContextOf, REASONS, type ReasonCode } from '../../core/reasons';
import type { Baselines, CompileOutcome } from '../../core/result';
import type { UserView } from '../../core/user-view';
import { changeTextsFor, withShownLabels } from './change-texts-for-view';
import { codesOf, columnCoverage, type ViewSource } from './debug-views';
import type { AppliedChange, ChangeMarks, ColumnEntry, CompileView, EvidenceAttempts, PacketColumn } from '../protocol';

/*
 * One compilation as the page shows it: its three packet columns, counts, failure, evidence and the texts
 * of what was applied, for one audience. Pure: the session hands it what it worked out.
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
