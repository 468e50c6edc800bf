import type { Sha256 } from '../../core/fingerprints';
import type { Audience } from '../../core/disclosure';
import type { InputIssue } from '../../core/errors';
import type { SourceRecord } from '../../core/format/record';
import { inputIssue } from '../../core/issues';
import { issuesOf } from '../../core/errors';
import { prepareScenario } from '../../core/compile';
import {
  applyScenarioEdit,
  changeFromEdit,
  changeIdFor,
  NO_EDIT,
  readEditedRecord,
  withRecord,
  type ScenarioEdit,
} from '../../scenarios/record-edits';
import type { Compilations } from '../compilations/compilations';
import type { EditedRecord, EditHistory, RecordEditInput, RecordEditResult } from '../protocol';
import {
  type EditInForce,
  type Entry,
  withRecordEdit,
  withSelectionNormalised,
  type Workspace,
} from '../workspace/workspace';
import { wordMessage } from '../../core/messages';

/** How many ids the editor is offered to pick from; any other id may still be typed. */
const OFFERED_IDS = 500;

interface History {
  readonly base: Entry['loaded'];
  revisions: EditInForce[];
  /** How many revisions are in force: 0 is the scenario as it came. */
  at: number;
}

/**
 * The record editor's side in the worker: a record of the selected scenario replaced, or kept as a control or late
 * change that applies it, each a new revision of the scenario's edit (src/scenarios/record-edits.ts) that can be
 * undone and redone. The edit in force lives in the workspace (saved with it, exported with the scenario); the
 * revisions before and after it only here, for this session.
 */
export function createRecordEditing({
  sha256,
  workspace,
  compilations,
}: {
  /** The SHA-256 the session's compiler hashes with. */
  readonly sha256: Sha256;
  readonly workspace: Workspace;
  readonly compilations: Compilations;
}) {
  const histories = new Map<string, History>();

  /** The entry's history, begun again whenever the edit in force is not the one it left (a reset, a link, a reload). */
  const historyOf = (entry: Entry): History => {
    const inForce = workspace.value().recordEdits.get(entry.key);
    const current = inForce?.base === entry.loaded ? inForce : undefined;
    let history = histories.get(entry.key);
    if (
      !history ||
      history.base !== entry.loaded ||
      (history.at > 0 ? history.revisions[history.at - 1] : undefined) !== current
    ) {
      history = { base: entry.loaded, revisions: current ? [current] : [], at: current ? 1 : 0 };
      histories.set(entry.key, history);
    }
    return history;
  };

  const viewOf = (entry: Entry, history: History): EditHistory => ({
    scenarioKey: entry.key,
    revision: history.at,
    canUndo: history.at > 0,
    canRedo: history.at < history.revisions.length,
  });

  /**
   * The ids this view may open: every record in the diagnostic view; in the user view, those its last compilation of
   * this scenario shows.
   */
  const openable = (entry: Entry, audience: Audience): readonly string[] => {
    const { ids } = workspace.edited(entry).recordSet;
    if (audience === 'diagnostic') return ids;
    const last = compilations.last();
    if (!last || last.scenarioKey !== entry.key) return [];
    const shown = new Set(compilations.disclosed(last, 'user').rows.map((row) => row.id));
    return ids.filter((id) => shown.has(id));
  };

  const inForce = async (entry: Entry, history: History, message: string): Promise<RecordEditResult> => {
    const now = history.revisions[history.at - 1] ?? null;
    // A control or late change undone is switched off with it.
    workspace.update((value) => withSelectionNormalised(withRecordEdit(value, entry.key, now)));
    await workspace.persist();
    return { ok: true, snapshot: workspace.snapshot(), history: viewOf(entry, history), message };
  };

  const refuse = (entry: Entry, history: History, issues: readonly InputIssue[]): RecordEditResult => ({
    ok: false,
    issues,
    history: viewOf(entry, history),
  });

  return {
    recordForEdit(id: string, audience: Audience): EditedRecord {
      const entry = workspace.currentEntry();
      const history = historyOf(entry);
      const ids = openable(entry, audience);
      const offered = ids.slice(0, OFFERED_IDS);
      const record = ids.includes(id) ? workspace.edited(entry).recordSet.byId.get(id)?.record : undefined;
      if (!record)
        return {
          ok: false,
          message: wordMessage('NO_RECORD_IN_VIEW', { id }),
          ids: offered,
          history: viewOf(entry, history),
        };
      return { ok: true, record, ids: offered, history: viewOf(entry, history) };
    },

    async editRecord(input: RecordEditInput, audience: Audience): Promise<RecordEditResult> {
      const entry = workspace.currentEntry();
      const history = historyOf(entry);
      const before = openable(entry, audience).includes(input.id)
        ? workspace.edited(entry).recordSet.byId.get(input.id)?.record
        : undefined;
      if (!before)
        return refuse(entry, history, [
          inputIssue({ file: 'record', path: 'id' }, 'EDIT_NOT_IN_VIEW', { id: input.id }),
        ]);
      const read = readEditedRecord('text' in input ? { text: input.text } : { value: input.value });
      if (!read.ok) return refuse(entry, history, issuesOf(read.error, { file: 'record', path: '(root)' }));
      const after = read.value;
      if (after.id !== before.id)
        return refuse(entry, history, [inputIssue({ file: 'record', path: 'id' }, 'EDIT_KEEPS_ID', { id: before.id })]);
      const current = history.revisions[history.at - 1]?.edit ?? NO_EDIT;
      const next = nextEdit(current, before, after, input, workspace.edited(entry).scenario);
      if (!next.ok) return refuse(entry, history, next.issues);
      const applied = applyScenarioEdit(sha256, entry.loaded, next.edit);
      if (!applied.ok) return refuse(entry, history, issuesOf(applied.error, { file: 'record edit', path: '(root)' }));
      if (next.changeId !== null) {
        // Switched on, the new change must apply: a patch the record schema refuses after merging is refused now, not
        // at the toggle.
        const on =
          input.as === 'control'
            ? { controls: [next.changeId], lateChanges: [] }
            : { controls: [], lateChanges: [next.changeId] };
        const prepared = prepareScenario(sha256, applied.value, on);
        if (!prepared.ok)
          return refuse(entry, history, issuesOf(prepared.error, { file: 'record edit', path: 'patch' }));
      }
      history.revisions = [
        ...history.revisions.slice(0, history.at),
        { base: entry.loaded, edit: next.edit, loaded: applied.value },
      ];
      history.at += 1;
      return inForce(
        entry,
        history,
        next.changeId === null || input.as === 'revision'
          ? wordMessage('RECORD_EDITED', { record: before.id, revision: history.at })
          : wordMessage('RECORD_EDIT_AS_CHANGE', {
              as: input.as,
              label: input.label ?? '',
              change: next.changeId,
              record: before.id,
            }),
      );
    },

    async undoRecordEdit(): Promise<RecordEditResult> {
      const entry = workspace.currentEntry();
      const history = historyOf(entry);
      if (history.at === 0)
        return refuse(entry, history, [
          inputIssue({ file: 'record edit', path: '(root)' }, 'EDIT_NOTHING_TO', { action: 'undo' }),
        ]);
      history.at -= 1;
      return inForce(entry, history, wordMessage('RECORD_EDIT_UNDONE', { revision: history.at }));
    },

    async redoRecordEdit(): Promise<RecordEditResult> {
      const entry = workspace.currentEntry();
      const history = historyOf(entry);
      if (history.at >= history.revisions.length)
        return refuse(entry, history, [
          inputIssue({ file: 'record edit', path: '(root)' }, 'EDIT_NOTHING_TO', { action: 'redo' }),
        ]);
      history.at += 1;
      return inForce(entry, history, wordMessage('RECORD_EDIT_REDONE', { revision: history.at }));
    },
  };
}

type NextEdit =
  | { readonly ok: true; readonly edit: ScenarioEdit; readonly changeId: string | null }
  | { readonly ok: false; readonly issues: readonly InputIssue[] };

/**
 * The scenario's edit with this record edit added: the record replaced, or a control or late change that applies it.
 */
function nextEdit(
  current: ScenarioEdit,
  before: SourceRecord,
  after: SourceRecord,
  input: RecordEditInput,
  scenario: { readonly controls: readonly { id: string }[]; readonly lateChanges: readonly { id: string }[] },
): NextEdit {
  if (input.as === 'revision') {
    if (JSON.stringify(before) === JSON.stringify(after))
      return { ok: false, issues: [inputIssue({ file: 'record', path: '(root)' }, 'EDIT_CHANGES_NOTHING')] };
    return { ok: true, edit: withRecord(current, after), changeId: null };
  }
  const label = (input.label ?? '').trim();
  if (label === '' || label.length > 120)
    return { ok: false, issues: [inputIssue({ file: 'record edit', path: 'label' }, 'EDIT_NEEDS_LABEL')] };
  const taken = new Set([...scenario.controls, ...scenario.lateChanges].map((change) => change.id));
  const id = changeIdFor(label, taken);
  const change = changeFromEdit(before, after, id, label);
  if (!change) return { ok: false, issues: [inputIssue({ file: 'record', path: '(root)' }, 'EDIT_CHANGES_NOTHING')] };
  return {
    ok: true,
    edit:
      input.as === 'control'
        ? { ...current, controls: [...current.controls, change] }
        : { ...current, lateChanges: [...current.lateChanges, change] },
    changeId: id,
  };
}
