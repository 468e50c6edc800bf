import { useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import type { InputIssue } from '../../core/errors';
import type { Contract } from '../../core/format/contract';
import type { AppliedChange, CompileView, ScenarioSummary } from '../../worker/protocol';
import { updateContract } from '../state/workspace-actions';

type TextField = 'task' | 'query' | 'asOf' | 'purpose' | 'project' | 'subject';
type NumberField = 'tokenBudget' | 'naiveTopK';
type ListField =
  | 'scopes'
  | 'requiredRecords'
  | 'allowedSourceClasses'
  | 'allowedAuthorityClasses'
  | 'acceptedReviewStates'
  | 'forbiddenSensitivity'
  | 'denyLabels';

const TEXT_FIELDS: readonly { field: TextField; label: string }[] = [
  { field: 'task', label: 'Task' },
  { field: 'query', label: 'Query' },
  { field: 'asOf', label: 'As of' },
  { field: 'purpose', label: 'Purpose' },
  { field: 'project', label: 'Project' },
  { field: 'subject', label: 'Subject' },
];
const NUMBER_FIELDS: readonly { field: NumberField; label: string }[] = [
  { field: 'tokenBudget', label: 'Token budget' },
  { field: 'naiveTopK', label: 'Naive top-k' },
];
const LIST_FIELDS: readonly { field: ListField; label: string }[] = [
  { field: 'scopes', label: 'Scopes' },
  { field: 'requiredRecords', label: 'Required records' },
  { field: 'allowedSourceClasses', label: 'Allowed source classes' },
  { field: 'allowedAuthorityClasses', label: 'Allowed authority classes' },
  { field: 'acceptedReviewStates', label: 'Accepted review states' },
  { field: 'forbiddenSensitivity', label: 'Forbidden sensitivity' },
  { field: 'denyLabels', label: 'Deny labels' },
];

type Draft = Record<TextField | NumberField | ListField, string> & {
  typedEvidenceOnly: boolean;
  ranking: Contract['ranking'];
};

function draftOf(contract: Contract): Draft {
  const draft = { typedEvidenceOnly: contract.typedEvidenceOnly, ranking: contract.ranking } as Draft;
  for (const { field } of TEXT_FIELDS) draft[field] = contract[field] ?? '';
  for (const { field } of NUMBER_FIELDS) draft[field] = String(contract[field]);
  for (const { field } of LIST_FIELDS) draft[field] = contract[field].join(', ');
  return draft;
}

/** A number the user typed, or the text itself so the schema reports the field rather than the form guessing. */
function numberOrText(text: string): number | string {
  return /^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : text;
}

function contractFromDraft(contract: Contract, draft: Draft): unknown {
  const value: Record<string, unknown> = {
    ...contract,
    typedEvidenceOnly: draft.typedEvidenceOnly,
    ranking: draft.ranking,
  };
  for (const { field } of TEXT_FIELDS) value[field] = draft[field];
  value.subject = draft.subject.trim() === '' ? null : draft.subject;
  for (const { field } of NUMBER_FIELDS) value[field] = numberOrText(draft[field]);
  for (const { field } of LIST_FIELDS)
    value[field] = draft[field]
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
  return value;
}

const issuesAt = (issues: readonly InputIssue[], field: string) =>
  issues.filter(
    (issue) => issue.path === field || issue.path.startsWith(`${field}[`) || issue.path.startsWith(`${field}.`),
  );

function FieldError({ issues, id }: { issues: readonly InputIssue[]; id: string }) {
  if (issues.length === 0) return null;
  return (
    <span className="field-error" id={id} role="alert">
      {issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}
    </span>
  );
}

/** What was actually compiled for this scenario, or null when the last result is for another one or failed. */
export interface CompiledInputs {
  readonly contract: Contract;
  readonly changes: readonly AppliedChange[];
}

export function compiledInputsOf(view: CompileView | null, scenario: ScenarioSummary): CompiledInputs | null {
  return view && view.scenarioKey === scenario.key
    ? { contract: view.compiledContract, changes: view.appliedChanges }
    : null;
}

const changeKind = (change: AppliedChange) => (change.kind === 'control' ? 'control' : 'late change');

export function ChangeBadges({ changes, id }: { changes: readonly AppliedChange[]; id?: string }) {
  return (
    <span className="change-badges" id={id}>
      {changes.map((change) => (
        <span
          key={change.id}
          className={`badge change-badge change-${change.kind}`}
          data-testid={`change-badge-${change.id}`}
        >
          {changeKind(change)}: {change.label}
        </span>
      ))}
    </span>
  );
}

const FORM_FIELDS = new Set<string>([
  'typedEvidenceOnly',
  'ranking',
  ...TEXT_FIELDS.map((item) => item.field),
  ...NUMBER_FIELDS.map((item) => item.field),
  ...LIST_FIELDS.map((item) => item.field),
]);

/** Which button had the focus when an applied edit remounted the editor, so the new editor can give it back. */
export type Refocus = RefObject<'apply' | 'apply-json' | 'heading' | null>;

export function useRefocus(refocus: Refocus, mine: 'apply' | 'apply-json') {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (refocus.current !== mine) return;
    refocus.current = null;
    button.current?.focus();
  }, [refocus, mine]);
  return button;
}

export function ContractForm({
  scenario,
  issues,
  compiled,
  refocus,
}: {
  scenario: ScenarioSummary;
  issues: readonly InputIssue[];
  compiled: CompiledInputs | null;
  refocus: Refocus;
}) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(scenario.contract));
  const apply = useRefocus(refocus, 'apply');
  const compiledDraft = compiled ? draftOf(compiled.contract) : null;
  // A field an active control or late change sets shows the compiled value, read-only: the form edits the scenario's
  // own contract.
  const overriders = (name: string) =>
    compiled ? compiled.changes.filter((change) => change.contractFields.includes(name)) : [];
  const hiddenChanges = compiled
    ? compiled.changes.filter((change) => change.contractFields.some((field) => !FORM_FIELDS.has(field)))
    : [];
  const set = (change: Partial<Draft>) => setDraft((current) => ({ ...current, ...change }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    refocus.current = 'apply';
    void updateContract({ value: contractFromDraft(scenario.contract, draft) }).then((applied) => {
      if (!applied) refocus.current = null;
    });
  };
  const field = (name: TextField | NumberField | ListField, label: string, hint?: string) => {
    const fieldIssues = issuesAt(issues, name);
    const errorId = `contract-error-${name}`;
    const inputId = `contract-field-${name}`;
    const changedBy = overriders(name);
    const overrideId = `contract-override-${name}`;
    const overridden = changedBy.length > 0 && compiledDraft !== null;
    const describedBy = [fieldIssues.length > 0 ? errorId : null, overridden ? overrideId : null]
      .filter((value) => value !== null)
      .join(' ');
    return (
      <div key={name} className={overridden ? 'field overridden' : 'field'}>
        <label htmlFor={inputId}>
          {label}
          {hint ? <span className="hint"> ({hint})</span> : null}
        </label>
        <input
          id={inputId}
          name={name}
          value={overridden ? compiledDraft[name] : draft[name]}
          readOnly={overridden}
          onChange={(event) => set({ [name]: event.target.value })}
          aria-invalid={fieldIssues.length > 0}
          aria-describedby={describedBy === '' ? undefined : describedBy}
          inputMode={NUMBER_FIELDS.some((item) => item.field === name) ? 'numeric' : undefined}
          data-testid={`contract-field-${name}`}
        />
        {overridden ? (
          <span className="override-note" id={overrideId} data-testid={`override-${name}`}>
            Compiled value, set by <ChangeBadges changes={changedBy} />. The scenario says “
            {draft[name] === '' ? 'none' : draft[name]}”; switch it off to edit this field.
          </span>
        ) : null}
        <FieldError issues={fieldIssues} id={errorId} />
      </div>
    );
  };
  return (
    <form className="contract-form" aria-label="Contract form" onSubmit={submit}>
      {TEXT_FIELDS.map(({ field: name, label }) => field(name, label))}
      {NUMBER_FIELDS.map(({ field: name, label }) => field(name, label))}
      {LIST_FIELDS.map(({ field: name, label }) => field(name, label, 'comma-separated'))}
      <label className="field">
        <span>Ranking</span>
        <select
          value={draft.ranking}
          onChange={(event) => set({ ranking: event.target.value === 'declared' ? 'declared' : 'bm25' })}
        >
          <option value="bm25">bm25 (FTS5)</option>
          <option value="declared">declared scores</option>
        </select>
      </label>
      <label className="field checkbox">
        <input
          type="checkbox"
          checked={draft.typedEvidenceOnly}
          onChange={(event) => set({ typedEvidenceOnly: event.target.checked })}
        />
        <span>Typed evidence only</span>
      </label>
      {hiddenChanges.length > 0 ? (
        <p className="caption" data-testid="override-other-fields">
          Also changed for this compilation (see Raw JSON for the scenario's values):{' '}
          {hiddenChanges
            .map(
              (change) =>
                `${change.contractFields.filter((item) => !FORM_FIELDS.has(item)).join(', ')} by ` +
                `${changeKind(change)} “${change.label}”`,
            )
            .join('; ')}
          .
        </p>
      ) : null}
      <p className="caption">
        Principals, identities, propositions and forbidden lifecycle states are edited in raw JSON.
      </p>
      <button type="submit" ref={apply}>
        Apply contract
      </button>
    </form>
  );
}
