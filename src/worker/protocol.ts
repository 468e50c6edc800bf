import type { Audience } from '../core/disclosure';
import type { InputIssue } from '../core/errors';
import type { FileKind } from '../core/phases/1-validate/validate';
import type { FactArgs } from '../core/reasons';
import type { SuggestionCode } from '../core/suggestions';
import type { TestsView } from './suites/expectation-runs';
import type { SavedWorkspace } from './saved-workspace';
import type { CompileResponse, EvidenceAttempts, RememberedResult } from './protocol-compile';
import type {
  AsOfStep,
  AsOfStops,
  BaselinePin,
  DiffView,
  InspectResponse,
  ReceiptDiffResponse,
  TracePage,
  TraceQuery,
  VerdictView,
  WhatIfResponse,
} from './protocol-debugger';
import type { EditedRecord, RecordEditInput, RecordEditResult } from './protocol-edits';
import type { EvaluationApi } from './protocol-evaluation';
import type { CaseFromScreen, OpenSuitesResult, SuiteDraft } from './protocol-suites';
import type { DrillState, ScenarioExport, Selection, StorageState, WorkspaceSnapshot } from './protocol-workspace';
import type { ScreenShown, ShareCheck, ShareLinkResult, ShareOpenResult } from './protocol-share';

export type { TestsView } from './suites/expectation-runs';
export * from './protocol-compile';
export * from './protocol-debugger';
export * from './protocol-marks';
export * from './protocol-edits';
export * from './protocol-evaluation';
export * from './protocol-share';
export * from './protocol-suites';
export * from './protocol-workspace';
export * from './saved-workspace';

export interface LoadProgress {
  readonly file: string;
  readonly phase: 'reading' | 'indexing';
  readonly done: number;
  readonly total: number;
}

export interface ReceiptCheck {
  readonly file: string;
  readonly verdict: VerdictView;
}

/**
 * What a refused file was read as, and how many problems it has: "read as a contract (recognised by principals): not a
 * valid contract: 1 problem".
 */
export interface FileSummary {
  readonly file: string;
  readonly message: string;
}

/** A saved receipt's text and the name to report problems under (a file name, or `baseline`). */
export interface ReceiptText {
  readonly name: string;
  readonly text: string;
}

export type LoadResult =
  | {
      readonly status: 'loaded';
      readonly snapshot: WorkspaceSnapshot;
      readonly kinds: readonly { readonly file: string; readonly kind: FileKind }[];
      readonly receiptChecks: readonly ReceiptCheck[];
      /** The expectation suites of the drop, opened in the Tests panel. */
      readonly suites: readonly string[];
    }
  | { readonly status: 'rejected'; readonly issues: readonly InputIssue[]; readonly summaries: readonly FileSummary[] }
  | { readonly status: 'cancelled' };

export type ContractUpdate =
  | { readonly ok: true; readonly snapshot: WorkspaceSnapshot }
  | { readonly ok: false; readonly issues: readonly InputIssue[] };

/** Sent by the worker after every change of the workspace, whether or not storage kept it. */
export interface WorkspaceEvent {
  /** The workspace in memory (files as Blobs, edits, selection): what a restarted worker is given back. */
  readonly workspace: SavedWorkspace;
  readonly storage: StorageState;
}

/** The worker's API. Every method is async across the worker boundary; the worker owns all data. */
export interface CompilerApi extends EvaluationApi {
  /**
   * Holds the Web Lock `name` for as long as the worker lives and resolves once it is held: the page
   * asks for the same lock and is granted it only when the worker has ended, however it ended.
   */
  holdLifeline(name: string): Promise<void>;
  /**
   * What the last session showed for the workspace storage holds, read before the database opens; null when nothing
   * matches it.
   */
  rememberedResult(): Promise<RememberedResult | null>;
  /**
   * Restores the workspace (`restore`, kept by the page from a worker that was lost, or else what
   * storage holds) and reports every later change to `onChange`.
   */
  start(restore: SavedWorkspace | null, onChange: (event: WorkspaceEvent) => void): Promise<WorkspaceSnapshot>;
  select(selection: Selection): Promise<WorkspaceSnapshot>;
  /**
   * `shownCompilation`: the compilation the page shows (its view's `compilation`), which the change marks are against.
   */
  compile(audience: Audience, shownCompilation?: number | null): Promise<CompileResponse>;
  disclose(audience: Audience): Promise<CompileResponse>;
  /**
   * The diagnostic view of compilation `compilation` with its baselines, once the whole-corpus index is built
   * (progress to `onProgress`); null when a later compilation replaced it. Other calls are answered meanwhile.
   */
  awaitBaselines(
    compilation: number,
    onProgress: (progress: { readonly done: number; readonly total: number }) => void,
  ): Promise<CompileResponse | null>;
  queryTrace(query: TraceQuery): Promise<TracePage>;
  /**
   * The first page of every required proposition's attempts in compilation `compilation`; null when a later compilation
   * replaced it.
   */
  firstEvidenceAttempts(compilation: number, audience: Audience): Promise<readonly EvidenceAttempts[] | null>;
  /**
   * A page of one proposition's attempts in compilation `compilation`, from `offset`; null when a later compilation
   * replaced it.
   */
  evidenceAttempts(
    compilation: number,
    proposition: string,
    audience: Audience,
    offset: number,
  ): Promise<EvidenceAttempts | null>;
  /** The diagnostic receipt: the app offers it only in the diagnostic view. */
  receiptJson(): Promise<string | null>;
  /** Null when the last compilation failed closed: there is no packet to export. Labelled with its view. */
  packetJson(audience: Audience): Promise<string | null>;
  /** The user-view export (not a receipt): what the user view shows, and nothing it withholds. */
  userViewJson(): Promise<string | null>;
  /**
   * The receipt as an in-toto Statement v1 (canonical JSON); null when nothing has been compiled. The app offers it
   * only in the diagnostic view.
   */
  statementJson(): Promise<string | null>;
  /** Validates and applies a contract edit (from the form as a value, or raw JSON text). */
  updateContract(input: { readonly value: unknown } | { readonly text: string }): Promise<ContractUpdate>;
  /**
   * The problems of contract JSON text as typed (file, line and field), without applying it: none when Apply would take
   * it.
   */
  checkContract(text: string): Promise<readonly InputIssue[]>;
  revertContract(): Promise<WorkspaceSnapshot>;
  /** Writes the whole workspace to storage again, files included (after storage was cleared under the page). */
  saveWorkspace(): Promise<WorkspaceSnapshot>;
  exportScenario(): Promise<ScenarioExport>;
  /**
   * A record of the selected scenario as it is in force, for the record editor; refused for a record the view
   * withholds.
   */
  recordForEdit(id: string, audience: Audience): Promise<EditedRecord>;
  /**
   * Applies a record edit as a new revision, or authors a control or late change from it
   * (src/worker/comparisons/record-editing.ts).
   */
  editRecord(input: RecordEditInput, audience: Audience): Promise<RecordEditResult>;
  undoRecordEdit(): Promise<RecordEditResult>;
  redoRecordEdit(): Promise<RecordEditResult>;
  /** The workspace as a URL fragment, compressed in the worker (docs/FORMAT.md, "Share links"). */
  createShareLink(screen?: ScreenShown): Promise<ShareLinkResult>;
  checkShareLink(fragment: string): Promise<ShareCheck>;
  /** Replaces the workspace with a share link's, or refuses it whole and changes nothing. */
  openShareLink(fragment: string): Promise<ShareOpenResult>;
  loadFiles(files: readonly File[], onProgress: (progress: LoadProgress) => void): Promise<LoadResult>;
  cancelLoad(): Promise<void>;
  freezeReceipt(): Promise<DrillState>;
  declareLateChange(id: string): Promise<DrillState>;
  /** Null when nothing has been compiled yet, so there is no receipt to freeze. */
  attemptContinue(): Promise<VerdictView | null>;
  /** The receipts the last load brought, judged again against the inputs in force now. */
  checkReceipts(): Promise<readonly ReceiptCheck[]>;
  resetDrill(): Promise<DrillState>;
  resetWorkspace(): Promise<WorkspaceSnapshot>;
  /**
   * What changed from one compilation to another, from two saved receipts (e.g. a pinned baseline's
   * `receiptJson()` and the current one), disclosed for `audience`. Problems name the receipt and field.
   */
  diffReceipts(before: ReceiptText, after: ReceiptText, audience: Audience): Promise<ReceiptDiffResponse>;
  /** Everything about one record of the last compilation, as `audience` may see it. */
  inspectRecord(id: string, audience: Audience): Promise<InspectResponse>;
  /**
   * What would admit the record (excluded) or exclude it (admitted) in the last compilation, each change verified by
   * compiling it; in the user view verified on the records it shows.
   */
  whatWouldChange(id: string, audience: Audience): Promise<WhatIfResponse>;
  /**
   * Makes a suggested change to record `id` in force: an edit of the contract, or a new revision of the record (as the
   * record editor makes one).
   */
  applySuggestion(
    suggestion: { readonly code: SuggestionCode; readonly args: FactArgs },
    id: string,
    audience: Audience,
  ): Promise<ContractUpdate>;
  /** Pins the last compilation as the baseline; null when nothing has been compiled. */
  pinBaseline(): Promise<BaselinePin | null>;
  clearBaseline(): Promise<void>;
  /**
   * The pinned baseline against the last compilation (the diff `diffReceipts` makes), as a panel shows it; null when
   * nothing is pinned.
   */
  baselineDiff(audience: Audience): Promise<DiffView | null>;
  /** The instants at which a record the view names enters or leaves the time gate. */
  asOfStops(audience: Audience): Promise<AsOfStops>;
  /** Sets the as-of of the contract in force (an edit) and remembers the compilation before it for `asOfDiff`. */
  stepAsOf(step: AsOfStep): Promise<ContractUpdate>;
  /** From the compilation before the last as-of step to the last compilation; null when no step was taken. */
  asOfDiff(audience: Audience): Promise<DiffView | null>;
  /**
   * Opens expectation suites in the Tests panel and runs every open suite on the inputs on screen, as `audience` may
   * see them.
   */
  openSuites(files: readonly File[], audience: Audience): Promise<OpenSuitesResult>;
  closeSuite(file: string, audience: Audience): Promise<TestsView>;
  /** An open suite's text as it was read, for the suite editor; null when none of that name is open. */
  suiteText(file: string): Promise<string | null>;
  /**
   * The problems of suite text as typed (file, line and field), as `context-compiler test` reads it; nothing is opened.
   */
  checkSuite(file: string, text: string): Promise<readonly InputIssue[]>;
  /**
   * A case stating what the inputs on screen compile to (as `audience` sees them), added to an open suite or a new one:
   * the text and its diff; nothing is kept.
   */
  caseFromScreen(input: CaseFromScreen, audience: Audience): Promise<SuiteDraft>;
  /**
   * An open suite with each case's expectations rewritten from what it observes now: the text and its diff; nothing is
   * kept.
   */
  updatedSuite(file: string, audience: Audience): Promise<SuiteDraft>;
  /**
   * The open suites run on the inputs on screen (after each compilation or change of view); null while none is open.
   */
  runTests(audience: Audience): Promise<TestsView | null>;
}
