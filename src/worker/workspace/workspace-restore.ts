import type { SqliteCompiler } from '../../adapters/sqlite/compiler';
import type { InputIssue, Result } from '../../core/errors';
import { inputIssue } from '../../core/issues';
import { validateContract } from '../../core/phases/1-validate/validate';
import { applyScenarioEdit } from '../../scenarios/record-edits';
import { savedWorkspaceSchema, type SavedWorkspace } from '../protocol';
import { measured } from '../user-timing';
import type { BackgroundSaves } from './background-saves';
import {
  currentEntryOf,
  effectiveOf,
  entryOf,
  withContractEdit,
  withEntries,
  withLoad,
  withRecordEdit,
  withRestoreIssues,
  withSelectionNormalised,
  withStorage,
  type Workspace,
} from './workspace';
import type { WorkspaceLoads } from './workspace-loads';
import { storageFailureMessage, type StoredWorkspace, type WorkspaceStorage } from './workspace-storage';

export interface RestoreDeps {
  readonly compiler: SqliteCompiler;
  readonly storage: WorkspaceStorage;
  readonly workspace: Workspace;
  readonly loads: WorkspaceLoads;
  readonly saves: BackgroundSaves;
  /** Reads the suites the saved workspace had open; the result opens them in the Tests panel. */
  readonly readSuites: (
    files: readonly { readonly name: string; readonly text: string }[] | undefined,
  ) => Result<() => void, InputIssue[]>;
  /** Whether this tab writes what it holds: a second tab neither stores records nor prunes them. */
  readonly writes: boolean;
}

/**
 * Restores the workspace at start: the one the page kept when a worker before this one was lost (`restore`), or else
 * the one saved in storage. Each load's records come from the record store when it kept them, else from its files;
 * whatever no longer applies is named in the restore issues and the rest kept.
 */
export async function restoreWorkspace(
  { compiler, storage, workspace, loads, saves, readSuites, writes }: RestoreDeps,
  restore: SavedWorkspace | null,
): Promise<void> {
  let stored: unknown = restore;
  if (restore === null) {
    let read: StoredWorkspace;
    try {
      read = await storage.read();
    } catch (error) {
      workspace.update((value) => withStorage(value, { status: 'unavailable', message: storageFailureMessage(error) }));
      return;
    }
    if (read === undefined) return;
    stored = read.workspace;
    if (read.filesMissing) {
      // Site data cleared while a page still wrote the selection: say what is missing, keep what is left.
      workspace.update((value) =>
        withRestoreIssues(value, [inputIssue({ file: 'saved workspace', path: 'loads' }, 'SAVED_FILES_MISSING')]),
      );
      stored = stored !== null && typeof stored === 'object' ? { ...stored, loads: [] } : stored;
    }
  }
  const parsed = savedWorkspaceSchema.safeParse(stored);
  if (!parsed.success) {
    workspace.update((value) =>
      withRestoreIssues(value, [inputIssue({ file: 'saved workspace', path: '(root)' }, 'SAVED_WORKSPACE_UNREADABLE')]),
    );
    return;
  }
  const never = new AbortController().signal;
  // Loads the saved workspace no longer names (a save that failed, a load cancelled in a crash) are dropped.
  if (writes && restore === null)
    saves.retain(parsed.data.loads.flatMap((load) => (load.stored === undefined ? [] : [load.stored])));
  for (const load of parsed.data.loads) {
    const kept = load.stored === undefined ? null : measured('cc:restore-records', () => saves.read(load.stored ?? ''));
    const restored = await loads.intake(workspace.value(), load.files, load.baseKey, () => undefined, never, {
      index: false,
      stored: kept ?? new Map(),
    });
    if (restored.ok) {
      workspace.update((value) => withLoad(withEntries(value, restored.value.entries), load));
      // Files read again (their records were not all stored yet) are stored now, for the next reload.
      const read = new Map([...restored.value.recordFiles].filter(([file]) => !kept?.has(file)));
      if (writes) saves.storeInBackground(load, read);
    } else workspace.update((value) => withRestoreIssues(value, restored.error.issues));
  }
  for (const [key, value] of Object.entries(parsed.data.contractEdits)) {
    const contract = validateContract(`saved edit of ${key}`, value);
    if (contract.ok && entryOf(workspace.value(), key))
      workspace.update((current) => withContractEdit(current, key, contract.value));
    else if (!contract.ok) workspace.update((current) => withRestoreIssues(current, contract.error.issues ?? []));
  }
  for (const [key, edit] of Object.entries(parsed.data.recordEdits ?? {})) {
    const entry = entryOf(workspace.value(), key);
    const applied = entry && applyScenarioEdit(compiler.sha256, entry.loaded, edit, `saved record edit of ${key}`);
    if (entry && applied?.ok)
      workspace.update((current) => withRecordEdit(current, key, { base: entry.loaded, edit, loaded: applied.value }));
    else if (applied && !applied.ok)
      workspace.update((current) => withRestoreIssues(current, applied.error.issues ?? []));
  }
  workspace.update((value) => withSelectionNormalised(value, parsed.data.selection));
  const suites = readSuites(parsed.data.suites);
  if (suites.ok) suites.value();
  else workspace.update((value) => withRestoreIssues(value, suites.error));
  // With the database on disk, the selected records' rows are already there: this finds them and writes nothing.
  const restored = workspace.value();
  if (saves.storesRecords() && currentEntryOf(restored).origin === 'loaded') {
    const report = compiler.index(effectiveOf(restored, currentEntryOf(restored)).recordSet);
    performance.mark('cc:restore-index', { detail: report });
  }
}
