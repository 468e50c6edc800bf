import type { Audience } from '../core/disclosure';
import type { CompileError, InputIssue } from '../core/errors';
import type { Contract } from '../core/format/contract';
import type { FileKind } from '../core/phases/1-validate/validate';
import type { FactArgs, ReasonCode } from '../core/reasons';
import type { EmptyBaselineArgs, EmptyBaselineCode, SuggestionCode } from '../core/suggestions';
import type { EvidenceSlot, EvidenceState } from '../core/result';
import type { FoundationReport } from '../eval/foundation';
import type { GrowthReport } from '../eval/growth';
import type { ScenarioComparison } from '../eval/scenario-comparison';
import type { EvaluationGrowthSize } from '../shared/evaluation-sizes';
import type { TestsView } from './suites/expectation-runs';
import type { SavedWorkspace } from './saved-workspace';
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
import type { ChangeMarks } from './protocol-marks';
import type { EditedRecord, RecordEditInput, RecordEditResult } from './protocol-edits';
import type {
  ChangeText,
  DrillState,
  ScenarioExport,
  Selection,
  StorageState,
  WorkspaceSnapshot,
} from './protocol-workspace';
import type { ScreenShown, ShareCheck, ShareLinkResult, ShareOpenResult } from './protocol-share';

export type { TestsView } from './suites/expectation-runs';
export * from './protocol-debugger';
export * from './protocol-marks';
export * from './protocol-edits';
export * from './protocol-share';
export * from './protocol-workspace';
export * from './saved-workspace';

export interface ColumnEntry {
  readonly id: string;
  readonly title: string;
  readonly tokens: number;
  readonly required: boolean;
  /** The legality gates would have refused it. */
  readonly illegal: boolean;
  /** Its code in the compiled trace: the first gate it fails when illegal, else what the compiler decided (selected, budget…). */
  readonly code: ReasonCode;
}

/** How one column answers one required proposition, from its own entries only. */
export interface PropositionCoverage {
  readonly proposition: string;
  readonly blocking: boolean;
  /**
   * As the plan judges a packet's evidence: contradicted when a legal entry of an accepted class contradicts it,
   * else supported when one supports it, else unknown. Only a supported proposition is answered.
   */
  readonly state: EvidenceState;
  /** Legal entries of an accepted class that support it. */
  readonly supporting: readonly string[];
  /** Legal entries of an accepted class that contradict it: the proposition is contradicted, not answered. */
  readonly contradicting: readonly string[];
  /** Entries of an accepted class that the gates would refuse: they answer it illegally. */
  readonly illegal: readonly string[];
  /** Entries that mention it with a class the contract does not accept for it (a note is not an approval). */
  readonly notAccepted: readonly string[];
}

export type ColumnKind = 'naive' | 'post-filter' | 'compiled';

export interface PacketColumn {
  readonly kind: ColumnKind;
  /** False when the compiler failed closed: the column lists nothing and nothing may be copied. */
  readonly emitted: boolean;
  readonly entries: readonly ColumnEntry[];
  readonly tokensUsed: number;
  readonly tokenBudget: number;
  readonly illegalCount: number;
  readonly requiredMissed: readonly string[];
  /** One per required proposition, in the contract's order. */
  readonly coverage: readonly PropositionCoverage[];
  /** Why a baseline that holds nothing is empty (worded by `EMPTY_BASELINE_NOTES`); null when it holds records, and for the compiled packet. */
  readonly emptyNote: { readonly code: EmptyBaselineCode; readonly args: EmptyBaselineArgs } | null;
}

/** Why one record was or was not used as evidence for a proposition. */
export type AttemptOutcome = 'used' | 'left_out' | 'class_not_accepted' | 'refused';

export interface EvidenceAttempt {
  readonly id: string;
  /** Whether the record claims to support or to contradict the proposition. */
  readonly claim: 'supports' | 'contradicts';
  readonly evidenceClass: string;
  readonly outcome: AttemptOutcome;
  /** Its trace row's code and fact: the gate that refused it, or what the plan decided. */
  readonly code: ReasonCode;
  readonly fact: string;
}

/**
 * Attempts a compile view carries per proposition; `evidenceAttempts` fetches the rest a page at a time.
 * At 100,000 records a proposition had thousands of claimants, and cloning them all into every view
 * (and rendering them) blocked the page.
 */
export const ATTEMPTS_PAGE = 50;

/**
 * Every record that claims a required proposition, and what became of it; records the view withholds are
 * left out (and not counted). Used attempts first, then by id. A compile view carries the first page
 * (`offset` 0); `evidenceAttempts` fetches the next ones.
 */
export interface EvidenceAttempts {
  readonly proposition: string;
  readonly acceptedClasses: readonly string[];
  /** Attempts in all. */
  readonly total: number;
  /** Where `attempts` starts among them. */
  readonly offset: number;
  readonly attempts: readonly EvidenceAttempt[];
}

export interface FailureView {
  readonly code: ReasonCode;
  readonly summary: string;
  readonly message: string;
  readonly recordId: string | null;
  readonly fact: string | null;
}

/** A control or late change that this compilation applied, and what its patches touched. */
export interface AppliedChange {
  readonly id: string;
  readonly label: string;
  readonly kind: 'control' | 'late-change';
  /** Top-level contract fields its patches set, e.g. `tokenBudget`. */
  readonly contractFields: readonly string[];
  /** Counts only: naming the records could name one the user view withholds. */
  readonly records: { readonly added: number; readonly removed: number; readonly patched: number };
}

export interface CompileView {
  /** Which compilation this is (they are counted), for `awaitBaselines`. */
  readonly compilation: number;
  readonly scenarioKey: string;
  readonly audience: Audience;
  /**
   * Diagnostic view only: the whole-corpus index the baselines need is still being built in the background
   * (records indexed so far); the naive and post-filter columns are null until `awaitBaselines` resolves.
   */
  readonly baselineIndexing: { readonly done: number; readonly total: number } | null;
  readonly status: 'packet' | 'fail_closed';
  /** In the user view its own rows only (`candidates`, `excluded`), the withheld records counted apart (0 in the diagnostic view). */
  readonly counts: {
    readonly candidates: number;
    readonly admitted: number;
    readonly selected: number;
    readonly excluded: number;
    readonly withheld: number;
  };
  /** Diagnostic view only (null in the user view): the receipt id and the record-set digest cover withheld records. */
  readonly receiptId: string | null;
  /** User view only (null in the diagnostic view): the user-view id, a digest of what it shows (docs/FORMAT.md, "User-view export"). */
  readonly userViewId: string | null;
  readonly contractFingerprint: string;
  readonly recordSetDigest: string | null;
  readonly packetFingerprint: string | null;
  readonly tokensUsed: number;
  readonly tokenBudget: number;
  /** The baselines are null in the user view: they rank with statistics of records it withholds. */
  readonly columns: {
    readonly naive: PacketColumn | null;
    readonly postFilter: PacketColumn | null;
    readonly compiled: PacketColumn;
  };
  readonly failure: FailureView | null;
  readonly evidence: readonly EvidenceSlot[];
  /**
   * Which records tried each required proposition and why each was used or refused (also when failed closed).
   * Null in the answer to a compile or a change of view over a large record set: the page asks for them with
   * `firstEvidenceAttempts` once the result is on screen.
   */
  readonly evidenceAttempts: readonly EvidenceAttempts[] | null;
  readonly decisionBlockedBy: readonly string[];
  /** The copyable packet with its manifest header; null when no packet was emitted. */
  readonly packetText: string | null;
  readonly withheldCount: number;
  readonly withheldNotice: string | null;
  /** The records that could not be read (EXCLUDE_UNREADABLE), where and why: the diagnostic view's; empty in the user view. */
  readonly unreadable: readonly InputIssue[];
  readonly controls: readonly string[];
  readonly lateChanges: readonly string[];
  /** The contract as compiled: the scenario's (or the user's edit) with the active controls and late changes applied. */
  readonly compiledContract: Contract;
  /** Records compiled, after the active controls and late changes added or removed some. */
  readonly recordCount: number;
  readonly appliedChanges: readonly AppliedChange[];
  /** Every control's and late change's text as this view may show it: the user view redacts the records it withholds. */
  readonly changeTexts: readonly ChangeText[];
  /** What this compilation changed against the one before it of the same scenario; null for the first. */
  readonly marks: ChangeMarks | null;
  /** Reason codes present in the visible trace, for the filter. */
  readonly traceCodes: readonly { readonly code: ReasonCode; readonly count: number }[];
}

/**
 * The result a page last showed for the saved workspace, and the first page of its trace in the default order:
 * shown on the next boot while the worker compiles the same inputs again. `view.compilation` is 0, a number no
 * compilation of the new worker has.
 */
export interface RememberedResult {
  readonly view: CompileView;
  readonly firstPage: TracePage;
}

export type CompileResponse =
  { readonly ok: true; readonly view: CompileView } | { readonly ok: false; readonly error: CompileError };

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

/** What a refused file was read as, and how many problems it has: "read as a contract (recognised by principals): not a valid contract: 1 problem". */
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

export interface SuiteDiffLine {
  readonly kind: 'added' | 'removed' | 'same';
  readonly text: string;
}

/** A suite as it would be written, shown as a diff against what is open before anything is kept or downloaded. */
export type SuiteDraft =
  | {
      readonly ok: true;
      readonly file: string;
      readonly text: string;
      readonly diff: readonly SuiteDiffLine[];
      /** Picked ids the view has no row for: left out of the case (withheld from this view and absent look alike). */
      readonly notShown: readonly string[];
      /** Cases left as written (a matrix is run under several sets of switches, so no one screen states it). */
      readonly unchanged: readonly string[];
    }
  | { readonly ok: false; readonly issues: readonly InputIssue[] };

export interface CaseFromScreen {
  readonly name: string;
  /** Records whose decision the case states (the packet's are stated by its order anyway). */
  readonly records: readonly string[];
  /** An open suite to add the case to; null writes a new suite for the inputs on screen. */
  readonly suite: string | null;
}

/** The suites open after an open, run on the inputs on screen; `issues` name the file, line and field of each refused. */
export type OpenSuitesResult =
  | { readonly ok: true; readonly view: TestsView }
  | { readonly ok: false; readonly issues: readonly InputIssue[]; readonly view: TestsView };

export type ContractUpdate =
  | { readonly ok: true; readonly snapshot: WorkspaceSnapshot }
  | { readonly ok: false; readonly issues: readonly InputIssue[] };

export type EvaluationExperiment = 'seed000' | 'scenario' | 'growth' | 'foundation';

export interface EvaluationProgress {
  readonly experiment: EvaluationExperiment;
  /** What the worker is doing now, e.g. "10,000 records: indexing". */
  readonly step: string;
  readonly done: number;
  readonly total: number;
}

/** A cancelled growth run keeps the sizes it finished before the cancel was seen. */
export type EvaluationOutcome<T> =
  | { readonly status: 'done'; readonly report: T; readonly elapsedMs: number }
  | { readonly status: 'failed'; readonly error: CompileError }
  | { readonly status: 'cancelled'; readonly partial: T | null };

/** Each experiment runs in its own fresh in-memory database; a new run cancels the one in progress. */
export interface EvaluationApi {
  runSeed000(onProgress: (progress: EvaluationProgress) => void): Promise<EvaluationOutcome<ScenarioComparison>>;
  /** The strategy comparison on the selected scenario, with its contract edit, controls and late changes. */
  runScenarioComparison(
    onProgress: (progress: EvaluationProgress) => void,
  ): Promise<EvaluationOutcome<ScenarioComparison>>;
  runGrowth(
    sizes: readonly EvaluationGrowthSize[],
    onProgress: (progress: EvaluationProgress) => void,
  ): Promise<EvaluationOutcome<GrowthReport>>;
  runFoundation(onProgress: (progress: EvaluationProgress) => void): Promise<EvaluationOutcome<FoundationReport>>;
  /** Takes effect at the next step boundary (between corpus sizes): a step runs synchronously. */
  cancelEvaluation(): Promise<void>;
}

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
   * Restores the workspace (`restore`, kept by the page from a worker that was lost, or else what
   * storage holds) and reports every later change to `onChange`.
   */
  /** What the last session showed for the workspace storage holds, read before the database opens; null when nothing matches it. */
  rememberedResult(): Promise<RememberedResult | null>;
  start(restore: SavedWorkspace | null, onChange: (event: WorkspaceEvent) => void): Promise<WorkspaceSnapshot>;
  select(selection: Selection): Promise<WorkspaceSnapshot>;
  /** `shownCompilation`: the compilation the page shows (its view's `compilation`), which the change marks are against. */
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
  /** The first page of every required proposition's attempts in compilation `compilation`; null when a later compilation replaced it. */
  firstEvidenceAttempts(compilation: number, audience: Audience): Promise<readonly EvidenceAttempts[] | null>;
  /** A page of one proposition's attempts in compilation `compilation`, from `offset`; null when a later compilation replaced it. */
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
  /** The receipt as an in-toto Statement v1 (canonical JSON); null when nothing has been compiled. The app offers it only in the diagnostic view. */
  statementJson(): Promise<string | null>;
  /** Validates and applies a contract edit (from the form as a value, or raw JSON text). */
  updateContract(input: { readonly value: unknown } | { readonly text: string }): Promise<ContractUpdate>;
  /** The problems of contract JSON text as typed (file, line and field), without applying it: none when Apply would take it. */
  checkContract(text: string): Promise<readonly InputIssue[]>;
  revertContract(): Promise<WorkspaceSnapshot>;
  /** Writes the whole workspace to storage again, files included (after storage was cleared under the page). */
  saveWorkspace(): Promise<WorkspaceSnapshot>;
  exportScenario(): Promise<ScenarioExport>;
  /** A record of the selected scenario as it is in force, for the record editor; refused for a record the view withholds. */
  recordForEdit(id: string, audience: Audience): Promise<EditedRecord>;
  /** Applies a record edit as a new revision, or authors a control or late change from it (src/worker/comparisons/record-editing.ts). */
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
  /** What would admit the record (excluded) or exclude it (admitted) in the last compilation, each change verified by compiling it; in the user view verified on the records it shows. */
  whatWouldChange(id: string, audience: Audience): Promise<WhatIfResponse>;
  /** Makes a suggested change to record `id` in force: an edit of the contract, or a new revision of the record (as the record editor makes one). */
  applySuggestion(
    suggestion: { readonly code: SuggestionCode; readonly args: FactArgs },
    id: string,
    audience: Audience,
  ): Promise<ContractUpdate>;
  /** Pins the last compilation as the baseline; null when nothing has been compiled. */
  pinBaseline(): Promise<BaselinePin | null>;
  clearBaseline(): Promise<void>;
  /** The pinned baseline against the last compilation (the diff `diffReceipts` makes), as a panel shows it; null when nothing is pinned. */
  baselineDiff(audience: Audience): Promise<DiffView | null>;
  /** The instants at which a record the view names enters or leaves the time gate. */
  asOfStops(audience: Audience): Promise<AsOfStops>;
  /** Sets the as-of of the contract in force (an edit) and remembers the compilation before it for `asOfDiff`. */
  stepAsOf(step: AsOfStep): Promise<ContractUpdate>;
  /** From the compilation before the last as-of step to the last compilation; null when no step was taken. */
  asOfDiff(audience: Audience): Promise<DiffView | null>;
  /** Opens expectation suites in the Tests panel and runs every open suite on the inputs on screen, as `audience` may see them. */
  openSuites(files: readonly File[], audience: Audience): Promise<OpenSuitesResult>;
  closeSuite(file: string, audience: Audience): Promise<TestsView>;
  /** An open suite's text as it was read, for the suite editor; null when none of that name is open. */
  suiteText(file: string): Promise<string | null>;
  /** The problems of suite text as typed (file, line and field), as `context-compiler test` reads it; nothing is opened. */
  checkSuite(file: string, text: string): Promise<readonly InputIssue[]>;
  /** A case stating what the inputs on screen compile to (as `audience` sees them), added to an open suite or a new one: the text and its diff; nothing is kept. */
  caseFromScreen(input: CaseFromScreen, audience: Audience): Promise<SuiteDraft>;
  /** An open suite with each case's expectations rewritten from what it observes now: the text and its diff; nothing is kept. */
  updatedSuite(file: string, audience: Audience): Promise<SuiteDraft>;
  /** The open suites run on the inputs on screen (after each compilation or change of view); null while none is open. */
  runTests(audience: Audience): Promise<TestsView | null>;
}
