import type { InputIssue } from '../core/errors';
import { declaredRecords } from '../core/change-text';
import type { Contract } from '../core/format/contract';
import type { Control, LateChange } from '../core/format/scenario';
import { genericLateChanges } from '../core/generic-late-changes';
import { issuesOf } from '../core/errors';
import { parseContractJson, validateContract, type LoadedScenario } from '../core/phases/1-validate/validate';
import type { ScenarioEdit } from '../scenarios/record-edits';
import type { BuiltinScenario } from './builtin-sources';
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
} from './protocol';
import { isQuotaError, workspaceFullMessage } from './quota';
import { measuredAsync } from './user-timing';
import {
  STORAGE_CLEARED_MESSAGE,
  StorageClearedError,
  storageFailureMessage,
  type WorkspaceStorage,
} from './workspace-storage';

/** The name a contract typed in the editor is validated under, so its problems read as a contract file's do. */
const CONTRACT_TEXT = 'contract.json';

export interface Entry {
  readonly key: string;
  readonly origin: 'builtin' | 'loaded';
  readonly loaded: LoadedScenario;
}

/** A scenario's edit in force (record-editing.ts), with the scenario it was made on and what applying it gave. */
export interface EditInForce {
  readonly base: LoadedScenario;
  readonly edit: ScenarioEdit;
  readonly loaded: LoadedScenario;
}

export interface WorkspaceDeps {
  readonly storage: WorkspaceStorage;
  readonly builtins: readonly BuiltinScenario[];
  /** Whether this tab writes what it holds (a second tab works on a copy). */
  readonly saves: boolean;
  readonly estimateStorage?: () => Promise<{ readonly quota?: number; readonly usage?: number }>;
  /** The database's state for the snapshot, owned by the background saves. */
  readonly database: () => { readonly state: DatabaseState; readonly notice: string | null };
  /** The suites open in the Tests panel, as the saved workspace keeps them. */
  readonly suites: () => Pick<SavedWorkspace, 'suites'>;
  /** Other inputs were selected: the drill's declared changes do not carry over. */
  readonly inputsReplaced: () => void;
}

export type Workspace = ReturnType<typeof createWorkspace>;

/**
 * What the user works on: the built-in and loaded scenarios, the loads that brought them, contract edits and the
 * selection, and how storage took the last write. Every change is saved (`persist`) and told to the page (`notify`).
 * The fields are the session's modules' to replace: a drop or a share link swaps them all or nothing.
 */
export function createWorkspace({
  storage,
  builtins,
  saves,
  estimateStorage,
  database,
  suites,
  inputsReplaced,
}: WorkspaceDeps) {
  const builtinEntries: Entry[] = [];
  const builtinIssues: InputIssue[] = [];
  for (const builtin of builtins) {
    if (builtin.result.ok)
      builtinEntries.push({ key: builtin.result.value.scenario.id, origin: 'builtin', loaded: builtin.result.value });
    else
      for (const issue of issuesOf(builtin.result.error, { file: builtin.folder, path: '(root)' }))
        builtinIssues.push(issue);
  }
  const firstSelection = (): Selection => ({
    scenarioKey: builtinEntries[0]?.key ?? '',
    controls: [],
    lateChanges: [],
  });

  // Told after every change, saved or not: the page keeps the workspace to give a restarted worker.
  let listener: ((event: WorkspaceEvent) => void) | null = null;

  const workspace = {
    loaded: new Map<string, Entry>(),
    loads: [] as SavedLoad[],
    contractEdits: new Map<string, Contract>(),
    recordEdits: new Map<string, EditInForce>(),
    selection: firstSelection(),
    storageState: { status: 'persistent' } as StorageState,
    restoreIssues: [...builtinIssues] as InputIssue[],

    entries: (): Entry[] => [...builtinEntries, ...workspace.loaded.values()],
    entryOf: (key: string): Entry | undefined =>
      builtinEntries.find((entry) => entry.key === key) ?? workspace.loaded.get(key),

    /** The scenario as compiled: the user's record and contract edits in force, and generic late changes when it declares none. */
    effective: (entry: Entry): LoadedScenario =>
      withLateChanges(workspace.contractEdits.get(entry.key) ?? null, workspace.edited(entry)),
    /** The entry's scenario with its record edit, if one was made on the scenario the entry holds now (a load replaced since drops it). */
    edited: (entry: Entry): LoadedScenario => {
      const edit = workspace.recordEdits.get(entry.key);
      return edit && edit.base === entry.loaded ? edit.loaded : entry.loaded;
    },

    currentEntry: (): Entry => {
      const entry = workspace.entryOf(workspace.selection.scenarioKey) ?? builtinEntries[0];
      if (!entry) throw new Error('no scenario is available: the built-in scenarios failed to load');
      return entry;
    },

    /** The selected scenario as the compiler sees it (with the user's contract edit) and its toggles. */
    current: (): { readonly loaded: LoadedScenario; readonly selection: Selection } => ({
      loaded: workspace.effective(workspace.currentEntry()),
      selection: workspace.selection,
    }),

    summary: (entry: Entry): ScenarioSummary => {
      const { scenario, recordSet } = workspace.effective(entry);
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
        recordsEdited: workspace.edited(entry) !== entry.loaded,
      };
    },

    snapshot: (): WorkspaceSnapshot => {
      const { state, notice } = database();
      return {
        scenarios: workspace.entries().map(workspace.summary),
        selection: workspace.selection,
        storage: workspace.storageState,
        database: state,
        databaseNotice: notice,
        restoreIssues: workspace.restoreIssues,
      };
    },

    saved: (): SavedWorkspace => {
      const { selection } = workspace;
      const recordEdits = [...workspace.recordEdits].filter(
        ([key, edit]) => workspace.entryOf(key)?.loaded === edit.base,
      );
      return {
        version: 1,
        loads: workspace.loads,
        contractEdits: Object.fromEntries(workspace.contractEdits),
        ...(recordEdits.length > 0
          ? { recordEdits: Object.fromEntries(recordEdits.map(([key, edit]) => [key, edit.edit])) }
          : {}),
        selection: { ...selection, controls: [...selection.controls], lateChanges: [...selection.lateChanges] },
        ...suites(),
      };
    },

    /** The bytes of every loaded file. */
    fileBytes: (): number =>
      workspace.loads.reduce((sum, load) => sum + load.files.reduce((bytes, file) => bytes + file.blob.size, 0), 0),

    listen: (onChange: ((event: WorkspaceEvent) => void) | null): void => {
      listener = onChange;
    },
    notify: (): void => listener?.({ workspace: workspace.saved(), storage: workspace.storageState }),

    persist: async (): Promise<void> => {
      // After the user's storage was cleared under the page, nothing is written again unless asked (saveWorkspace);
      // a second tab works on a copy: writing it would overwrite what the tab holding the database saves.
      if (workspace.storageState.status !== 'cleared' && saves) {
        try {
          await measuredAsync('cc:persist', () => storage.write(workspace.saved()));
          workspace.storageState = { status: 'persistent' };
        } catch (error) {
          workspace.storageState =
            error instanceof StorageClearedError
              ? { status: 'cleared', message: STORAGE_CLEARED_MESSAGE }
              : {
                  status: 'unavailable',
                  message: isQuotaError(error)
                    ? await workspaceFullMessage(workspace.fileBytes(), estimateStorage)
                    : storageFailureMessage(error),
                };
        }
      }
      workspace.notify();
    },

    /** Keeps only ids the scenario declares, so a stale saved selection can never be refused mid-session. */
    normaliseSelection: (wanted: Selection): Selection => {
      const entry = workspace.entryOf(wanted.scenarioKey) ?? workspace.currentEntry();
      const { scenario } = workspace.effective(entry);
      const controlIds = new Set(scenario.controls.map((control) => control.id));
      const lateIds = new Set(scenario.lateChanges.map((change) => change.id));
      return {
        scenarioKey: entry.key,
        controls: wanted.controls.filter((id) => controlIds.has(id)),
        lateChanges: wanted.lateChanges.filter((id) => lateIds.has(id)),
      };
    },

    /** Back to the built-in scenarios alone, nothing loaded or edited. */
    clear: (): void => {
      workspace.loaded = new Map();
      workspace.loads = [];
      workspace.contractEdits = new Map();
      workspace.recordEdits = new Map();
      workspace.restoreIssues = [...builtinIssues];
      workspace.selection = firstSelection();
    },

    api: {
      /**
       * The toggles' path: the compilation the page asks for next does not wait for the selection's write, which
       * queues behind any background store's writes. IndexedDB runs the writes (and a reset's clear)
       * in the order they were asked for; a failed write reaches the page as a workspace event.
       */
      async select(wanted: Selection): Promise<WorkspaceSnapshot> {
        const next = workspace.normaliseSelection(wanted);
        if (next.scenarioKey !== workspace.selection.scenarioKey) inputsReplaced();
        workspace.selection = next;
        void workspace.persist();
        return workspace.snapshot();
      },

      async updateContract(input: { readonly value: unknown } | { readonly text: string }): Promise<ContractUpdate> {
        const parsed =
          'text' in input ? parseContractJson(CONTRACT_TEXT, input.text) : validateContract('contract', input.value);
        if (!parsed.ok) return { ok: false, issues: issuesOf(parsed.error, { file: 'contract', path: '(root)' }) };
        workspace.contractEdits.set(workspace.currentEntry().key, parsed.value);
        await workspace.persist();
        return { ok: true, snapshot: workspace.snapshot() };
      },

      async checkContract(text: string): Promise<readonly InputIssue[]> {
        const parsed = parseContractJson(CONTRACT_TEXT, text);
        return parsed.ok ? [] : issuesOf(parsed.error, { file: 'contract', path: '(root)' });
      },

      /** Saves the whole workspace again, files included: the way back after storage was cleared under the page. */
      async saveWorkspace(): Promise<WorkspaceSnapshot> {
        workspace.storageState = { status: 'persistent' };
        await workspace.persist();
        return workspace.snapshot();
      },

      async revertContract(): Promise<WorkspaceSnapshot> {
        workspace.contractEdits.delete(workspace.currentEntry().key);
        await workspace.persist();
        return workspace.snapshot();
      },
    },
  };

  storage.watch(() => {
    workspace.storageState = { status: 'cleared', message: STORAGE_CLEARED_MESSAGE };
    workspace.notify();
  });
  return workspace;
}

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
