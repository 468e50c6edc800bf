import type { InputIssue } from '../../core/errors';
import { issuesOf } from '../../core/errors';
import { parseContractJson, validateContract, type LoadedScenario } from '../../core/phases/1-validate/validate';
import type {
  ContractUpdate,
  DatabaseState,
  SavedWorkspace,
  Selection,
  WorkspaceEvent,
  WorkspaceSnapshot,
} from '../protocol';
import { measuredAsync } from '../user-timing';
import type { BuiltinScenario } from './builtin-sources';
import { isQuotaError, workspaceFullMessage } from './quota';
import {
  STORAGE_CLEARED_MESSAGE,
  StorageClearedError,
  storageFailureMessage,
  type WorkspaceStorage,
} from './workspace-storage';
import {
  currentEntryOf,
  editedOf,
  effectiveOf,
  entryOf,
  fileBytesOf,
  initialWorkspace,
  normalisedSelection,
  savedOf,
  snapshotOf,
  withContractEdit,
  withSelection,
  withStorage,
  type Entry,
  type WorkspaceValue,
} from './workspace-value';

/** The name a contract typed in the editor is validated under, so its problems read as a contract file's do. */
const CONTRACT_TEXT = 'contract.json';

export interface WorkspaceDeps {
  readonly storage: WorkspaceStorage;
  readonly builtins: readonly BuiltinScenario[];
  /** Where the compiler's database is kept when the worker starts. */
  readonly database: DatabaseState;
  /** Whether this tab writes what it holds (a second tab works on a copy). */
  readonly saves: boolean;
  readonly estimateStorage?: () => Promise<{ readonly quota?: number; readonly usage?: number }>;
  /** The suites open in the Tests panel, as the saved workspace keeps them. */
  readonly suites: () => Pick<SavedWorkspace, 'suites'>;
}

export type Workspace = ReturnType<typeof createWorkspace>;

/**
 * The one workspace value (workspace-value.ts) and the only place it changes: `update` replaces it with what a
 * change makes of it. Every change is saved (`persist`) and told to the page (`notify`); the readers below read
 * the value in force.
 */
export function createWorkspace({ storage, builtins, database, saves, estimateStorage, suites }: WorkspaceDeps) {
  let value = initialWorkspace(builtins, database);
  // Told after every change, saved or not: the page keeps the workspace to give a restarted worker.
  let listener: ((event: WorkspaceEvent) => void) | null = null;

  const update = (change: (workspace: WorkspaceValue) => WorkspaceValue): void => {
    value = change(value);
  };
  const saved = (): SavedWorkspace => savedOf(value, suites());
  const notify = (): void => listener?.({ workspace: saved(), storage: value.storageState });
  const snapshot = (): WorkspaceSnapshot => snapshotOf(value);
  const currentEntry = (): Entry => currentEntryOf(value);

  const persist = async (): Promise<void> => {
    // After the user's storage was cleared under the page, nothing is written again unless asked (saveWorkspace);
    // a second tab works on a copy: writing it would overwrite what the tab holding the database saves.
    if (value.storageState.status !== 'cleared' && saves) {
      try {
        await measuredAsync('cc:persist', () => storage.write(saved()));
        update((workspace) => withStorage(workspace, { status: 'persistent' }));
      } catch (error) {
        const state =
          error instanceof StorageClearedError
            ? ({ status: 'cleared', message: STORAGE_CLEARED_MESSAGE } as const)
            : ({
                status: 'unavailable',
                message: isQuotaError(error)
                  ? await workspaceFullMessage(fileBytesOf(value), estimateStorage)
                  : storageFailureMessage(error),
              } as const);
        update((workspace) => withStorage(workspace, state));
      }
    }
    notify();
  };

  storage.watch(() => {
    update((workspace) => withStorage(workspace, { status: 'cleared', message: STORAGE_CLEARED_MESSAGE }));
    notify();
  });

  return {
    value: (): WorkspaceValue => value,
    update,
    currentEntry,
    entryOf: (key: string): Entry | undefined => entryOf(value, key),
    edited: (entry: Entry): LoadedScenario => editedOf(value, entry),
    effective: (entry: Entry): LoadedScenario => effectiveOf(value, entry),
    fileBytes: (): number => fileBytesOf(value),
    /** The selected scenario as the compiler sees it (with the user's contract edit) and its toggles. */
    current: (): { readonly loaded: LoadedScenario; readonly selection: Selection } => ({
      loaded: effectiveOf(value, currentEntryOf(value)),
      selection: value.selection,
    }),
    snapshot,
    saved,
    listen: (onChange: ((event: WorkspaceEvent) => void) | null): void => {
      listener = onChange;
    },
    notify,
    persist,

    /**
     * The toggles' path: the compilation the page asks for next does not wait for the selection's write, which
     * queues behind any background store's writes. IndexedDB runs the writes (and a reset's clear) in the order
     * they were asked for; a failed write reaches the page as a workspace event. `replaced`: another scenario is
     * selected.
     */
    select(wanted: Selection): { readonly snapshot: WorkspaceSnapshot; readonly replaced: boolean } {
      const next = normalisedSelection(value, wanted);
      const replaced = next.scenarioKey !== value.selection.scenarioKey;
      update((workspace) => withSelection(workspace, next));
      void persist();
      return { snapshot: snapshot(), replaced };
    },

    async updateContract(input: { readonly value: unknown } | { readonly text: string }): Promise<ContractUpdate> {
      const parsed =
        'text' in input ? parseContractJson(CONTRACT_TEXT, input.text) : validateContract('contract', input.value);
      if (!parsed.ok) return { ok: false, issues: issuesOf(parsed.error, { file: 'contract', path: '(root)' }) };
      update((workspace) => withContractEdit(workspace, currentEntryOf(workspace).key, parsed.value));
      await persist();
      return { ok: true, snapshot: snapshot() };
    },

    checkContract(text: string): readonly InputIssue[] {
      const parsed = parseContractJson(CONTRACT_TEXT, text);
      return parsed.ok ? [] : issuesOf(parsed.error, { file: 'contract', path: '(root)' });
    },

    /** Saves the whole workspace again, files included: the way back after storage was cleared under the page. */
    async saveWorkspace(): Promise<WorkspaceSnapshot> {
      update((workspace) => withStorage(workspace, { status: 'persistent' }));
      await persist();
      return snapshot();
    },

    async revertContract(): Promise<WorkspaceSnapshot> {
      update((workspace) => withContractEdit(workspace, currentEntryOf(workspace).key, null));
      await persist();
      return snapshot();
    },
  };
}
