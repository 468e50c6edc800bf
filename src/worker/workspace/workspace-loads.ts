import type { SqliteCompiler } from '../../adapters/sqlite/compiler';
import type { LoadedSuite } from '../../core/expectations/suite';
import type { RecordSet } from '../../core/phases/1-validate/validate';
import type { Receipt } from '../../core/result';
import { nextTask } from '../next-task';
import type { LoadProgress, LoadResult, ReceiptCheck, SavedLoad } from '../protocol';
import { measuredAsync } from '../user-timing';
import type { BackgroundSaves } from './background-saves';
import { INDEX_SLICE, type CorpusIndex } from './corpus-index';
import { intakeFiles, LoadCancelled, type NamedBlob, type RecordsFileReader } from './file-intake';
import {
  currentEntryOf,
  effectiveOf,
  entryOf,
  withEntries,
  withLoad,
  withSelection,
  type Workspace,
  type WorkspaceValue,
} from './workspace';

export interface WorkspaceLoadsDeps {
  readonly compiler: SqliteCompiler;
  readonly workspace: Workspace;
  readonly corpus: CorpusIndex;
  readonly saves: BackgroundSaves;
  /** How a records file is read: in one pass unless given (the worker reads a large one in two parts at once). */
  readonly readRecords?: RecordsFileReader;
  /** A drop's suites open in the Tests panel, not as inputs. */
  readonly keepSuite: (suite: LoadedSuite, text: string) => void;
  /** Other inputs were loaded: the drill's declared changes do not carry over. */
  readonly inputsReplaced: () => void;
  /** The receipts a drop brought, kept and judged against the inputs now in force. */
  readonly keepReceipts: (
    receipts: readonly { readonly file: string; readonly receipt: Receipt }[],
  ) => Promise<ReceiptCheck[]>;
  /**
   * A cancelled index left rows of the dropped files in the record index: the records last compiled take their place
   * again.
   */
  readonly reindexLast: () => void;
}

export type WorkspaceLoads = ReturnType<typeof createWorkspaceLoads>;

/**
 * Files into the workspace: a drop, a share link's files and a saved workspace's all go through `intake`, which
 * reads them against a workspace value and changes none; its caller adds the scenarios it read (`withEntries`).
 */
export function createWorkspaceLoads({
  compiler,
  workspace,
  corpus,
  saves,
  readRecords,
  keepSuite,
  inputsReplaced,
  keepReceipts,
  reindexLast,
}: WorkspaceLoadsDeps) {
  let loading: AbortController | null = null;

  /**
   * Reads, parses and indexes a drop whose scenarios build on `baseKey` of `from`. Indexing goes a slice at a time
   * with a pause for other calls between slices, so a cancel is seen while indexing too (LoadCancelled).
   */
  const intake = async (
    from: WorkspaceValue,
    files: readonly NamedBlob[],
    baseKey: string,
    onProgress: (progress: LoadProgress) => void,
    signal: AbortSignal,
    {
      index = true,
      stored = new Map<string, RecordSet>(),
    }: { readonly index?: boolean; readonly stored?: ReadonlyMap<string, RecordSet> } = {},
  ) => {
    const base = entryOf(from, baseKey) ?? currentEntryOf(from);
    const read = await measuredAsync('cc:parse', () =>
      intakeFiles(compiler.sha256, files, { key: base.key, loaded: effectiveOf(from, base) }, onProgress, signal, {
        stored,
        readRecords,
      }),
    );
    if (!read.ok) return read;
    // A restored workspace is indexed by its first compilation, and only the scenario it selects.
    for (const entry of index ? read.value.entries : []) {
      if (signal.aborted) throw new LoadCancelled();
      corpus.invalidate();
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
    if (!index && read.value.entries.length > 0) corpus.invalidate();
    return read;
  };

  /**
   * Reads a drop and adds its scenarios, all or nothing: a rejected or cancelled drop leaves the workspace as it was.
   */
  const loadFiles = async (
    files: readonly NamedBlob[],
    onProgress: (progress: LoadProgress) => void,
  ): Promise<LoadResult> => {
    loading?.abort();
    const controller = new AbortController();
    loading = controller;
    const baseKey = workspace.currentEntry().key;
    try {
      const read = await intake(workspace.value(), files, baseKey, onProgress, controller.signal);
      if (!read.ok) return { status: 'rejected', issues: read.error.issues, summaries: read.error.summaries };
      const first = read.value.entries[0];
      const suites = read.value.suites.map((suite) => suite.loaded.file);
      for (const { loaded: suite, text } of read.value.suites) keepSuite(suite, text);
      if (!first && suites.length > 0) await workspace.persist();
      if (first) {
        saves.clearNotice();
        // Suites live in the Tests panel, not in the load they were dropped with.
        const inputs = files.filter((file) => !suites.includes(file.name));
        const dropped: SavedLoad = {
          baseKey,
          files: inputs.map(({ name, blob }) => ({ name, blob })),
          ...(saves.storesRecords() ? { stored: crypto.randomUUID() } : {}),
        };
        workspace.update((value) =>
          withSelection(withLoad(withEntries(value, read.value.entries), dropped), {
            scenarioKey: first.key,
            controls: [],
            lateChanges: [],
          }),
        );
        inputsReplaced();
        await workspace.persist();
        saves.storeInBackground(dropped, read.value.recordFiles);
      }
      const receiptChecks = await keepReceipts(read.value.receipts);
      return { status: 'loaded', snapshot: workspace.snapshot(), kinds: read.value.kinds, receiptChecks, suites };
    } catch (error) {
      if (!(error instanceof LoadCancelled)) throw error;
      // A cancelled index leaves rows of the dropped files behind: the records on screen take their place again.
      reindexLast();
      return { status: 'cancelled' };
    } finally {
      if (loading === controller) loading = null;
    }
  };

  return {
    intake,
    loadFiles,
    cancelLoad(): void {
      loading?.abort();
    },
  };
}
