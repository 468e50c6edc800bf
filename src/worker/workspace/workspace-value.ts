import { declaredRecords } from '../../core/change-text';
import type { InputIssue } from '../../core/errors';
import { issuesOf } from '../../core/errors';
import type { Contract } from '../../core/format/contract';
import type { Control, LateChange } from '../../core/format/scenario';
import { genericLateChanges } from '../../core/generic-late-changes';
import type { LoadedScenario } from '../../core/phases/1-validate/validate';
import type { ScenarioEdit } from '../../scenarios/record-edits';
import type {
  DatabaseState,
  SavedLoad,
  SavedWorkspace,
  ScenarioSummary,
  Selection,
  StorageState,
  WorkspaceSnapshot,
} from '../protocol';
import type { BuiltinScenario } from './builtin-sources';

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
