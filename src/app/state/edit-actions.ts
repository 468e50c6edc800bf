import { create } from 'zustand';
import type { ActivityCode } from '../../core/messages-app';
import type { InputIssue } from '../../core/errors';
import type { RecordInput } from '../../core/format/record';
import type { EditHistory, RecordEditInput, RecordEditResult } from '../../worker/protocol';
import { compileNow, guarded } from './actions';
import { compilerApi } from '../worker-client';
import { useScenarioStore } from './scenario-store';
import { useUiStore } from './ui-store';

// The record editor: open a record of the selected scenario, edit it, keep the edit as a revision or as a control or
// late change, undo and redo. The worker validates and holds every revision; the page shows one record at a time.

interface EditState {
  /** The record open in the editor, as the worker gave it; null before one is opened or when it cannot be. */
  readonly record: RecordInput | null;
  /** Ids the editor offers to open (the view's, up to a few hundred). */
  readonly ids: readonly string[];
  readonly history: EditHistory | null;
  /** Why the last edit was refused, field by field. */
  readonly issues: readonly InputIssue[];
  /** What the last action did, or why a record could not be opened. */
  readonly status: string | null;
}

export const INITIAL_EDIT: EditState = { record: null, ids: [], history: null, issues: [], status: null };

export const useEditStore = create<EditState>(() => INITIAL_EDIT);

/** Opens a record; `status` is what to say once it is open (what the edit that reopened it did). */
export async function openRecordForEdit(id: string, status: string | null = null): Promise<void> {
  await guarded('OPENING_RECORD_EDITOR', async () => {
    const opened = await compilerApi().recordForEdit(id.trim(), useUiStore.getState().audience);
    useEditStore.setState(
      opened.ok
        ? { record: opened.record, ids: opened.ids, history: opened.history, issues: [], status }
        : { record: null, ids: opened.ids, history: opened.history, issues: [], status: opened.message },
    );
  });
}

async function settle(during: ActivityCode, call: () => Promise<RecordEditResult>): Promise<void> {
  const box: { result: RecordEditResult | null } = { result: null };
  await guarded(during, async () => {
    box.result = await call();
  });
  const settled = box.result;
  if (settled === null) return;
  if (!settled.ok) {
    useEditStore.setState({ issues: settled.issues, history: settled.history, status: null });
    return;
  }
  useEditStore.setState({ issues: [], history: settled.history, status: settled.message });
  useScenarioStore.setState({ workspace: settled.snapshot });
  await compileNow();
  // The record as it is now in force (an undo brings back the one before).
  const open = useEditStore.getState().record;
  if (open) await openRecordForEdit(open.id, settled.message);
}

export async function applyRecordEdit(input: RecordEditInput): Promise<void> {
  await settle('APPLYING_RECORD_EDIT', () => compilerApi().editRecord(input, useUiStore.getState().audience));
}

export async function undoRecordEdit(): Promise<void> {
  await settle('UNDOING_RECORD_EDIT', () => compilerApi().undoRecordEdit());
}

export async function redoRecordEdit(): Promise<void> {
  await settle('REDOING_RECORD_EDIT', () => compilerApi().redoRecordEdit());
}

export function closeRecordEditor(): void {
  useEditStore.setState(INITIAL_EDIT);
}
