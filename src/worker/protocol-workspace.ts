import type { InputIssue } from '../core/errors';
import type { Contract } from '../core/format/contract';
import type { TourStepFile } from '../core/format/tour';

/** A control or late change as the UI shows it: the patches stay in the worker. */
export interface ChangeSummary {
  readonly id: string;
  readonly label: string;
  readonly explanation: string;
  /**
   * The records it declares (patches or mentions): what the user view redacts before a compilation says which it
   * withholds.
   */
  readonly records: readonly string[];
}

/**
 * A control's or late change's text as one view of one compilation may show it
 * (src/worker/compilations/change-texts.ts).
 */
export interface ChangeText {
  readonly id: string;
  readonly kind: 'control' | 'late-change';
  readonly label: string;
  readonly explanation: string;
}

export type ScenarioOrigin = 'builtin' | 'loaded';

export interface ScenarioSummary {
  /** Stable key: the built-in id, or `loaded:<id>` for a scenario that came from the user's files. */
  readonly key: string;
  readonly title: string;
  readonly description: string;
  readonly origin: ScenarioOrigin;
  readonly recordCount: number;
  readonly controls: readonly ChangeSummary[];
  readonly lateChanges: readonly ChangeSummary[];
  /** True when the scenario declares no late changes: those listed are generic ones worked out from its inputs. */
  readonly lateChangesGeneric: boolean;
  /** The guided tour the scenario file carries; null: the app builds one from its controls and late changes. */
  readonly tour: readonly TourStepFile[] | null;
  /** The contract in force: the scenario's own, or the user's saved edit of it. */
  readonly contract: Contract;
  readonly contractEdited: boolean;
  /** Records replaced or changes authored in the app (the record editor) are in force. */
  readonly recordsEdited: boolean;
}

/** A scenario file ready to save; dropping it back reproduces the receipt (with the same controls on). */
export interface ScenarioExport {
  readonly fileName: string;
  readonly json: string;
  /** Whether it carries a contract edit, so the app can say what was exported. */
  readonly edited: boolean;
}

export type StorageState =
  | { readonly status: 'persistent' }
  | { readonly status: 'unavailable'; readonly message: string }
  /** Saved data vanished while the page was open: nothing is written again until the user asks (`saveWorkspace`). */
  | { readonly status: 'cleared'; readonly message: string };

/**
 * Where the workspace database lives: in OPFS (a reload opens it and compiles without parsing or indexing),
 * or in memory, and why, with the notice the app shows. `saves`: whether this tab writes the workspace at all
 * (a second tab does not, so it cannot overwrite what the first saves).
 */
export type DatabaseState =
  | { readonly kind: 'opfs' }
  | {
      readonly kind: 'memory';
      readonly reason: 'other-tab' | 'unsupported' | 'failed';
      readonly saves: boolean;
      readonly message: string;
    };

export interface Selection {
  readonly scenarioKey: string;
  readonly controls: readonly string[];
  readonly lateChanges: readonly string[];
}

export interface WorkspaceSnapshot {
  readonly scenarios: readonly ScenarioSummary[];
  readonly selection: Selection;
  readonly storage: StorageState;
  readonly database: DatabaseState;
  /**
   * Set when the records of the last drop could not be kept in the database (a full disk), with how much space they
   * needed.
   */
  readonly databaseNotice: string | null;
  /** Problems met while restoring saved files; the built-ins are always available. */
  readonly restoreIssues: readonly InputIssue[];
}

export interface DrillState {
  readonly frozenReceiptId: string | null;
  readonly declared: readonly string[];
}
