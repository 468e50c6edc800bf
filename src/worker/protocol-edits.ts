import type { InputIssue } from '../core/errors';
import type { RecordInput } from '../core/format/record';
import type { WorkspaceSnapshot } from './protocol-workspace';

/**
 * Where the selected scenario's record edits stand: how many revisions are in force, and whether one can be undone or
 * redone.
 */
export interface EditHistory {
  readonly scenarioKey: string;
  readonly revision: number;
  readonly canUndo: boolean;
  readonly canRedo: boolean;
}

/** A record as the editor opens it, with the ids it may open; or why not. */
export type EditedRecord =
  | { readonly ok: true; readonly record: RecordInput; readonly ids: readonly string[]; readonly history: EditHistory }
  | { readonly ok: false; readonly message: string; readonly ids: readonly string[]; readonly history: EditHistory };

/**
 * A record edit from the form (a value) or the JSON box (text), for the record `id`: applied as a new revision, or
 * kept as a control or late change (`label`) that applies it when switched on.
 */
export type RecordEditInput = ({ readonly value: unknown } | { readonly text: string }) & {
  readonly id: string;
  readonly as: 'revision' | 'control' | 'late-change';
  readonly label?: string;
};

export type RecordEditResult =
  | { readonly ok: true; readonly snapshot: WorkspaceSnapshot; readonly history: EditHistory; readonly message: string }
  | { readonly ok: false; readonly issues: readonly InputIssue[]; readonly history: EditHistory };
