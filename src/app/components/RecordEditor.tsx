import { useEffect, useState } from 'react';
import type { InputIssue } from '../../core/errors';
import type { RecordInput } from '../../core/format/record';
import type { RecordEditInput } from '../../worker/protocol';
import {
  applyRecordEdit,
  closeRecordEditor,
  openRecordForEdit,
  redoRecordEdit,
  undoRecordEdit,
  useEditStore,
} from '../state/edit-actions';
import { selectedScenario, useScenarioStore } from '../state/scenario-store';
import { useUiStore } from '../state/ui-store';

const LIFECYCLES = ['draft', 'active', 'rejected', 'retired', 'generated'] as const;
const REVIEWS = ['unreviewed', 'in_review', 'reviewed', 'approved', 'rejected'] as const;

type Draft = {
  title: string;
  text: string;
  tokens: string;
  lifecycle: string;
  reviewState: string;
  knownAt: string;
  validFrom: string;
  sensitivity: string;
  roles: string;
  purposes: string;
  labels: string;
};

const TEXT_FIELDS = [
  { field: 'title', label: 'Title' },
  { field: 'tokens', label: 'Tokens' },
  { field: 'knownAt', label: 'Known at' },
  { field: 'validFrom', label: 'Valid from' },
  { field: 'sensitivity', label: 'Sensitivity' },
] as const;

const LIST_FIELDS = [
  { field: 'roles', label: 'Roles allowed (comma-separated)' },
  { field: 'purposes', label: 'Purposes allowed (comma-separated)' },
  { field: 'labels', label: 'Labels (comma-separated)' },
] as const;

function draftOf(record: RecordInput): Draft {
  return {
    title: record.title,
    text: record.text,
    tokens: String(record.tokens),
    lifecycle: record.lifecycle,
    reviewState: record.reviewState,
    knownAt: record.knownAt,
    validFrom: record.validFrom,
    sensitivity: record.sensitivity,
    roles: record.access.roles.join(', '),
    purposes: record.access.purposes.join(', '),
    labels: (record.access.labels ?? []).join(', '),
  };
}

const list = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');

/** The record with the form's fields; a number that is not one stays text, so the schema names the field. */
function recordFromDraft(record: RecordInput, draft: Draft): unknown {
  const tokens = /^\s*\d+\s*$/.test(draft.tokens) ? Number(draft.tokens) : draft.tokens;
  const { roles, purposes, labels, ...fields } = draft;
  return {
    ...record,
    ...fields,
    tokens,
    access: { ...record.access, roles: list(roles), purposes: list(purposes), labels: list(labels) },
  };
}

const at = (issues: readonly InputIssue[], field: string) =>
  issues.filter(
    (issue) => issue.path === field || issue.path.startsWith(`${field}.`) || issue.path.startsWith(`${field}[`),
  );
const accessField = { roles: 'access.roles', purposes: 'access.purposes', labels: 'access.labels' } as const;

function FieldIssues({ issues, id }: { readonly issues: readonly InputIssue[]; readonly id: string }) {
  if (issues.length === 0) return null;
  return (
    <span className="field-error" id={id}>
      {issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}
    </span>
  );
}

/** One record's fields in a form, or the record as JSON; applied as a revision, or kept as a control or late change. */
function RecordForm({ record }: { readonly record: RecordInput }) {
  const issues = useEditStore((state) => state.issues);
  const [draft, setDraft] = useState<Draft>(() => draftOf(record));
  const [json, setJson] = useState<string | null>(null);
  const [label, setLabel] = useState('');
  const input = (as: RecordEditInput['as']): RecordEditInput => {
    const body = json === null ? { value: recordFromDraft(record, draft) } : { text: json };
    return { ...body, id: record.id, as, ...(as === 'revision' ? {} : { label }) };
  };
  const set = (field: keyof Draft) => (event: { target: { value: string } }) =>
    setDraft({ ...draft, [field]: event.target.value });
  const described = (field: string) => (at(issues, field).length > 0 ? `record-edit-error-${field}` : undefined);
  return (
    <form
      className="record-form"
      aria-label={`Edit ${record.id}`}
      onSubmit={(event) => {
        event.preventDefault();
        void applyRecordEdit(input('revision'));
      }}
    >
      {json === null ? (
        <>
          {TEXT_FIELDS.map(({ field, label: name }) => (
            <label className="field" key={field}>
              <span>{name}</span>
              <input
                type="text"
                value={draft[field]}
                onChange={set(field)}
                aria-invalid={at(issues, field).length > 0}
                aria-describedby={described(field)}
              />
              <FieldIssues issues={at(issues, field)} id={`record-edit-error-${field}`} />
            </label>
          ))}
          <label className="field">
            <span>Text</span>
            <textarea
              value={draft.text}
              rows={4}
              onChange={set('text')}
              aria-invalid={at(issues, 'text').length > 0}
              aria-describedby={described('text')}
            />
            <FieldIssues issues={at(issues, 'text')} id="record-edit-error-text" />
          </label>
          <label className="field">
            <span>Lifecycle</span>
            <select value={draft.lifecycle} onChange={set('lifecycle')}>
              {LIFECYCLES.map((state) => (
                <option key={state}>{state}</option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>Review state</span>
            <select value={draft.reviewState} onChange={set('reviewState')}>
              {REVIEWS.map((state) => (
                <option key={state}>{state}</option>
              ))}
            </select>
          </label>
          {LIST_FIELDS.map(({ field, label: name }) => (
            <label className="field" key={field}>
              <span>{name}</span>
              <input
                type="text"
                value={draft[field]}
                onChange={set(field)}
                aria-invalid={at(issues, accessField[field]).length > 0}
                aria-describedby={described(accessField[field])}
              />
              <FieldIssues issues={at(issues, accessField[field])} id={`record-edit-error-${accessField[field]}`} />
            </label>
          ))}
        </>
      ) : (
        <label className="field">
          <span>Record JSON</span>
          <textarea
            className="json-editor"
            rows={16}
            spellCheck={false}
            value={json}
            onChange={(event) => setJson(event.target.value)}
          />
        </label>
      )}
      <div className="button-row">
        <button type="submit">Apply edit</button>
        <button
          type="button"
          className="secondary"
          onClick={() => setJson(json === null ? JSON.stringify(recordFromDraft(record, draft), null, 2) : null)}
        >
          {json === null ? 'Edit as JSON' : 'Edit as form'}
        </button>
      </div>
      <label className="field">
        <span>Label for a control or late change</span>
        <input
          type="text"
          value={label}
          maxLength={120}
          onChange={(event) => setLabel(event.target.value)}
          aria-invalid={at(issues, 'label').length > 0}
          aria-describedby={described('label')}
        />
        <FieldIssues issues={at(issues, 'label')} id="record-edit-error-label" />
      </label>
      <div className="button-row">
        <button type="button" className="secondary" onClick={() => void applyRecordEdit(input('control'))}>
          Save as control
        </button>
        <button type="button" className="secondary" onClick={() => void applyRecordEdit(input('late-change'))}>
          Save as late change
        </button>
      </div>
    </form>
  );
}

/**
 * Open a record of the selected scenario and edit it in place, with undo and redo; the view on screen decides which
 * records open.
 */
export function RecordEditor() {
  const { record, ids, history, issues, status } = useEditStore();
  const scenario = useScenarioStore(selectedScenario);
  const audience = useUiStore((state) => state.audience);
  const [id, setId] = useState('');
  const openId = record?.id;
  useEffect(() => {
    if (openId !== undefined) setId(openId);
  }, [openId]);
  // Another scenario or view: the record open may not be this one's, or may be one this view withholds.
  useEffect(() => {
    const open = useEditStore.getState().record;
    if (open) void openRecordForEdit(open.id);
  }, [scenario?.key, audience]);
  return (
    <section className="panel record-editor" aria-labelledby="record-editor-heading" data-testid="record-editor">
      <h2 id="record-editor-heading" tabIndex={-1}>
        Edit a record
      </h2>
      <p className="caption">
        Changes a record of this scenario in place (a new revision you can undo), or keeps the change as a control or
        late change to switch on. Export scenario writes them all.
      </p>
      <form
        className="record-open"
        onSubmit={(event) => {
          event.preventDefault();
          void openRecordForEdit(id);
        }}
      >
        <label className="field">
          <span>Record id</span>
          <input type="text" list="record-editor-ids" value={id} onChange={(event) => setId(event.target.value)} />
        </label>
        <datalist id="record-editor-ids">
          {ids.map((option) => (
            <option key={option} value={option} />
          ))}
        </datalist>
        <div className="button-row">
          <button type="submit">Open record</button>
          <button
            type="button"
            className="secondary"
            aria-disabled={!history?.canUndo}
            onClick={() => history?.canUndo && void undoRecordEdit()}
          >
            Undo edit
          </button>
          <button
            type="button"
            className="secondary"
            aria-disabled={!history?.canRedo}
            onClick={() => history?.canRedo && void redoRecordEdit()}
          >
            Redo edit
          </button>
          {record ? (
            <button type="button" className="secondary" onClick={closeRecordEditor}>
              Close record
            </button>
          ) : null}
        </div>
      </form>
      <p role="status" data-testid="record-edit-status">
        {status}
        {history && history.revision > 0 ? ` Revision ${history.revision} of the records is in force.` : ''}
      </p>
      {issues.length > 0 ? (
        <ul className="load-errors" role="alert" data-testid="record-edit-issues">
          {issues.map((issue, index) => (
            <li key={index}>
              {issue.path}
              {issue.line === undefined ? '' : ` (line ${issue.line})`}: {issue.message}
            </li>
          ))}
        </ul>
      ) : null}
      {record ? <RecordForm key={JSON.stringify(record)} record={record} /> : null}
    </section>
  );
}

/** The inspector's way into the editor: the record opened there, in the contract rail. */
export function EditThisRecord({ id, onOpen }: { readonly id: string; readonly onOpen: () => void }) {
  return (
    <button
      type="button"
      className="secondary"
      onClick={() => {
        onOpen();
        useUiStore.setState({ workspace: 'debugger', activeView: 'contract' });
        void openRecordForEdit(id).then(() => document.getElementById('record-editor-heading')?.focus());
      }}
    >
      Edit this record
    </button>
  );
}
