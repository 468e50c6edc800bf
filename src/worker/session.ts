import type { SqliteCompiler } from '../adapters/sqlite/compiler';
import type { LoadedScenario } from '../core/phases/1-validate/validate';
import { createBackgroundSaves, IN_MEMORY_DATABASE } from './background-saves';
import type { BuiltinScenario } from './builtin-sources';
import { createComparisons } from './comparisons';
import { createCompilations } from './compilations';
import { createCorpusIndex } from './corpus-index';
import type { DiskImage } from './database-image';
import { checkAgainstCurrent } from './drill-check';
import { createDrillSession } from './drill-session';
import { createExports } from './exports';
import type { RecordsFileReader } from './file-intake';
import type {
  DatabaseState,
  DrillState,
  ReceiptCheck,
  SavedWorkspace,
  Selection,
  VerdictView,
  WorkspaceEvent,
  WorkspaceSnapshot,
} from './protocol';
import type { RecordStore } from './record-store';
import { createRecordEditing } from './record-editing';
import { createRememberSoon } from './remember-soon';
import type { ResultMemory } from './workspace-storage';
import { createSessionTests } from './session-tests';
import { createSuiteWriting } from './suite-writing';
import { createShareSession } from './share-session';
import { heldLast } from './shared-screen';
import { createTraceQuery } from './trace-query';
import { createWhatIf } from './what-if';
import { createWorkspace, type Workspace } from './workspace';
import type { SuiteInputs } from '../core/format/expectation';
import { createWorkspaceLoads } from './workspace-loads';
import { restoreWorkspace } from './workspace-restore';
import { storageFailureMessage, type WorkspaceStorage } from './workspace-storage';

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

export type Session = ReturnType<typeof createSession>;

/**
 * Everything the worker holds, composed of modules that each own one job: the workspace, its loads and restore,
 * the background saves and whole-corpus index, the last compilation and its views, comparisons, the trace, exports,
 * share links, the drill and the Tests panel. The worker entry only wires this to SQLite, IndexedDB and comlink, so
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
  const workspace = createWorkspace({
    storage,
    builtins,
    saves: writes,
    estimateStorage,
    database: () => saves.state(),
    suites: () => tests.saved(),
    inputsReplaced: () => drill.inputsReplaced(),
  });
  // Every open or close of a suite is saved with the workspace.
  const tests = createSessionTests(compiler, workspace.current, () => void workspace.persist());
  const writing = createSuiteWriting({
    compiler,
    current: workspace.current,
    inputs: () => suiteInputsOf(workspace),
    documents: () => tests.runs.documents(),
  });
  const corpus = createCorpusIndex({
    compiler,
    lastScenario: () => compilations.last()?.scenarioKey ?? null,
    built: () => saves.saveImageInBackground(),
  });
  const saves = createBackgroundSaves({
    database,
    records,
    image,
    corpus,
    holds: (load) => workspace.loads.includes(load),
    changed: workspace.notify,
    estimateStorage,
  });
  const remembering = createRememberSoon({ remember, saves: writes, workspace, compilations: () => compilations });
  const compilations = createCompilations({
    compiler,
    workspace,
    corpus,
    inputsKey: remembering.inputsKey,
    shown: remembering.soon,
  });
  const comparisons = createComparisons({ workspace, compilations });
  const drill = createDrillSession({
    lastReceipt: () => heldLast(workspace, compilations.last()),
    check: checkAgainstCurrent({ compiler, workspace, compilations }),
  });
  const editing = createRecordEditing({ workspace, compilations });
  const loads = createWorkspaceLoads({ compiler, workspace, corpus, saves, compilations, tests, drill, readRecords });

  return {
    ...tests.api,
    ...writing,
    ...workspace.api,
    ...compilations.api,
    ...comparisons.api,
    ...loads.api,
    ...createTraceQuery({ compilations, comparisons }),
    ...createExports({ workspace, compilations, tests }),
    ...editing,
    ...createShareSession({ compiler, workspace, loads, tests, comparisons, drill }),
    ...createWhatIf({ workspace, compilations, records: editing }).api,

    /** `onChange` hears of every change after the workspace is restored. */
    async start(
      restore: SavedWorkspace | null = null,
      onChange: ((event: WorkspaceEvent) => void) | null = null,
    ): Promise<WorkspaceSnapshot> {
      workspace.listen(onChange);
      await restoreWorkspace({ compiler, storage, workspace, loads, saves, tests, writes }, restore);
      workspace.notify();
      return workspace.snapshot();
    },

    freezeReceipt: (): DrillState => drill.freeze(),
    declareLateChange: (id: string): DrillState => drill.declare(id),
    attemptContinue: (): Promise<VerdictView | null> => drill.attempt(),
    resetDrill: (): DrillState => drill.reset(),
    /** The receipts the last load brought, judged again against the inputs in force now. */
    checkReceipts: (): Promise<ReceiptCheck[]> => drill.checkReceipts(),

    /** The selected scenario as the compiler sees it (with the user's contract edit) and its toggles, for the Evaluation view. */
    current: (): { readonly loaded: LoadedScenario; readonly selection: Selection } => workspace.current(),

    async resetWorkspace(): Promise<WorkspaceSnapshot> {
      workspace.clear();
      compilations.forget();
      comparisons.clear();
      drill.reset();
      tests.runs.clear();
      saves.clearNotice();
      remembering.cancel();
      try {
        if (writes) {
          saves.clear();
          await storage.clear();
        }
        workspace.storageState = { status: 'persistent' };
      } catch (error) {
        workspace.storageState = { status: 'unavailable', message: storageFailureMessage(error) };
      }
      workspace.notify();
      return workspace.snapshot();
    },
  };
}

/** How a suite names the inputs on screen: an unedited built-in scenario by its id, else the file "Export scenario" writes. */
function suiteInputsOf(workspace: Workspace): SuiteInputs {
  const entry = workspace.currentEntry();
  return entry.origin === 'builtin' && !workspace.contractEdits.has(entry.key)
    ? { scenario: entry.key }
    : { scenarioFile: `${workspace.effective(entry).scenario.id}.scenario.json` };
}
