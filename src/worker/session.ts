import type { SqliteCompiler } from '../adapters/sqlite/compiler';
import type { Audience } from '../core/disclosure';
import type { SuiteInputs } from '../core/format/expectation';
import type { LoadedScenario } from '../core/phases/1-validate/validate';
import type { Answering } from '../shared/forwarding';
import { createComparisons } from './comparisons/comparisons';
import { checkAgainstCurrent } from './comparisons/drill-check';
import { createDrillSession } from './comparisons/drill-session';
import { createRecordEditing } from './comparisons/record-editing';
import { createWhatIf } from './comparisons/what-if';
import { createCompilations } from './compilations/compilations';
import { createTraceQuery } from './compilations/trace-query';
import { createExports } from './exports/exports';
import { createShareSession } from './exports/share-session';
import { heldLast } from './exports/shared-screen';
import type {
  CompilerApi,
  DatabaseState,
  EvaluationApi,
  LoadProgress,
  LoadResult,
  OpenSuitesResult,
  SavedWorkspace,
  Selection,
  WorkspaceEvent,
  WorkspaceSnapshot,
} from './protocol';
import { createSessionTests, type TestsScreen } from './suites/session-tests';
import { createSuiteWriting } from './suites/suite-writing';
import { createBackgroundSaves, IN_MEMORY_DATABASE } from './workspace/background-saves';
import type { BuiltinScenario } from './workspace/builtin-sources';
import { createCorpusIndex } from './workspace/corpus-index';
import type { DiskImage } from './workspace/database-image';
import type { NamedBlob, RecordsFileReader } from './workspace/file-intake';
import type { RecordStore } from './workspace/record-store';
import { createWorkspace, type Workspace } from './workspace/workspace';
import { createWorkspaceLoads } from './workspace/workspace-loads';
import { restoreWorkspace } from './workspace/workspace-restore';
import { storageFailureMessage, type ResultMemory, type WorkspaceStorage } from './workspace/workspace-storage';
import { cleared, withStorage } from './workspace/workspace-value';

export interface SessionDeps {
  readonly compiler: SqliteCompiler;
  readonly storage: WorkspaceStorage;
  readonly builtins: readonly BuiltinScenario[];
  /** Whether the compiler's database (always in memory) is kept on disk as an image, and if not why. */
  readonly database?: DatabaseState;
  /** The record store in that database, when it survives a reload: loaded records are kept there as validated. */
  readonly records?: RecordStore | null;
  /** The database's image on disk, written in the background once a load's records are stored or its corpus indexed. */
  readonly image?: DiskImage | null;
  /** How much space the browser says is left, for a message when a write did not fit. */
  readonly estimateStorage?: () => Promise<{ readonly quota?: number; readonly usage?: number }>;
  /** Where the result last shown is kept for the next boot, and the build that keys it; null keeps nothing. */
  readonly remember?: { readonly memory: ResultMemory; readonly build: string } | null;
  /** How a records file is read: in one pass unless given (the worker reads a large one in two parts at once). */
  readonly readRecords?: RecordsFileReader;
}

/**
 * The methods of the worker's API the worker entry answers itself: the evaluation, the lifeline and the remembered
 * result.
 */
export type AnsweredByEntry = keyof EvaluationApi | 'holdLifeline' | 'rememberedResult';

/**
 * What the session answers: every other method of the API with its arguments and results, except that files
 * arrive as named blobs (the entry reads `File`s into them), and `current` for the evaluation.
 */
export type SessionApi = Answering<Omit<CompilerApi, AnsweredByEntry | 'loadFiles' | 'openSuites' | 'start'>> & {
  readonly start: (
    restore?: SavedWorkspace | null,
    onChange?: ((event: WorkspaceEvent) => void) | null,
  ) => Promise<WorkspaceSnapshot>;
  readonly loadFiles: (
    files: readonly NamedBlob[],
    onProgress: (progress: LoadProgress) => void,
  ) => Promise<LoadResult>;
  readonly openSuites: (files: readonly NamedBlob[], audience: Audience) => Promise<OpenSuitesResult>;
  /**
   * The selected scenario as the compiler sees it (with the user's contract edit) and its toggles, for the Evaluation
   * view.
   */
  readonly current: () => { readonly loaded: LoadedScenario; readonly selection: Selection };
};

export type Session = ReturnType<typeof createSession>;

/**
 * Everything the worker holds, in four rooms over one workspace value (workspace/workspace-value.ts): the workspace
 * and its loads, restore and background saves (workspace/); the last compilation, its views and the trace
 * (compilations/); comparisons, the drill, record edits and what-if (comparisons/); exports and share links (exports/);
 * and the Tests panel's suites (suites/). Each is built from what exists before it, and each method of the API is
 * named once below and answered by one room. The worker entry only wires this to SQLite, IndexedDB and comlink, so
 * it can be tested in Node against the real core.
 */
export function createSession({
  compiler,
  storage,
  builtins,
  database = IN_MEMORY_DATABASE,
  records = null,
  image = null,
  estimateStorage,
  remember = null,
  readRecords,
}: SessionDeps) {
  // A second tab works on a copy: it writes nothing, so it cannot overwrite what the tab holding the database saves.
  const writes = database.kind === 'opfs' || database.saves;
  const tests = createSessionTests(compiler);
  const workspace = createWorkspace({
    storage,
    builtins,
    database,
    saves: writes,
    estimateStorage,
    suites: tests.saved,
  });
  // Every open or close of a suite is saved with the workspace; the suites run on the inputs on screen.
  const screen: TestsScreen = { inputs: workspace.current, changed: () => void workspace.persist() };
  const writing = createSuiteWriting({
    compiler,
    current: workspace.current,
    inputs: () => suiteInputsOf(workspace),
    documents: () => tests.runs.documents(),
  });
  const corpus = createCorpusIndex({ compiler });
  const saves = createBackgroundSaves({ records, image, corpus, workspace, estimateStorage });
  const compilations = createCompilations({ compiler, workspace, corpus, remember, saves: writes });
  const comparisons = createComparisons({ sha256: compiler.sha256, workspace, compilations });
  const drill = createDrillSession({
    lastReceipt: () => heldLast(workspace, compilations.last()),
    check: checkAgainstCurrent({ compiler, workspace, compilations }),
  });
  const editing = createRecordEditing({ sha256: compiler.sha256, workspace, compilations });
  const whatIf = createWhatIf({ sha256: compiler.sha256, workspace, compilations, records: editing });
  const trace = createTraceQuery({ compilations, comparisons });
  const exports = createExports({ sha256: compiler.sha256, workspace, compilations, tests });
  const loads = createWorkspaceLoads({
    compiler,
    workspace,
    corpus,
    saves,
    readRecords,
    keepSuite: (suite, text) => tests.runs.keep(suite, text),
    inputsReplaced: drill.inputsReplaced,
    keepReceipts: drill.keepReceipts,
    reindexLast: compilations.reindexLast,
  });
  const sharing = createShareSession({ compiler, workspace, loads, tests, comparisons, drill });

  return {
    /** `onChange` hears of every change after the workspace is restored. */
    async start(
      restore: SavedWorkspace | null = null,
      onChange: ((event: WorkspaceEvent) => void) | null = null,
    ): Promise<WorkspaceSnapshot> {
      workspace.listen(onChange);
      await restoreWorkspace(
        { compiler, storage, workspace, loads, saves, readSuites: tests.readShared, writes },
        restore,
      );
      workspace.notify();
      return workspace.snapshot();
    },
    current: workspace.current,

    // The workspace and its loads.
    select: (selection) => {
      const { snapshot, replaced } = workspace.select(selection);
      // Other inputs were selected: the drill's declared changes do not carry over.
      if (replaced) drill.inputsReplaced();
      return snapshot;
    },
    updateContract: (input) => workspace.updateContract(input),
    checkContract: (text) => workspace.checkContract(text),
    revertContract: () => workspace.revertContract(),
    saveWorkspace: () => workspace.saveWorkspace(),
    loadFiles: (files, onProgress) => loads.loadFiles(files, onProgress),
    cancelLoad: () => loads.cancelLoad(),
    async resetWorkspace(): Promise<WorkspaceSnapshot> {
      workspace.update(cleared);
      compilations.forget();
      comparisons.clear();
      drill.reset();
      tests.runs.clear();
      saves.clearNotice();
      try {
        if (writes) {
          saves.clear();
          await storage.clear();
        }
        workspace.update((value) => withStorage(value, { status: 'persistent' }));
      } catch (error) {
        workspace.update((value) =>
          withStorage(value, { status: 'unavailable', message: storageFailureMessage(error) }),
        );
      }
      workspace.notify();
      return workspace.snapshot();
    },

    // Compilations, their views and the trace.
    compile: (audience, shownCompilation?) => compilations.compile(audience, shownCompilation),
    disclose: (audience) => compilations.disclose(audience),
    awaitBaselines: (compilation, onProgress) => compilations.awaitBaselines(compilation, onProgress),
    firstEvidenceAttempts: (compilation, audience) => compilations.firstEvidenceAttempts(compilation, audience),
    evidenceAttempts: (compilation, proposition, audience, offset) =>
      compilations.evidenceAttempts(compilation, proposition, audience, offset),
    inspectRecord: (id, audience) => compilations.inspectRecord(id, audience),
    queryTrace: (query) => trace.queryTrace(query),

    // Comparisons, the drill, record edits and what-if.
    diffReceipts: (before, after, audience) => comparisons.diffReceipts(before, after, audience),
    pinBaseline: () => comparisons.pinBaseline(),
    clearBaseline: () => comparisons.clearBaseline(),
    baselineDiff: (audience) => comparisons.baselineDiff(audience),
    asOfStops: (audience) => comparisons.asOfStops(audience),
    stepAsOf: (step) => comparisons.stepAsOf(step),
    asOfDiff: (audience) => comparisons.asOfDiff(audience),
    freezeReceipt: () => drill.freeze(),
    declareLateChange: (id) => drill.declare(id),
    attemptContinue: () => drill.attempt(),
    resetDrill: () => drill.reset(),
    /** The receipts the last load brought, judged again against the inputs in force now. */
    checkReceipts: () => drill.checkReceipts(),
    recordForEdit: (id, audience) => editing.recordForEdit(id, audience),
    editRecord: (input, audience) => editing.editRecord(input, audience),
    undoRecordEdit: () => editing.undoRecordEdit(),
    redoRecordEdit: () => editing.redoRecordEdit(),
    whatWouldChange: (id, audience) => whatIf.whatWouldChange(id, audience),
    applySuggestion: (suggestion, id, audience) => whatIf.applySuggestion(suggestion, id, audience),

    // Exports and share links.
    receiptJson: () => exports.receiptJson(),
    packetJson: (audience) => exports.packetJson(audience),
    userViewJson: () => exports.userViewJson(),
    statementJson: () => exports.statementJson(),
    exportScenario: () => exports.exportScenario(),
    createShareLink: (shown?) => sharing.createShareLink(shown),
    checkShareLink: (fragment) => sharing.checkShareLink(fragment),
    openShareLink: (fragment) => sharing.openShareLink(fragment),

    // The Tests panel.
    openSuites: (files, audience) => tests.openSuites(files, audience, screen),
    closeSuite: (file, audience) => tests.closeSuite(file, audience, screen),
    runTests: (audience) => tests.runTests(audience, screen),
    suiteText: (file) => tests.suiteText(file),
    checkSuite: (file, text) => tests.checkSuite(file, text),
    caseFromScreen: (input, audience) => writing.caseFromScreen(input, audience),
    updatedSuite: (file, audience) => writing.updatedSuite(file, audience),
  } satisfies SessionApi;
}

/**
 * How a suite names the inputs on screen: an unedited built-in scenario by its id, else the file "Export scenario"
 * writes.
 */
function suiteInputsOf(workspace: Workspace): SuiteInputs {
  const entry = workspace.currentEntry();
  return entry.origin === 'builtin' && !workspace.value().contractEdits.has(entry.key)
    ? { scenario: entry.key }
    : { scenarioFile: `${workspace.effective(entry).scenario.id}.scenario.json` };
}
