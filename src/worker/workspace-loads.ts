import type { SqliteCompiler } from '../adapters/sqlite/compiler';
import type { RecordSet } from '../core/phases/1-validate/validate';
import type { BackgroundSaves } from './background-saves';
import type { Compilations } from './compilations';
import { INDEX_SLICE, type CorpusIndex } from './corpus-index';
import type { createDrillSession } from './drill-session';
import { intakeFiles, LoadCancelled, type NamedBlob, type RecordsFileReader } from './file-intake';
import { nextTask } from './next-task';
import type { LoadProgress, LoadResult, SavedLoad } from './protocol';
import type { SessionTests } from './session-tests';
import { measuredAsync } from './user-timing';
import type { Workspace } from './workspace';

export interface WorkspaceLoadsDeps {
  readonly compiler: SqliteCompiler;
  readonly workspace: Workspace;
  readonly corpus: CorpusIndex;
  readonly saves: BackgroundSaves;
  readonly compilations: Compilations;
  readonly tests: SessionTests;
  readonly drill: ReturnType<typeof createDrillSession>;
  /** How a records file is read: in one pass unless given (the worker reads a large one in two parts at once). */
  readonly readRecords?: RecordsFileReader;
}

export type WorkspaceLoads = ReturnType<typeof createWorkspaceLoads>;

/** Files into the workspace: a drop, a share link's files and a saved workspace's all go through `intake`. */
export function createWorkspaceLoads({
  compiler,
  workspace,
  corpus,
  saves,
  compilations,
  tests,
  drill,
  readRecords,
}: WorkspaceLoadsDeps) {
  let loading: AbortController | null = null;

  /**
   * Reads, parses and indexes a drop, then adds its scenarios, all or nothing. Indexing goes a slice at a time
   * with a pause for other calls between slices, so a cancel is seen while indexing too (LoadCancelled).
   */
  const intake = async (
    files: readonly NamedBlob[],
    baseKey: string,
    onProgress: (progress: LoadProgress) => void,
    signal: AbortSignal,
    {
      index = true,
      stored = new Map<string, RecordSet>(),
    }: { readonly index?: boolean; readonly stored?: ReadonlyMap<string, RecordSet> } = {},
  ) => {
    const base = workspace.entryOf(baseKey) ?? workspace.currentEntry();
    const read = await measuredAsync('cc:parse', () =>
      intakeFiles(files, { key: base.key, loaded: workspace.effective(base) }, onProgress, signal, {
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
    for (const entry of read.value.entries) {
      if (!index) corpus.invalidate();
      workspace.loaded.set(entry.key, { key: entry.key, origin: 'loaded', loaded: entry.loaded });
      workspace.contractEdits.delete(entry.key);
    }
    return read;
  };

  return {
    intake,
    api: {
      async loadFiles(files: readonly NamedBlob[], onProgress: (progress: LoadProgress) => void): Promise<LoadResult> {
        loading?.abort();
        const controller = new AbortController();
        loading = controller;
        const baseKey = workspace.currentEntry().key;
        // Work on copies so a rejected or cancelled drop leaves the workspace exactly as it was.
        const before = { loaded: new Map(workspace.loaded), contractEdits: new Map(workspace.contractEdits) };
        try {
          const read = await intake(files, baseKey, onProgress, controller.signal);
          if (!read.ok) {
            workspace.loaded = before.loaded;
            workspace.contractEdits = before.contractEdits;
            return { status: 'rejected', issues: read.error.issues, summaries: read.error.summaries };
          }
          const first = read.value.entries[0];
          const suites = read.value.suites.map((suite) => suite.loaded.file);
          for (const { loaded: suite, text } of read.value.suites) tests.runs.keep(suite, text);
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
            workspace.loads = [...workspace.loads, dropped];
            workspace.selection = { scenarioKey: first.key, controls: [], lateChanges: [] };
            drill.inputsReplaced();
            await workspace.persist();
            saves.storeInBackground(dropped, read.value.recordFiles);
          }
          const receiptChecks = await drill.keepReceipts(read.value.receipts);
          return { status: 'loaded', snapshot: workspace.snapshot(), kinds: read.value.kinds, receiptChecks, suites };
        } catch (error) {
          workspace.loaded = before.loaded;
          workspace.contractEdits = before.contractEdits;
          if (!(error instanceof LoadCancelled)) throw error;
          // A cancelled index leaves rows of the dropped files behind: the records on screen take their place again.
          compilations.reindexLast();
          return { status: 'cancelled' };
        } finally {
          if (loading === controller) loading = null;
        }
      },

      cancelLoad(): void {
        loading?.abort();
      },
    },
  };
}
