import type { Sha256 } from '../core/fingerprints';
import type { SqliteCompiler } from '../adapters/sqlite/compiler';
import type { Audience } from '../core/disclosure';
import type { SuiteInputs } from '../core/format/expectation';
import type { LoadedScenario } from '../core/phases/1-validate/validate';
import { callByName, forwarding, type Answering } from '../shared/forwarding';
import { createComparisons } from './comparisons/comparisons';
import { checkAgainstCurrent } from './comparisons/drill-check';
import { createDrillSession } from './comparisons/drill-session';
import { createRecordEditing } from './comparisons/record-editing';
import { createWhatIf } from './comparisons/what-if';
import { createCompilations } from './compilations/compilations';
import { createTraceQuery } from './compilations/compile-view';
import { createExports } from './exports/exports';
import { createShareSession } from './exports/share-session';
import { heldLast } from './exports/shared-screen';
import type {
  CompilerApi,
  DatabaseState,
  EvaluationApi,
  RememberedResult,
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
import { cleared, createWorkspace, withStorage, type Workspace } from './workspace/workspace';
import { createWorkspaceLoads } from './workspace/workspace-loads';
import { restoreWorkspace } from './workspace/workspace-restore';
import { storageFailureMessage, type ResultMemory, type WorkspaceStorage } from './workspace/workspace-storage';

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
 * The methods of the worker's API `startWorker` answers itself: the evaluation, the lifeline and the remembered result.
 */
type AnsweredByEntry = keyof EvaluationApi | 'holdLifeline' | 'rememberedResult';

/**
 * What the session answers: every other method of the API with its arguments and results, except that files
 * arrive as named blobs (`startWorker` reads `File`s into them), and `current` for the evaluation.
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
 * Everything the worker holds, in four rooms over one workspace value (workspace/workspace.ts): the workspace
 * and its loads, restore and background saves (workspace/); the last compilation, its views and the trace
 * (compilations/); comparisons, the drill, record edits and what-if (comparisons/); exports and share links (exports/);
 * and the Tests panel's suites (suites/). Each is built from what exists before it, and each method of the API is
 * named once below and answered by one room. `startWorker` puts it behind the worker's API; the worker entry
 * (compiler.worker.ts) only wires both to SQLite, IndexedDB and comlink, so they are tested in Node against the real
 * core.
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

export interface WorkerStartDeps {
  /** The SHA-256, once it has started: the remembered result's key is a SHA-256, and the session hashes too. */
  readonly sha256: Promise<Sha256>;
  /** The result the last session showed for the workspace storage holds; null when nothing matches it. */
  readonly readRemembered: (sha256: Sha256) => Promise<RememberedResult | null>;
  /** Opens the database and builds the session over it. */
  readonly openSession: (sha256: Sha256) => Promise<Session>;
  /** The Evaluation view's experiments, on the scenario the session has selected. */
  readonly evaluation: (
    currentScenario: () => Promise<{ readonly loaded: LoadedScenario; readonly selection: Selection }>,
  ) => EvaluationApi;
  /** Where the lifeline's lock is held (the worker's `navigator.locks`). */
  readonly locks: { request(name: string, whileHeld: () => Promise<never>): Promise<unknown> };
}

/**
 * The worker's API (protocol.ts) over a session that is still opening: what it answers itself (the lifeline, the
 * remembered result, the evaluation) at once, and every other method once the session is open and, after `start`,
 * restored.
 */
export function startWorker({ sha256, readRemembered, openSession, evaluation, locks }: WorkerStartDeps): CompilerApi {
  const remembered = sha256.then(readRemembered);
  // The image is restored in one long task: the remembered result is read first, so the page is not kept waiting behind
  // it.
  const ready = Promise.all([remembered, sha256]).then(([, started]) => openSession(started));
  // A failed start (SQLite could not load) reaches the page through each call that awaits it, not as an unhandled
  // rejection.
  ready.catch(() => undefined);
  // Every call after `start` waits until the workspace is restored: a click sent to a restarted worker must not act on
  // a half-restored one.
  let started: Promise<Session> | null = null;
  const session = (): Promise<Session> => started ?? ready;

  /**
   * What is answered here; every other method of the API is the session's, asked once the workspace is
   * restored.
   */
  const own = {
    ...evaluation(async () => (await session()).current()),
    // Answered before SQLite loads, so the page can watch this worker from its first moment.
    holdLifeline: (name: string) =>
      new Promise<void>((held, refused) => {
        locks
          .request(name, () => {
            held();
            return new Promise<never>(() => undefined);
          })
          .catch(refused);
      }),
    rememberedResult: () => remembered,
    start: (restore: SavedWorkspace | null, onChange: (event: WorkspaceEvent) => void) => {
      const restoring = ready.then(async (opened) => ({ opened, snapshot: await opened.start(restore, onChange) }));
      started = restoring.then(({ opened }) => opened);
      started.catch(() => undefined);
      return restoring.then(({ snapshot }) => snapshot);
    },
    // Files cross as File objects; the session reads named blobs.
    loadFiles: async (files: readonly File[], onProgress: (progress: LoadProgress) => void) =>
      (await session()).loadFiles(
        files.map((file) => ({ name: file.name, blob: file })),
        onProgress,
      ),
    openSuites: async (files: readonly File[], audience: Audience) =>
      (await session()).openSuites(
        files.map((file) => ({ name: file.name, blob: file })),
        audience,
      ),
  } satisfies Pick<CompilerApi, AnsweredByEntry | 'start' | 'loadFiles' | 'openSuites'>;

  // Checked here, not at run time: the session answers every other method with the API's arguments and results.
  const answers: (session: Session) => Answering<Omit<CompilerApi, keyof typeof own>> = (opened) => opened;

  return forwarding<CompilerApi>((name, args) =>
    Object.hasOwn(own, name)
      ? callByName(own, name, args)
      : session().then((opened) => callByName(answers(opened), name, args)),
  );
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
