import { declaredRecords } from '../../core/change-text';
import { issuesOf, type InputIssue } from '../../core/errors';
import type { Contract } from '../../core/format/contract';
import type { Control, LateChange } from '../../core/format/scenario';
import { genericLateChanges } from '../../core/generic-late-changes';
import { parseContractJson, validateContract, type LoadedScenario } from '../../core/phases/1-validate/validate';
import type { ScenarioEdit } from '../../scenarios/record-edits';
import type {
  ContractUpdate,
  DatabaseState,
  SavedLoad,
  SavedWorkspace,
  ScenarioSummary,
  Selection,
  StorageState,
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
 * The one workspace value (its transitions below) and the only place it changes: `update` replaces it with what a
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

export interface Entry {
  readonly key: string;
  readonly origin: 'builtin' | 'loaded';
  readonly loaded: LoadedScenario;
}

/**
 * A scenario's edit in force (comparisons/record-editing.ts), with the scenario it was made on and what applying it
 * gave.
 */
export interface EditInForce {
  readonly base: LoadedScenario;
  readonly edit: ScenarioEdit;
  readonly loaded: LoadedScenario;
}

/**
 * What the user works on, as one immutable value: the built-in and loaded scenarios, the loads that brought them,
 * contract and record edits, the selection, how storage took the last write and where the database is kept.
 * It is replaced whole, through `Workspace.update` and the transitions below, never written field by field.
 */
export interface WorkspaceValue {
  /** The built-in scenarios that loaded; they never change. */
  readonly builtins: readonly Entry[];
  /** The problems of built-in scenarios that did not load, shown with the restore issues after a reset too. */
  readonly builtinIssues: readonly InputIssue[];
  readonly loaded: ReadonlyMap<string, Entry>;
  readonly loads: readonly SavedLoad[];
  readonly contractEdits: ReadonlyMap<string, Contract>;
  readonly recordEdits: ReadonlyMap<string, EditInForce>;
  readonly selection: Selection;
  readonly storageState: StorageState;
  readonly restoreIssues: readonly InputIssue[];
  /** Where the compiler's database is kept, and what went wrong with it last (the background saves say). */
  readonly database: DatabaseState;
  readonly databaseNotice: string | null;
}

/** The built-in scenarios alone, nothing loaded or edited. */
export function initialWorkspace(builtins: readonly BuiltinScenario[], database: DatabaseState): WorkspaceValue {
  const entries: Entry[] = [];
  const issues: InputIssue[] = [];
  for (const builtin of builtins) {
    if (builtin.result.ok)
      entries.push({ key: builtin.result.value.scenario.id, origin: 'builtin', loaded: builtin.result.value });
    else
      for (const issue of issuesOf(builtin.result.error, { file: builtin.folder, path: '(root)' })) issues.push(issue);
  }
  return {
    builtins: entries,
    builtinIssues: issues,
    loaded: new Map(),
    loads: [],
    contractEdits: new Map(),
    recordEdits: new Map(),
    selection: { scenarioKey: entries[0]?.key ?? '', controls: [], lateChanges: [] },
    storageState: { status: 'persistent' },
    restoreIssues: issues,
    database,
    databaseNotice: null,
  };
}

export const entriesOf = (workspace: WorkspaceValue): Entry[] => [...workspace.builtins, ...workspace.loaded.values()];

export const entryOf = (workspace: WorkspaceValue, key: string): Entry | undefined =>
  workspace.builtins.find((entry) => entry.key === key) ?? workspace.loaded.get(key);

export function currentEntryOf(workspace: WorkspaceValue): Entry {
  const entry = entryOf(workspace, workspace.selection.scenarioKey) ?? workspace.builtins[0];
  if (!entry) throw new Error('no scenario is available: the built-in scenarios failed to load');
  return entry;
}

/**
 * The entry's scenario with its record edit, if one was made on the scenario the entry holds now (a load replaced since
 * drops it).
 */
export function editedOf(workspace: WorkspaceValue, entry: Entry): LoadedScenario {
  const edit = workspace.recordEdits.get(entry.key);
  return edit && edit.base === entry.loaded ? edit.loaded : entry.loaded;
}

/**
 * The scenario as compiled: the user's record and contract edits in force, and generic late changes when it declares
 * none.
 */
export const effectiveOf = (workspace: WorkspaceValue, entry: Entry): LoadedScenario =>
  withLateChanges(workspace.contractEdits.get(entry.key) ?? null, editedOf(workspace, entry));

/** Keeps only ids the scenario declares, so a stale saved selection can never be refused mid-session. */
export function normalisedSelection(workspace: WorkspaceValue, wanted: Selection): Selection {
  const entry = entryOf(workspace, wanted.scenarioKey) ?? currentEntryOf(workspace);
  const { scenario } = effectiveOf(workspace, entry);
  const controlIds = new Set(scenario.controls.map((control) => control.id));
  const lateIds = new Set(scenario.lateChanges.map((change) => change.id));
  return {
    scenarioKey: entry.key,
    controls: wanted.controls.filter((id) => controlIds.has(id)),
    lateChanges: wanted.lateChanges.filter((id) => lateIds.has(id)),
  };
}

export function summaryOf(workspace: WorkspaceValue, entry: Entry): ScenarioSummary {
  const { scenario, recordSet } = effectiveOf(workspace, entry);
  const change = (item: Control | LateChange) => ({
    id: item.id,
    label: item.label,
    explanation: item.explanation,
    records: declaredRecords(item),
  });
  return {
    key: entry.key,
    title: scenario.title,
    description: scenario.description,
    origin: entry.origin,
    recordCount: recordSet.records.length,
    controls: scenario.controls.map(change),
    lateChanges: scenario.lateChanges.map(change),
    lateChangesGeneric: entry.loaded.scenario.lateChanges.length === 0,
    tour: scenario.tour ?? null,
    contract: scenario.contract,
    contractEdited: workspace.contractEdits.has(entry.key),
    recordsEdited: editedOf(workspace, entry) !== entry.loaded,
  };
}

export const snapshotOf = (workspace: WorkspaceValue): WorkspaceSnapshot => ({
  scenarios: entriesOf(workspace).map((entry) => summaryOf(workspace, entry)),
  selection: workspace.selection,
  storage: workspace.storageState,
  database: workspace.database,
  databaseNotice: workspace.databaseNotice,
  restoreIssues: workspace.restoreIssues,
});

/** The workspace as storage and the page keep it, with the suites open in the Tests panel. */
export function savedOf(workspace: WorkspaceValue, suites: Pick<SavedWorkspace, 'suites'>): SavedWorkspace {
  const { selection } = workspace;
  const recordEdits = [...workspace.recordEdits].filter(([key, edit]) => entryOf(workspace, key)?.loaded === edit.base);
  return {
    version: 1,
    loads: [...workspace.loads],
    contractEdits: Object.fromEntries(workspace.contractEdits),
    ...(recordEdits.length > 0
      ? { recordEdits: Object.fromEntries(recordEdits.map(([key, edit]) => [key, edit.edit])) }
      : {}),
    selection: { ...selection, controls: [...selection.controls], lateChanges: [...selection.lateChanges] },
    ...suites,
  };
}

/** The bytes of every loaded file. */
export const fileBytesOf = (workspace: WorkspaceValue): number =>
  workspace.loads.reduce((sum, load) => sum + load.files.reduce((bytes, file) => bytes + file.blob.size, 0), 0);

// The transitions: each returns the next value and leaves the one it was given as it was.

/** A load's scenarios added (one of the same key replaced), without any contract edit the key had. */
export function withEntries(
  workspace: WorkspaceValue,
  entries: readonly { readonly key: string; readonly loaded: LoadedScenario }[],
): WorkspaceValue {
  const loaded = new Map(workspace.loaded);
  const contractEdits = new Map(workspace.contractEdits);
  for (const entry of entries) {
    loaded.set(entry.key, { key: entry.key, origin: 'loaded', loaded: entry.loaded });
    contractEdits.delete(entry.key);
  }
  return { ...workspace, loaded, contractEdits };
}

export const withLoad = (workspace: WorkspaceValue, load: SavedLoad): WorkspaceValue => ({
  ...workspace,
  loads: [...workspace.loads, load],
});

/** `selection` as given: callers normalise a selection that may name switches the scenario lacks. */
export const withSelection = (workspace: WorkspaceValue, selection: Selection): WorkspaceValue => ({
  ...workspace,
  selection,
});

/** The selection kept to the switches the scenario in force declares (a control undone is switched off with it). */
export const withSelectionNormalised = (
  workspace: WorkspaceValue,
  wanted: Selection = workspace.selection,
): WorkspaceValue => withSelection(workspace, normalisedSelection(workspace, wanted));

/** `contract` as the edit of scenario `key`; null reverts it. */
export function withContractEdit(workspace: WorkspaceValue, key: string, contract: Contract | null): WorkspaceValue {
  const contractEdits = new Map(workspace.contractEdits);
  if (contract === null) contractEdits.delete(key);
  else contractEdits.set(key, contract);
  return { ...workspace, contractEdits };
}

/** `edit` as the record edit in force for scenario `key`; null leaves it as it came. */
export function withRecordEdit(workspace: WorkspaceValue, key: string, edit: EditInForce | null): WorkspaceValue {
  const recordEdits = new Map(workspace.recordEdits);
  if (edit === null) recordEdits.delete(key);
  else recordEdits.set(key, edit);
  return { ...workspace, recordEdits };
}

export const withStorage = (workspace: WorkspaceValue, storageState: StorageState): WorkspaceValue => ({
  ...workspace,
  storageState,
});

export const withRestoreIssues = (workspace: WorkspaceValue, issues: readonly InputIssue[]): WorkspaceValue =>
  issues.length === 0 ? workspace : { ...workspace, restoreIssues: [...workspace.restoreIssues, ...issues] };

export const withDatabase = (
  workspace: WorkspaceValue,
  database: DatabaseState,
  databaseNotice: string | null,
): WorkspaceValue => ({ ...workspace, database, databaseNotice });

/** Nothing loaded or edited, and the first built-in scenario selected: where a share link starts. */
export const withoutInputs = (workspace: WorkspaceValue): WorkspaceValue => ({
  ...workspace,
  loaded: new Map(),
  loads: [],
  contractEdits: new Map(),
  recordEdits: new Map(),
  selection: { scenarioKey: workspace.builtins[0]?.key ?? '', controls: [], lateChanges: [] },
});

/** Back to the built-in scenarios alone, nothing loaded or edited: what a reset leaves. */
export const cleared = (workspace: WorkspaceValue): WorkspaceValue => ({
  ...withoutInputs(workspace),
  restoreIssues: workspace.builtinIssues,
});

/** The inputs (scenarios, loads, edits and selection) of `next` in place of the workspace's, the rest kept. */
export const withInputsOf = (workspace: WorkspaceValue, next: WorkspaceValue): WorkspaceValue => ({
  ...workspace,
  loaded: next.loaded,
  loads: next.loads,
  contractEdits: next.contractEdits,
  recordEdits: next.recordEdits,
  selection: next.selection,
});

const generic = new WeakMap<LoadedScenario, WeakMap<Contract, LoadedScenario>>();

/**
 * `loaded` with `edit` as its contract, and with late changes worked out from its inputs when it declares none
 * (src/core/generic-late-changes.ts), so the fire drill works on a user's own records. Kept per scenario and contract:
 * the same inputs give the same object, so views compare by identity.
 */
function withLateChanges(edit: Contract | null, loaded: LoadedScenario): LoadedScenario {
  const contract = edit ?? loaded.scenario.contract;
  if (loaded.scenario.lateChanges.length > 0)
    return edit ? { scenario: { ...loaded.scenario, contract }, recordSet: loaded.recordSet } : loaded;
  let byContract = generic.get(loaded);
  if (!byContract) generic.set(loaded, (byContract = new WeakMap()));
  let scenario = byContract.get(contract);
  if (!scenario)
    byContract.set(
      contract,
      (scenario = {
        scenario: { ...loaded.scenario, contract, lateChanges: genericLateChanges(contract, loaded.recordSet) },
        recordSet: loaded.recordSet,
      }),
    );
  return scenario;
}
