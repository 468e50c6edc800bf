import { applyScenarioEdit } from '../scenarios/record-edits';
import type { SqliteCompiler } from '../adapters/sqlite/compiler';
import { validateContract } from '../core/phases/1-validate/validate';
import { inputIssue } from '../core/issues';
import type { BackgroundSaves } from './background-saves';
import { savedWorkspaceSchema, type SavedWorkspace } from './protocol';
import type { SessionTests } from './session-tests';
import { measured } from './user-timing';
import type { Workspace } from './workspace';
import type { WorkspaceLoads } from './workspace-loads';
import { storageFailureMessage, type StoredWorkspace, type WorkspaceStorage } from './workspace-storage';

export interface RestoreDeps {
  readonly compiler: SqliteCompiler;
  readonly storage: WorkspaceStorage;
  readonly workspace: Workspace;
  readonly loads: WorkspaceLoads;
  readonly saves: BackgroundSaves;
  readonly tests: SessionTests;
  /** Whether this tab writes what it holds: a second tab neither stores records nor prunes them. */
  readonly writes: boolean;
}

/**
 * Restores the workspace at start: the one the page kept when a worker before this one was lost (`restore`), or else
 * the one saved in storage. Each load's records come from the record store when it kept them, else from its files;
 * whatever no longer applies is named in the restore issues and the rest kept.
 */
export async function restoreWorkspace(
  { compiler, storage, workspace, loads, saves, tests, writes }: RestoreDeps,
  restore: SavedWorkspace | null,
): Promise<void> {
  let stored: unknown = restore;
  if (restore === null) {
    let read: StoredWorkspace;
    try {
      read = await storage.read();
    } catch (error) {
      workspace.storageState = { status: 'unavailable', message: storageFailureMessage(error) };
      return;
    }
    if (read === undefined) return;
    stored = read.workspace;
    if (read.filesMissing) {
      // Site data cleared while a page still wrote the selection: say what is missing, keep what is left.
      workspace.restoreIssues = [
        ...workspace.restoreIssues,
        inputIssue({ file: 'saved workspace', path: 'loads' }, 'SAVED_FILES_MISSING'),
      ];
      stored = stored !== null && typeof stored === 'object' ? { ...stored, loads: [] } : stored;
    }
  }
  const parsed = savedWorkspaceSchema.safeParse(stored);
  if (!parsed.success) {
    workspace.restoreIssues = [
      ...workspace.restoreIssues,
      inputIssue({ file: 'saved workspace', path: '(root)' }, 'SAVED_WORKSPACE_UNREADABLE'),
    ];
    return;
  }
  const never = new AbortController().signal;
  // Loads the saved workspace no longer names (a save that failed, a load cancelled in a crash) are dropped.
  if (writes && restore === null)
    saves.retain(parsed.data.loads.flatMap((load) => (load.stored === undefined ? [] : [load.stored])));
  for (const load of parsed.data.loads) {
    const kept = load.stored === undefined ? null : measured('cc:restore-records', () => saves.read(load.stored ?? ''));
    const restored = await loads.intake(load.files, load.baseKey, () => undefined, never, {
      index: false,
      stored: kept ?? new Map(),
    });
    if (restored.ok) {
      workspace.loads.push(load);
      // Files read again (their records were not all stored yet) are stored now, for the next reload.
      const read = new Map([...restored.value.recordFiles].filter(([file]) => !kept?.has(file)));
      if (writes) saves.storeInBackground(load, read);
    } else workspace.restoreIssues = [...workspace.restoreIssues, ...restored.error.issues];
  }
  for (const [key, value] of Object.entries(parsed.data.contractEdits)) {
    const contract = validateContract(`saved edit of ${key}`, value);
    if (contract.ok && workspace.entryOf(key)) workspace.contractEdits.set(key, contract.value);
    else if (!contract.ok) workspace.restoreIssues = [...workspace.restoreIssues, ...(contract.error.issues ?? [])];
  }
  for (const [key, edit] of Object.entries(parsed.data.recordEdits ?? {})) {
    const entry = workspace.entryOf(key);
    const applied = entry && applyScenarioEdit(entry.loaded, edit, `saved record edit of ${key}`);
    if (entry && applied?.ok) workspace.recordEdits.set(key, { base: entry.loaded, edit, loaded: applied.value });
    else if (applied && !applied.ok)
      workspace.restoreIssues = [...workspace.restoreIssues, ...(applied.error.issues ?? [])];
  }
  workspace.selection = workspace.normaliseSelection(parsed.data.selection);
  const suites = tests.readShared(parsed.data.suites);
  if (suites.ok) suites.value();
  else workspace.restoreIssues = [...workspace.restoreIssues, ...suites.error];
  // With the database on disk, the selected records' rows are already there: this finds them and writes nothing.
  if (saves.storesRecords() && workspace.currentEntry().origin === 'loaded') {
    const report = compiler.index(workspace.effective(workspace.currentEntry()).recordSet);
    performance.mark('cc:restore-index', { detail: report });
  }
}
