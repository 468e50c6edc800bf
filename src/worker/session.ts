import { canonicalJson } from '../core/canonical';
import type { Compiler, CompileRequest } from '../core/compile';
import { discloseOutcome, isWithheldFromUser, type Audience, type DisclosedView } from '../core/disclosure';
import { drill, receiptIntegrity, type ReceiptVerdict } from '../core/drill';
import type { CompileError, InputIssue, Result } from '../core/errors';
import type { Contract } from '../core/format/contract';
import type { Control, LateChange } from '../core/format/scenario';
import { parseContractJson, validateContract, type LoadedScenario, type RecordSet } from '../core/passes/validate';
import { packetWithManifest, serialiseReceipt } from '../core/passes/attest';
import { factContextOf, REASONS, type FactContext } from '../core/reasons';
import { diffReceipts, discloseDiff, type ReceiptDiff } from '../core/receipt-diff';
import { describeDiff } from '../core/receipt-diff-text';
import { parseReceiptJson } from '../core/passes/validate';
import { receiptStatement, serialiseStatement } from '../core/statement';
import type { Baselines, Receipt, TraceRow } from '../core/result';
import type { Resolution } from '../core/passes/resolve';
import { buildUserView, serialiseUserView, type UserView } from '../core/user-view';
import { prepareScenario } from '../scenarios/prepare';
import type { BuiltinScenario } from './builtin-sources';
import { intakeFiles, LoadCancelled, type NamedBlob, type RecordsFileReader } from './file-intake';
import { decodeShareFragment, encodeShareFragment, MAX_SHARE_FRAGMENT_CHARS, MAX_SHARED_FILE_BYTES, tooManyFileBytes, type SharedWorkspace } from './share-link';
import {
  savedWorkspaceSchema,
  type AsOfStep,
  type AsOfStops,
  type BaselinePin,
  type InspectResponse,
  type TraceChange,
  type CompileResponse,
  type CompileView,
  type DatabaseState,
  DIFF_VIEW_LINES,
  type DiffView,
  type ReceiptCheck,
  type ReceiptDiffResponse,
  type ReceiptText,
  type ContractUpdate,
  type DrillState,
  type EvidenceAttempts,
  type LoadProgress,
  type LoadResult,
  type SavedLoad,
  type SavedWorkspace,
  type ScenarioExport,
  type ShareCheck,
  type ShareLinkResult,
  type ShareOpenResult,
  type ScenarioSummary,
  type Selection,
  type StorageState,
  type TracePage,
  type TraceQuery,
  type VerdictView,
  type WorkspaceEvent,
  type WorkspaceSnapshot,
} from './protocol';
import { filterAndSortTrace, traceWindow } from './trace-windows';
import { appliedChanges, compileView, type Compiled } from './compile-view';
import { asOfStops, evidenceAttempts, inspectRecord, resolutionOf, steppedAsOf, traceChanges, type ViewSource } from './debug-views';
import { measured, measuredAsync } from './user-timing';
import { databaseFullMessage, isQuotaError, workspaceFullMessage } from './quota';
import { ImageNotSaved, type DiskImage } from './database-image';
import { backgroundTask, nextTask } from './next-task';
import { createDrillSession } from './drill-session';
import { createSessionTests } from './session-tests';
import { changeTextsFor, withShownLabels } from './change-texts';
import { declaredRecords } from '../core/change-text';
import { genericLateChanges } from '../core/generic-late-changes';
import type { RecordStore } from './record-store';
import { inputsKeyOf, type ResultMemory } from './remembered-result';
import { DEFAULT_TRACE_QUERY, TRACE_PAGE_SIZE } from '../shared/trace-page';
import { STORAGE_CLEARED_MESSAGE, StorageClearedError, storageFailureMessage, type StoredWorkspace, type WorkspaceStorage } from './workspace-storage';

interface Entry {
  readonly key: string;
  readonly origin: 'builtin' | 'loaded';
  readonly loaded: LoadedScenario;
}

interface LastCompile extends Compiled {
  readonly views: Map<Audience, DisclosedView>;
  /** The naive and post-filter packets, worked out when a diagnostic view first asks for them. */
  baselines: Baselines | null;
  /** What the user view shows (its document, packet text and id), worked out when a user view first asks for it. */
  userView?: UserView;
  /** What the gates read, worked out again when a record is first inspected. */
  resolution?: Resolution | null;
  /** Per audience: the as-of stops, and the diff from the pinned receipt (each asked for after every compilation, and the diff again by the trace). */
  stops?: Map<Audience, AsOfStops>;
  pinnedDiff?: { readonly pinned: Receipt; readonly byAudience: Map<Audience, ReceiptDiff> };
  /** The key of the saved workspace it was compiled from, when its result may be remembered for the next boot. */
  readonly inputsKey: string | null;
}

export interface SessionDeps {
  readonly compiler: Compiler;
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
 * How long after the last result shown it is remembered: a burst of toggles writes once, and the write (a view and
 * one trace page, well under a megabyte) never comes between a click and its result.
 */
export const REMEMBER_AFTER_MS = 1_000;

const IMAGE_NOT_SAVED: DatabaseState = {
  kind: 'memory',
  reason: 'failed',
  saves: true,
  message: 'The workspace database could not be saved on disk (its site data may have been cleared while the page was open): it is kept in memory, so a reload will read, parse and index the loaded files again, which is slower.',
};

export const IN_MEMORY_DATABASE: DatabaseState = {
  kind: 'memory',
  reason: 'unsupported',
  saves: true,
  message: 'The workspace database is kept in memory: every reload reads, parses and indexes the loaded files again, which is slower.',
};

export type Session = ReturnType<typeof createSession>;

const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])];

/**
 * Records indexed per step of a load or of the background whole-corpus index, so a toggle or a cancel sent
 * meanwhile waits for one step at most. In Node at the benchmark's text a whole-corpus step takes about 35 ms,
 * and up to about 270 ms when FTS5 merges segments in it (one step in twenty).
 */
export const INDEX_SLICE = 1_000;
/**
 * Records stored per step of the background store. Storing is not waited for by anyone, so its steps are
 * short: at 1,000 records a step took 28 ms (median) and up to 83 ms in Node at the benchmark's text, long
 * enough to delay a toggle; at 250, 6 and 34 ms, with the whole store no slower.
 */
export const STORE_SLICE = 250;
/** Below this many records the whole-corpus index is built at once: it takes less time than a round trip to show progress. */
export const BACKGROUND_CORPUS_FROM = 5_000;
/**
 * From this many records a compile or a change of view is answered without the evidence attempts, which the page
 * asks for once the result is on screen: working them out walks every record, about 25 ms at 100,000 (Node and the
 * browser's worker alike), a sixth of a toggle's click to receipt. Below it they come with the result in one answer.
 */
export const ATTEMPTS_AFTER_RESULT_FROM = 5_000;

/** A reset while the image was being saved: the save stops and leaves nothing. */
class SaveStopped extends Error {}

/**
 * Everything the worker holds: scenarios, edits, the last compilation and the drill. The worker entry
 * only wires this to SQLite, IndexedDB and comlink, so it can be tested in Node against the real core.
 */
export function createSession({ compiler, storage, builtins, database: openedIn = IN_MEMORY_DATABASE, records = null, image: disk = null, estimateStorage, remember = null, readRecords }: SessionDeps) {
  let database = openedIn;
  let image = disk;
  const saves = database.kind === 'opfs' || database.saves;
  const builtinEntries: Entry[] = [];
  const builtinIssues: InputIssue[] = [];
  for (const builtin of builtins) {
    if (builtin.result.ok) builtinEntries.push({ key: builtin.result.value.scenario.id, origin: 'builtin', loaded: builtin.result.value });
    else for (const issue of builtin.result.error.issues ?? [{ file: builtin.folder, path: '(root)', message: builtin.result.error.message }]) builtinIssues.push(issue);
  }

  let loaded = new Map<string, Entry>();
  let loads: SavedLoad[] = [];
  let contractEdits = new Map<string, Contract>();
  let selection: Selection = { scenarioKey: builtinEntries[0]?.key ?? '', controls: [], lateChanges: [] };
  let storageState: StorageState = { status: 'persistent' };
  let databaseNotice: string | null = null;
  let restoreIssues: InputIssue[] = [...builtinIssues];
  let last: LastCompile | null = null;
  let traceCache: {
    readonly source: LastCompile;
    readonly key: string;
    readonly pinned: Receipt | null;
    readonly context: FactContext;
    readonly rows: readonly TraceRow[];
    readonly total: number;
    readonly changes: ReadonlyMap<string, TraceChange>;
  } | null = null;
  // The compilation pinned as the baseline, and the one just before the last as-of step.
  let pinned: { readonly receipt: Receipt; readonly pin: BaselinePin } | null = null;
  let stepFrom: Receipt | null = null;
  let loading: AbortController | null = null;
  let compilations = 0;
  /** The scenario whose records the whole-corpus index holds in full; null while it is being built or after a load. */
  let corpusFor: string | null = null;
  let corpusJob: Promise<void> | null = null;
  let corpusProgress: LoadProgress | null = null;
  const corpusListeners = new Set<(progress: { done: number; total: number }) => void>();
  let corpusWaiters: (() => void)[] = [];
  /** The background stores of loads' records and saves of the image, one after the other. */
  let storing: Promise<void> = Promise.resolve();
  /** A save was asked for and no copy has started since. */
  let imageWanted = false;
  let rememberTimer: ReturnType<typeof setTimeout> | null = null;
  let resets = 0;

  const entries = (): Entry[] => [...builtinEntries, ...loaded.values()];
  const entryOf = (key: string): Entry | undefined => builtinEntries.find((entry) => entry.key === key) ?? loaded.get(key);

  /** The scenario as compiled: the user's contract edit in force, and generic late changes when it declares none. */
  const effective = (entry: Entry): LoadedScenario => withLateChanges(contractEdits.get(entry.key) ?? null, entry.loaded);

  const currentEntry = (): Entry => {
    const entry = entryOf(selection.scenarioKey) ?? builtinEntries[0];
    if (!entry) throw new Error('no scenario is available: the built-in scenarios failed to load');
    return entry;
  };

  const summary = (entry: Entry): ScenarioSummary => {
    const { scenario, recordSet } = effective(entry);
    const change = (item: Control | LateChange) => ({ id: item.id, label: item.label, explanation: item.explanation, records: declaredRecords(item) });
    return {
      key: entry.key,
      title: scenario.title,
      description: scenario.description,
      origin: entry.origin,
      recordCount: recordSet.records.length,
      controls: scenario.controls.map(change),
      lateChanges: scenario.lateChanges.map(change),
      lateChangesGeneric: entry.loaded.scenario.lateChanges.length === 0,
      contract: scenario.contract,
      contractEdited: contractEdits.has(entry.key),
    };
  };

  const snapshot = (): WorkspaceSnapshot => ({ scenarios: entries().map(summary), selection, storage: storageState, database, databaseNotice, restoreIssues });

  // Every open or close of a suite is saved with the workspace.
  const tests = createSessionTests(compiler, () => ({ loaded: effective(currentEntry()), selection }), () => void persist());

  const saved = (): SavedWorkspace => ({ version: 1, loads, contractEdits: Object.fromEntries(contractEdits), selection: { ...selection, controls: [...selection.controls], lateChanges: [...selection.lateChanges] }, ...tests.saved() });

  // Told after every change, saved or not: the page keeps the workspace to give a restarted worker.
  let listener: ((event: WorkspaceEvent) => void) | null = null;
  const notify = () => listener?.({ workspace: saved(), storage: storageState });

  const persist = async () => {
    // After the user's storage was cleared under the page, nothing is written again unless asked (saveWorkspace);
    // a second tab works on a copy: writing it would overwrite what the tab holding the database saves.
    if (storageState.status !== 'cleared' && saves) {
      try {
        await measuredAsync('cc:persist', () => storage.write(saved()));
        storageState = { status: 'persistent' };
      } catch (error) {
        const fileBytes = loads.reduce((sum, load) => sum + load.files.reduce((bytes, file) => bytes + file.blob.size, 0), 0);
        storageState =
          error instanceof StorageClearedError
            ? { status: 'cleared', message: STORAGE_CLEARED_MESSAGE }
            : { status: 'unavailable', message: isQuotaError(error) ? await workspaceFullMessage(fileBytes, estimateStorage) : storageFailureMessage(error) };
      }
    }
    notify();
  };
  storage.watch(() => {
    storageState = { status: 'cleared', message: STORAGE_CLEARED_MESSAGE };
    notify();
  });

  /** Keeps only ids the scenario declares, so a stale saved selection can never be refused mid-session. */
  const normaliseSelection = (wanted: Selection): Selection => {
    const entry = entryOf(wanted.scenarioKey) ?? currentEntry();
    const { scenario } = effective(entry);
    const controlIds = new Set(scenario.controls.map((control) => control.id));
    const lateIds = new Set(scenario.lateChanges.map((change) => change.id));
    return { scenarioKey: entry.key, controls: wanted.controls.filter((id) => controlIds.has(id)), lateChanges: wanted.lateChanges.filter((id) => lateIds.has(id)) };
  };

  /**
   * Reads, parses and indexes a drop, then adds its scenarios, all or nothing. Indexing goes a slice at a time
   * with a pause for other calls between slices, so a cancel is seen while indexing too (LoadCancelled).
   */
  const applyIntake = async (
    files: readonly NamedBlob[],
    baseKey: string,
    onProgress: (progress: LoadProgress) => void,
    signal: AbortSignal,
    { index = true, stored = new Map<string, RecordSet>() }: { readonly index?: boolean; readonly stored?: ReadonlyMap<string, RecordSet> } = {},
  ) => {
    const base = entryOf(baseKey) ?? currentEntry();
    const intake = await measuredAsync('cc:parse', () => intakeFiles(files, { key: base.key, loaded: effective(base) }, onProgress, signal, { stored, readRecords }));
    if (!intake.ok) return intake;
    // A restored workspace is indexed by its first compilation, and only the scenario it selects.
    for (const entry of index ? intake.value.entries : []) {
      if (signal.aborted) throw new LoadCancelled();
      corpusFor = null;
      const start = performance.now();
      try {
        for (const { done, total } of compiler.indexSteps(entry.loaded.recordSet, INDEX_SLICE)) {
          onProgress({ file: entry.loaded.scenario.id, phase: 'indexing', done, total });
          await nextTask();
          if (signal.aborted) throw new LoadCancelled();
        }
      } finally {
        performance.measure('cc:index', { start, end: performance.now() });
      }
    }
    await nextTask();
    if (signal.aborted) throw new LoadCancelled();
    for (const entry of intake.value.entries) {
      if (!index) corpusFor = null;
      loaded.set(entry.key, { key: entry.key, origin: 'loaded', loaded: entry.loaded });
      contractEdits.delete(entry.key);
    }
    return intake;
  };

  /**
   * Writes the database to its image on disk, a chunk per task. A write that fails leaves the previous image;
   * the user is told that a reload will read the files again, and how much space a full disk lacked.
   */
  const saveImage = async (): Promise<void> => {
    // The whole-corpus index, which commits a slice per task, goes first: one image then holds both.
    while (corpusJob !== null) await corpusJob;
    const disk = image;
    if (!disk) return;
    // This copy takes in every change so far: a save asked for meanwhile has nothing more to write.
    imageWanted = false;
    const start = performance.now();
    const resetsBefore = resets;
    try {
      const bytes = await disk.save(async () => {
        await backgroundTask();
        // A reset deletes what is on disk: a save begun before it must not write the old workspace back.
        if (resets !== resetsBefore) throw new SaveStopped();
      });
      performance.measure('cc:save-image', { start, end: performance.now(), detail: { bytes } });
    } catch (error) {
      const failure = error instanceof ImageNotSaved ? error : new ImageNotSaved(0, error);
      if (failure.reason instanceof SaveStopped) return;
      image = null;
      database = IMAGE_NOT_SAVED;
      databaseNotice = await databaseFullMessage(failure.reason, failure.bytes, estimateStorage);
      notify();
    }
  };

  const saveImageInBackground = (): void => {
    if (!image || imageWanted) return;
    imageWanted = true;
    storing = storing.then(async () => {
      await backgroundTask();
      if (imageWanted) await saveImage();
    });
  };

  /**
   * Keeps the validated records of a load's records files in the workspace database under the load's id, a
   * slice per task in the background, after the packet is on screen and paused while the whole-corpus index
   * is built, then saves the database's image: nothing waits for it, and a reload reads a file again only if
   * its records were not stored in full. Given up when the load leaves the workspace (reset, a share link).
   */
  const storeInBackground = (load: SavedLoad, recordFiles: ReadonlyMap<string, RecordSet>): void => {
    const store = records;
    const id = load.stored;
    // Without an image (it could not be saved) the stored records would never reach a reload.
    if (!store || !image || id === undefined || recordFiles.size === 0) return;
    storing = storing.then(async () => {
      await backgroundTask();
      const start = performance.now();
      try {
        for (const [file, recordSet] of recordFiles) {
          for (const _ of store.writeSteps(id, file, recordSet, STORE_SLICE)) {
            await backgroundTask();
            // The whole-corpus index goes first: the baseline columns are on screen waiting for it, while the
            // stored records matter only at the next reload.
            while (corpusJob !== null) await corpusJob;
            if (!loads.includes(load)) {
              store.remove(id);
              return;
            }
          }
        }
      } catch (error) {
        store.remove(id);
        databaseNotice = `The loaded records could not be kept in the workspace database (${error instanceof Error ? error.message : String(error)}): they are loaded, but a reload will read, parse and index their files again.`;
        notify();
        return;
      }
      await saveImage();
      // A worker-side marker: the reload test and the benchmark wait for it before reloading.
      performance.measure('cc:store-records', { start, end: performance.now() });
    });
  };

  /**
   * Builds the whole-corpus index for the records last compiled, a slice per task, and wakes whoever waits for
   * the baselines when it is complete. A load's sliced index interrupts it; the next compilation starts it again.
   */
  const ensureCorpusIndex = (): void => {
    if (corpusJob !== null) return;
    corpusJob = (async () => {
      try {
        // The compilation that asked answers first: the packet must not wait for even one slice.
        await nextTask();
        const steps = compiler.indexCorpusSteps(INDEX_SLICE);
        let indexed = false;
        for (;;) {
          const step = steps.next();
          if (step.done) {
            if (step.value && last) {
              corpusFor = last.scenarioKey;
              // The baselines' index is the slowest part to build again: a reload should find it (one that found it complete writes nothing).
              if (indexed) saveImageInBackground();
              const waiting = corpusWaiters;
              corpusWaiters = [];
              for (const wake of waiting) wake();
            }
            return;
          }
          indexed = true;
          corpusProgress = { file: last?.scenarioKey ?? '', phase: 'indexing', ...step.value };
          for (const listener of corpusListeners) listener(step.value);
          await nextTask();
        }
      } catch {
        // Only running out of memory could throw here: the baselines stay unavailable until the next compilation asks again.
      } finally {
        corpusJob = null;
        corpusProgress = null;
      }
    })();
  };

  /** Whether the baselines can be worked out now without indexing most of the corpus on the spot. */
  const baselinesAtHand = (compiled: LastCompile): boolean => corpusFor === compiled.scenarioKey || compiled.request.recordSet.records.length < BACKGROUND_CORPUS_FROM;

  const prepare = (lateChanges: readonly string[]): Result<CompileRequest, CompileError> =>
    prepareScenario(effective(currentEntry()), { controls: selection.controls, lateChanges });

  /** One diff for every view that compares two receipts: the core's, disclosed for the audience. */
  const disclosedDiff = (before: Receipt, after: Receipt, audience: Audience): ReceiptDiff => discloseDiff(diffReceipts(before, after), withheldIn([before, after], audience));

  /** The pinned receipt against this compilation, worked out once per audience. */
  const pinnedDiffOf = (compiled: LastCompile, pinnedReceipt: Receipt, audience: Audience): ReceiptDiff => {
    if (compiled.pinnedDiff?.pinned !== pinnedReceipt) compiled.pinnedDiff = { pinned: pinnedReceipt, byAudience: new Map() };
    let diff = compiled.pinnedDiff.byAudience.get(audience);
    if (!diff) {
      diff = disclosedDiff(pinnedReceipt, compiled.outcome.receipt, audience);
      compiled.pinnedDiff.byAudience.set(audience, diff);
    }
    return diff;
  };

  const viewSource = (compiled: LastCompile, audience: Audience): ViewSource => ({
    request: compiled.request,
    outcome: compiled.outcome,
    view: disclosed(compiled, audience),
    context: factContextOf(compiled.outcome.receipt.contract),
  });

  const disclosed = (compiled: LastCompile, audience: Audience): DisclosedView => {
    let view = compiled.views.get(audience);
    if (!view) {
      view = discloseOutcome(compiled.outcome, audience);
      compiled.views.set(audience, view);
    }
    return view;
  };

  const userViewOf = (compiled: LastCompile): UserView => (compiled.userView ??= buildUserView(compiled.outcome, disclosed(compiled, 'user')));

  /**
   * The baselines only for the diagnostic view: their whole-corpus scores are shaped by records a user may not see.
   * `answer`: the view answers the user's compile or change of view, so a large record set's attempts are left for
   * `firstEvidenceAttempts`; every other view (the baselines filled in, the result remembered) carries them.
   */
  const viewOf = (compiled: LastCompile, audience: Audience, { answer = false } = {}): CompileView => {
    if (audience === 'diagnostic' && compiled.baselines === null) {
      if (baselinesAtHand(compiled)) compiled.baselines = compiler.baselines(compiled.request, compiled.outcome);
      else ensureCorpusIndex();
    }
    const baselines = audience === 'diagnostic' ? compiled.baselines : null;
    const indexing = audience === 'diagnostic' && baselines === null ? { done: corpusProgress?.done ?? 0, total: corpusProgress?.total ?? compiled.request.recordSet.records.length } : null;
    const source = viewSource(compiled, audience);
    const attempts = answer && compiled.request.recordSet.records.length >= ATTEMPTS_AFTER_RESULT_FROM ? null : evidenceAttempts(source);
    return compileView(compiled, source, audience === 'user' ? userViewOf(compiled) : null, baselines, indexing, attempts);
  };

  /**
   * The drill and the receipt check: the receipt against the current inputs with the declared changes,
   * reperformed from its own inputs (this scenario with the controls and late changes it names).
   */
  const checkAgainstCurrent = (prior: Receipt, declaredChanges: readonly string[]): VerdictView => {
    const request = prepare(union(selection.lateChanges, declaredChanges));
    if (!request.ok) {
      return { action: 'block', code: 'CURRENT_INPUTS_FAIL_CLOSED', message: `${REASONS.CURRENT_INPUTS_FAIL_CLOSED.summary} ${request.error.message}`, priorReceiptId: prior.receiptId, currentReceiptId: null, reperformed: null, diff: null };
    }
    const own = prepareScenario(effective(currentEntry()), { controls: prior.controls, lateChanges: prior.lateChanges });
    return verdictView(drill(compiler, { ...request.value, priorReceipt: prior, declaredChanges, declaredInputs: own.ok ? own.value : null }));
  };

  const drillState = createDrillSession({ lastReceipt: () => last?.outcome.receipt ?? null, check: checkAgainstCurrent });

  /**
   * Keeps what the page shows now for the next boot, once results have stopped coming for REMEMBER_AFTER_MS; only
   * while the saved workspace is the one compiled (a change not yet compiled, or not saved, keeps nothing new).
   */
  const rememberSoon = (audience: Audience) => {
    if (remember === null || !saves) return;
    if (rememberTimer !== null) clearTimeout(rememberTimer);
    rememberTimer = setTimeout(() => {
      rememberTimer = null;
      const compiled = last;
      const key = inputsKeyOf(remember.build, saved());
      if (compiled === null || key === null || key !== compiled.inputsKey || storageState.status !== 'persistent') return;
      const view = { ...viewOf(compiled, audience), compilation: 0 };
      const shown = disclosed(compiled, audience);
      const context = factContextOf(compiled.outcome.receipt.contract);
      const rows = filterAndSortTrace(shown.rows, { ...DEFAULT_TRACE_QUERY, audience }, context);
      // A baseline pinned now is not pinned after a reload: the remembered rows mark no change against one.
      const firstPage = traceWindow(rows, shown.rows.length, context, new Map(), 0, TRACE_PAGE_SIZE);
      // A result not remembered only means the next boot waits for its compilation.
      measuredAsync('cc:remember', () => remember.memory.writeRemembered({ key, result: { view, firstPage } })).catch(() => undefined);
    }, REMEMBER_AFTER_MS);
  };

  const restoreFrom = async (restore: SavedWorkspace | null): Promise<void> => {
    let stored: unknown = restore;
    if (restore === null) {
      let read: StoredWorkspace;
      try {
        read = await storage.read();
      } catch (error) {
        storageState = { status: 'unavailable', message: storageFailureMessage(error) };
        return;
      }
      if (read === undefined) return;
      stored = read.workspace;
      if (read.filesMissing) {
        // Site data cleared while a page still wrote the selection: say what is missing, keep what is left.
        restoreIssues = [...restoreIssues, { file: 'saved workspace', path: 'loads', message: 'the loaded files were missing from browser storage (its data may have been cleared while the app was open); restored the selection and contract edits that do not depend on them' }];
        stored = stored !== null && typeof stored === 'object' ? { ...stored, loads: [] } : stored;
      }
    }
    const parsed = savedWorkspaceSchema.safeParse(stored);
    if (!parsed.success) {
      restoreIssues = [...restoreIssues, { file: 'saved workspace', path: '(root)', message: 'the saved workspace is not in a format this version reads; starting from the built-in scenarios' }];
      return;
    }
    const never = new AbortController().signal;
    // Loads the saved workspace no longer names (a save that failed, a load cancelled in a crash) are dropped.
    if (saves && restore === null) records?.retain(parsed.data.loads.flatMap((load) => (load.stored === undefined ? [] : [load.stored])));
    for (const load of parsed.data.loads) {
      const kept = load.stored === undefined ? null : measured('cc:restore-records', () => records?.read(load.stored ?? '') ?? null);
      const restored = await applyIntake(load.files, load.baseKey, () => undefined, never, { index: false, stored: kept ?? new Map() });
      if (restored.ok) {
        loads.push(load);
        // Files read again (their records were not all stored yet) are stored now, for the next reload.
        const read = new Map([...restored.value.recordFiles].filter(([file]) => !kept?.has(file)));
        if (saves) storeInBackground(load, read);
      }
      else restoreIssues = [...restoreIssues, ...restored.error.issues];
    }
    for (const [key, value] of Object.entries(parsed.data.contractEdits)) {
      const contract = validateContract(`saved edit of ${key}`, value);
      if (contract.ok && entryOf(key)) contractEdits.set(key, contract.value);
      else if (!contract.ok) restoreIssues = [...restoreIssues, ...(contract.error.issues ?? [])];
    }
    selection = normaliseSelection(parsed.data.selection);
    const suites = tests.readShared(parsed.data.suites);
    if (suites.ok) suites.value();
    else restoreIssues = [...restoreIssues, ...suites.error];
    // With the database on disk, the selected records' rows are already there: this finds them and writes nothing.
    if (records !== null && currentEntry().origin === 'loaded') {
      const report = compiler.index(effective(currentEntry()).recordSet);
      performance.mark('cc:restore-index', { detail: report });
    }
  };

  return {
    ...tests.api,

    /**
     * Restores the workspace: the one the page kept when a worker before this one was lost, or else the
     * one saved in storage. `onChange` hears of every later change.
     */
    async start(restore: SavedWorkspace | null = null, onChange: ((event: WorkspaceEvent) => void) | null = null): Promise<WorkspaceSnapshot> {
      listener = onChange;
      await restoreFrom(restore);
      notify();
      return snapshot();
    },

    /**
     * The toggles' path: the compilation the page asks for next does not wait for the selection's write, which
     * took up to 300 ms while a background store was writing too. IndexedDB runs the writes (and a reset's clear)
     * in the order they were asked for; a failed write reaches the page as a workspace event.
     */
    async select(wanted: Selection): Promise<WorkspaceSnapshot> {
      const next = normaliseSelection(wanted);
      if (next.scenarioKey !== selection.scenarioKey) drillState.inputsReplaced();
      selection = next;
      void persist();
      return snapshot();
    },

    compile(audience: Audience): CompileResponse {
      // Forget the last result first: if this compilation throws, no stale receipt, packet or trace can be read or frozen.
      last = null;
      const request = prepare(selection.lateChanges);
      if (!request.ok) return { ok: false, error: request.error };
      const outcome = measured('cc:compile', () => compiler.compile(request.value));
      if (!outcome.ok) return { ok: false, error: outcome.error };
      compilations += 1;
      const compiled: LastCompile = {
        serial: compilations,
        scenarioKey: selection.scenarioKey,
        appliedChanges: appliedChanges(effective(currentEntry()).scenario, request.value),
        changes: effective(currentEntry()).scenario,
        request: request.value,
        outcome: outcome.value,
        views: new Map(),
        baselines: null,
        inputsKey: remember === null ? null : inputsKeyOf(remember.build, saved()),
      };
      // Kept only once its view is built: a throw while disclosing or in the baselines keeps nothing either.
      const view = viewOf(compiled, audience, { answer: true });
      last = compiled;
      rememberSoon(audience);
      return { ok: true, view };
    },

    disclose(audience: Audience): CompileResponse {
      if (!last) return this.compile(audience);
      rememberSoon(audience);
      return { ok: true, view: viewOf(last, audience, { answer: true }) };
    },

    /**
     * Resolves with the diagnostic view of compilation `compilation`, baselines included, once the whole-corpus
     * index is built; null if another compilation has replaced it by then. Progress goes to `onProgress`.
     */
    async awaitBaselines(compilation: number, onProgress: (progress: { done: number; total: number }) => void): Promise<CompileResponse | null> {
      if (!last || last.serial !== compilation) return null;
      if (!baselinesAtHand(last)) {
        corpusListeners.add(onProgress);
        try {
          await new Promise<void>((resolve) => {
            corpusWaiters.push(resolve);
            ensureCorpusIndex();
          });
        } finally {
          corpusListeners.delete(onProgress);
        }
      }
      if (!last || last.serial !== compilation) return null;
      rememberSoon('diagnostic');
      return { ok: true, view: viewOf(last, 'diagnostic') };
    },

    firstEvidenceAttempts(compilation: number, audience: Audience): readonly EvidenceAttempts[] | null {
      return last && last.serial === compilation ? evidenceAttempts(viewSource(last, audience)) : null;
    },

    evidenceAttempts(compilation: number, proposition: string, audience: Audience, offset: number): EvidenceAttempts | null {
      if (!last || last.serial !== compilation || !Number.isSafeInteger(offset) || offset < 0) return null;
      return evidenceAttempts(viewSource(last, audience), { proposition, offset })[0] ?? null;
    },

    queryTrace(query: TraceQuery): TracePage {
      if (!last) return { offset: 0, rows: [], matched: 0, total: 0 };
      const { offset, limit, ...filter } = query;
      const key = JSON.stringify(filter);
      // Scrolling asks for window after window of one ordering: sort once per compilation and filter.
      const pinnedReceipt = pinned?.receipt ?? null;
      if (traceCache?.source !== last || traceCache.key !== key || traceCache.pinned !== pinnedReceipt) {
        const view = disclosed(last, filter.audience);
        const context = factContextOf(last.outcome.receipt.contract);
        const changes = pinnedReceipt ? traceChanges(pinnedDiffOf(last, pinnedReceipt, filter.audience)) : new Map<string, TraceChange>();
        traceCache = { source: last, key, pinned: pinnedReceipt, context, rows: filterAndSortTrace(view.rows, filter, context), total: view.rows.length, changes };
      }
      const { rows, total, context, changes } = traceCache;
      return traceWindow(rows, total, context, changes, offset, limit);
    },

    receiptJson(): string | null {
      return last ? serialiseReceipt(last.outcome.receipt) : null;
    },

    /**
     * The packet as JSON: its entries, the fingerprinted body and the copyable text. The diagnostic one is tied
     * to its receipt; the user view's carries no digest that covers a withheld record, and says which view it is.
     */
    packetJson(audience: Audience): string | null {
      if (!last || last.outcome.status !== 'packet') return null;
      const { packet, receipt } = last.outcome;
      const common = { view: audience, packetFingerprint: receipt.packetFingerprint, contractFingerprint: receipt.contractFingerprint, tokensUsed: packet.tokensUsed, tokenBudget: packet.tokenBudget, entries: packet.entries, body: packet.body };
      if (audience === 'user') return canonicalJson({ ...common, userViewId: userViewOf(last).id, text: userViewOf(last).packetText });
      return canonicalJson({ ...common, receiptId: receipt.receiptId, text: packetWithManifest(packet, receipt) });
    },

    /** The user view as a document (docs/FORMAT.md, "User-view export"); null before the first compilation. */
    userViewJson(): string | null {
      return last ? serialiseUserView(userViewOf(last).document) : null;
    },

    /**
     * The selected scenario as a scenario file that loads back to the same receipt: the contract in force
     * (with the user's edit), the records inline, and the scenario's controls and late changes.
     */
    exportScenario(): ScenarioExport {
      const entry = currentEntry();
      const { scenario, recordSet } = effective(entry);
      const file = { id: scenario.id, title: scenario.title, description: scenario.description, contract: scenario.contract, records: recordSet.records, controls: scenario.controls, lateChanges: scenario.lateChanges, ...tests.exported() };
      return { fileName: `${scenario.id}.scenario.json`, json: `${JSON.stringify(file, null, 2)}\n`, edited: contractEdits.has(entry.key) };
    },

    statementJson(): string | null {
      if (!last) return null;
      const { outcome } = last;
      return serialiseStatement(receiptStatement(outcome.receipt, outcome.status === 'packet' ? packetWithManifest(outcome.packet, outcome.receipt) : null));
    },

    async updateContract(input: { readonly value: unknown } | { readonly text: string }): Promise<ContractUpdate> {
      const parsed = 'text' in input ? parseContractJson('contract.json', input.text) : validateContract('contract', input.value);
      if (!parsed.ok) return { ok: false, issues: parsed.error.issues ?? [{ file: 'contract', path: '(root)', message: parsed.error.message }] };
      contractEdits.set(currentEntry().key, parsed.value);
      await persist();
      return { ok: true, snapshot: snapshot() };
    },

    /** Saves the whole workspace again, files included: the way back after storage was cleared under the page. */
    async saveWorkspace(): Promise<WorkspaceSnapshot> {
      storageState = { status: 'persistent' };
      await persist();
      return snapshot();
    },

    async revertContract(): Promise<WorkspaceSnapshot> {
      contractEdits.delete(currentEntry().key);
      await persist();
      return snapshot();
    },

    async loadFiles(files: readonly NamedBlob[], onProgress: (progress: LoadProgress) => void): Promise<LoadResult> {
      loading?.abort();
      const controller = new AbortController();
      loading = controller;
      const baseKey = currentEntry().key;
      // Work on copies so a rejected or cancelled drop leaves the workspace exactly as it was.
      const before = { loaded: new Map(loaded), contractEdits: new Map(contractEdits) };
      try {
        const intake = await applyIntake(files, baseKey, onProgress, controller.signal);
        if (!intake.ok) {
          loaded = before.loaded;
          contractEdits = before.contractEdits;
          return { status: 'rejected', issues: intake.error.issues, summaries: intake.error.summaries };
        }
        const first = intake.value.entries[0];
        const suites = intake.value.suites.map((suite) => suite.loaded.file);
        for (const { loaded: suite, text } of intake.value.suites) tests.runs.keep(suite, text);
        if (!first && suites.length > 0) await persist();
        if (first) {
          databaseNotice = null;
          // Suites live in the Tests panel, not in the load they were dropped with.
          const inputs = files.filter((file) => !suites.includes(file.name));
          const dropped: SavedLoad = { baseKey, files: inputs.map(({ name, blob }) => ({ name, blob })), ...(records ? { stored: crypto.randomUUID() } : {}) };
          loads = [...loads, dropped];
          selection = { scenarioKey: first.key, controls: [], lateChanges: [] };
          drillState.inputsReplaced();
          await persist();
          storeInBackground(dropped, intake.value.recordFiles);
        }
        const receiptChecks = drillState.keepReceipts(intake.value.receipts);
        return { status: 'loaded', snapshot: snapshot(), kinds: intake.value.kinds, receiptChecks, suites };
      } catch (error) {
        loaded = before.loaded;
        contractEdits = before.contractEdits;
        if (!(error instanceof LoadCancelled)) throw error;
        // A cancelled index leaves rows of the dropped files behind: the records on screen take their place again.
        if (last) {
          compiler.index(last.request.recordSet);
          if (last.baselines === null) ensureCorpusIndex();
        }
        return { status: 'cancelled' };
      } finally {
        if (loading === controller) loading = null;
      }
    },

    cancelLoad(): void {
      loading?.abort();
    },

    /** The whole workspace (files, edits, toggles) as a link fragment, or why it cannot be one. */
    async createShareLink(): Promise<ShareLinkResult> {
      const { suites, bytes: suiteBytes } = tests.sharedSuites();
      const fileBytes = loads.reduce((sum, load) => sum + load.files.reduce((bytes, file) => bytes + file.blob.size, 0), suiteBytes);
      if (fileBytes > MAX_SHARED_FILE_BYTES) return { ok: false, message: `No link was made: ${tooManyFileBytes(fileBytes)}` };
      const shared: SharedWorkspace = {
        version: 1,
        loads: await Promise.all(loads.map(async (load) => ({ baseKey: load.baseKey, files: await Promise.all(load.files.map(async (file) => ({ name: file.name, text: await file.blob.text() }))) }))),
        contractEdits: Object.fromEntries(contractEdits),
        selection: { scenarioKey: selection.scenarioKey, controls: [...selection.controls], lateChanges: [...selection.lateChanges] },
        ...(suites === undefined ? {} : { suites }),
      };
      const fragment = await encodeShareFragment(shared);
      if (fragment.length > MAX_SHARE_FRAGMENT_CHARS) return { ok: false, message: `No link was made: it would be ${fragment.length.toLocaleString('en-GB')} characters long, over the ${MAX_SHARE_FRAGMENT_CHARS.toLocaleString('en-GB')} a share link may have. Use "Export scenario" and send the file instead.` };
      return { ok: true, fragment, fileBytes, files: loads.reduce((sum, load) => sum + load.files.length, 0), edits: contractEdits.size };
    },

    /** Decodes and validates a link without applying it, so a bad link is refused before anyone is asked to replace their work. */
    async checkShareLink(fragment: string): Promise<ShareCheck> {
      const decoded = await decodeShareFragment(fragment);
      if (!decoded.ok) return { ok: false, issues: decoded.error };
      const { loads: sharedLoads, contractEdits: edits, selection: wanted } = decoded.value;
      return { ok: true, files: sharedLoads.reduce((sum, load) => sum + load.files.length, 0), edits: Object.keys(edits).length, scenarioKey: wanted.scenarioKey };
    },

    /**
     * Replaces the workspace with the one a share link carries, all or nothing: the fragment is validated
     * like any file, every file goes through the normal intake, and any problem leaves the workspace as it was.
     */
    async openShareLink(fragment: string): Promise<ShareOpenResult> {
      const decoded = await decodeShareFragment(fragment);
      if (!decoded.ok) return { ok: false, issues: decoded.error };
      const shared = decoded.value;
      const wanted = shared.selection;
      const sharedSuites = tests.readShared(shared.suites);
      if (!sharedSuites.ok) return { ok: false, issues: sharedSuites.error };
      const before = { loaded, loads, contractEdits, selection };
      // A throw while reading a file (a worker limit) must also leave the workspace as it was.
      try {
        loaded = new Map();
        loads = [];
        contractEdits = new Map();
        let issues: InputIssue[] = [];
        const never = new AbortController().signal;
        for (const [index, load] of shared.loads.entries()) {
          if (!entryOf(load.baseKey)) {
            issues.push({ file: 'share link', path: `loads[${index}].baseKey`, message: `names scenario "${load.baseKey}", which this workspace does not have` });
            break;
          }
          const files = load.files.map((file) => ({ name: file.name, blob: new Blob([file.text], { type: 'application/json' }) }));
          const applied = await applyIntake(files, load.baseKey, () => undefined, never);
          if (!applied.ok) {
            issues = issues.concat(applied.error.issues);
            break;
          }
          loads.push({ baseKey: load.baseKey, files });
        }
        for (const [key, value] of issues.length > 0 ? [] : Object.entries(shared.contractEdits)) {
          const contract = validateContract(`share link: contract edit of ${key}`, value);
          if (!entryOf(key)) issues.push({ file: 'share link', path: `contractEdits.${key}`, message: `edits scenario "${key}", which the link does not load` });
          else if (!contract.ok) issues = issues.concat(contract.error.issues ?? [{ file: 'share link', path: `contractEdits.${key}`, message: contract.error.message }]);
          else contractEdits.set(key, contract.value);
        }
        // A control the scenario lacks would compile to another receipt than the sender's: refuse rather than drop it.
        const target = entryOf(wanted.scenarioKey);
        if (issues.length === 0 && !target) issues.push({ file: 'share link', path: 'selection.scenarioKey', message: `selects scenario "${wanted.scenarioKey}", which the link does not load` });
        if (issues.length === 0 && target) {
          const normalised = normaliseSelection(wanted);
          const dropped = [...wanted.controls.filter((id) => !normalised.controls.includes(id)), ...wanted.lateChanges.filter((id) => !normalised.lateChanges.includes(id))];
          if (dropped.length > 0) issues.push({ file: 'share link', path: 'selection', message: `switches on ${dropped.join(', ')}, which scenario "${wanted.scenarioKey}" does not declare` });
        }
        if (issues.length > 0) {
          ({ loaded, loads, contractEdits, selection } = before);
          return { ok: false, issues };
        }
      } catch (error) {
        ({ loaded, loads, contractEdits, selection } = before);
        throw error;
      }
      selection = normaliseSelection(wanted);
      sharedSuites.value();
      drillState.inputsReplaced();
      pinned = null;
      stepFrom = null;
      await persist();
      return { ok: true, snapshot: snapshot() };
    },

    freezeReceipt: (): DrillState => drillState.freeze(),
    declareLateChange: (id: string): DrillState => drillState.declare(id),
    attemptContinue: (): VerdictView | null => drillState.attempt(),
    resetDrill: (): DrillState => drillState.reset(),
    /** The receipts the last load brought, judged again against the inputs in force now. */
    checkReceipts: (): ReceiptCheck[] => drillState.checkReceipts(),

    /** The selected scenario as the compiler sees it (with the user's contract edit) and its toggles, for the Evaluation view. */
    current(): { readonly loaded: LoadedScenario; readonly selection: Selection } {
      return { loaded: effective(currentEntry()), selection };
    },

    diffReceipts(before: ReceiptText, after: ReceiptText, audience: Audience): ReceiptDiffResponse {
      const parsed = [parseReceiptJson(before.name, before.text), parseReceiptJson(after.name, after.text)];
      // Checked first, as every reader of a receipt does: one that is not this engine's, or not what its id hashes, is not compared.
      const issues = parsed.flatMap((result, index) => {
        if (!result.ok) return result.error.issues ?? [];
        const unusable = receiptIntegrity(result.value);
        return unusable ? [{ file: [before, after][index]?.name ?? '', path: 'receiptId', message: `${unusable.code}: ${REASONS[unusable.code].summary} ${unusable.detail}` }] : [];
      });
      const [first, second] = parsed;
      if (!first?.ok || !second?.ok || issues.length > 0) return { ok: false, issues };
      const diff = disclosedDiff(first.value, second.value, audience);
      return { ok: true, diff, view: diffView(diff) };
    },

    inspectRecord(id: string, audience: Audience): InspectResponse {
      if (!last) return { ok: false, message: 'Nothing has been compiled yet.' };
      if (last.resolution === undefined) last.resolution = resolutionOf(last.request);
      if (last.resolution === null) return { ok: false, message: `No record "${id}" in this view.` };
      return inspectRecord(viewSource(last, audience), last.resolution, id);
    },

    pinBaseline(): BaselinePin | null {
      if (!last) return null;
      const { receipt } = last.outcome;
      const pin: BaselinePin = { scenarioTitle: effective(entryOf(last.scenarioKey) ?? currentEntry()).scenario.title, asOf: last.request.contract.asOf, outcome: receipt.outcome, selected: receipt.selected.length };
      pinned = { receipt, pin };
      return pin;
    },

    clearBaseline(): void {
      pinned = null;
    },

    baselineDiff(audience: Audience): DiffView | null {
      return pinned && last ? diffView(pinnedDiffOf(last, pinned.receipt, audience)) : null;
    },

    asOfStops(audience: Audience): AsOfStops {
      if (!last) return { asOf: null, before: [], after: [], total: 0, lockedBy: null };
      last.stops ??= new Map();
      let stops = last.stops.get(audience);
      if (!stops) {
        const shown = withShownLabels(last.appliedChanges, changeTextsFor(last.changes, last.request, disclosed(last, audience)));
        stops = asOfStops(viewSource(last, audience), shown);
        last.stops.set(audience, stops);
      }
      return stops;
    },

    async stepAsOf(step: AsOfStep): Promise<ContractUpdate> {
      const { contract } = effective(currentEntry()).scenario;
      const asOf = steppedAsOf(contract.asOf, step);
      if (asOf === null) return { ok: false, issues: [{ file: 'as-of step', path: 'asOf', message: `cannot step the as-of ${contract.asOf} by ${JSON.stringify(step)}` }] };
      const before = last?.outcome.receipt ?? null;
      const update = await this.updateContract({ value: { ...contract, asOf } });
      if (update.ok) stepFrom = before;
      return update;
    },

    asOfDiff(audience: Audience): DiffView | null {
      return stepFrom && last ? diffView(disclosedDiff(stepFrom, last.outcome.receipt, audience)) : null;
    },

    async resetWorkspace(): Promise<WorkspaceSnapshot> {
      loaded = new Map();
      loads = [];
      contractEdits = new Map();
      restoreIssues = [...builtinIssues];
      selection = { scenarioKey: builtinEntries[0]?.key ?? '', controls: [], lateChanges: [] };
      last = null;
      pinned = null;
      stepFrom = null;
      drillState.reset();
      tests.runs.clear();
      databaseNotice = null;
      if (rememberTimer !== null) clearTimeout(rememberTimer);
      rememberTimer = null;
      try {
        if (saves) {
          resets += 1;
          imageWanted = false;
          records?.clear();
          image?.clear();
          await storage.clear();
        }
        storageState = { status: 'persistent' };
      } catch (error) {
        storageState = { status: 'unavailable', message: storageFailureMessage(error) };
      }
      notify();
      return snapshot();
    },
  };
}

const generic = new WeakMap<LoadedScenario, WeakMap<Contract, LoadedScenario>>();

/**
 * `loaded` with `edit` as its contract, and with late changes worked out from its inputs when it declares none
 * (src/core/generic-late-changes.ts), so the fire drill works on a user's own records. Kept per scenario and contract:
 * the same inputs give the same object, so views compare by identity.
 */
function withLateChanges(edit: Contract | null, loaded: LoadedScenario): LoadedScenario {
  const contract = edit ?? loaded.scenario.contract;
  if (loaded.scenario.lateChanges.length > 0) return edit ? { scenario: { ...loaded.scenario, contract }, recordSet: loaded.recordSet } : loaded;
  let byContract = generic.get(loaded);
  if (!byContract) generic.set(loaded, (byContract = new WeakMap()));
  let scenario = byContract.get(contract);
  if (!scenario) byContract.set(contract, (scenario = { scenario: { ...loaded.scenario, contract, lateChanges: genericLateChanges(contract, loaded.recordSet) }, recordSet: loaded.recordSet }));
  return scenario;
}

/** What a panel shows of a diff: its sections, a bounded number of lines each. */
export function diffView(diff: ReceiptDiff): DiffView {
  return { before: diff.before, after: diff.after, identical: diff.identical, firstDifference: diff.firstDifference, sections: describeDiff(diff, DIFF_VIEW_LINES) };
}

/** A verdict for the panels: the diffs become bounded views, one per audience. */
function verdictView({ diff, userDiff, mismatch: _mismatch, ...verdict }: ReceiptVerdict): VerdictView {
  return { ...verdict, diff: diff && userDiff ? { diagnostic: diffView(diff), user: diffView(userDiff) } : null };
}

/** Ids the user view withholds on either side of a comparison (each row lists every gate it fails); none in the diagnostic view. */
function withheldIn(receipts: readonly Receipt[], audience: Audience): Set<string> {
  const withheld = new Set<string>();
  if (audience === 'user') for (const receipt of receipts) for (const row of receipt.trace) if (isWithheldFromUser(row)) withheld.add(row.id);
  return withheld;
}
