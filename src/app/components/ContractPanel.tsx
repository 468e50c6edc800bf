import { useEffect, useRef, useState, type FormEvent, type RefObject } from 'react';
import type { InputIssue } from '../../core/errors';
import type { Contract } from '../../core/format/contract';
import type { AppliedChange, CompileView, ScenarioSummary } from '../../worker/protocol';
import { compileNow } from '../state/actions';
import { exportScenario } from '../state/export-actions';
import { checkContractText, revertContract, selectScenario, setControl, updateContract } from '../state/workspace-actions';
import { JsonEditor, useTypedIssues } from './JsonEditor';
import { useResultStore } from '../state/result-store';
import { useUiStore } from '../state/ui-store';
import { useChangeText } from './change-text';
import { SteadyButton } from './SteadyButton';
import { formatCount, plural } from './format';
import { selectedScenario, useScenarioStore } from '../state/scenario-store';

type TextField = 'task' | 'query' | 'asOf' | 'purpose' | 'project' | 'subject';
type NumberField = 'tokenBudget' | 'naiveTopK';
type ListField = 'scopes' | 'requiredRecords' | 'allowedSourceClasses' | 'allowedAuthorityClasses' | 'acceptedReviewStates' | 'forbiddenSensitivity' | 'denyLabels';

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

type Draft = Record<TextField | NumberField | ListField, string> & { typedEvidenceOnly: boolean; ranking: Contract['ranking'] };

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
  const value: Record<string, unknown> = { ...contract, typedEvidenceOnly: draft.typedEvidenceOnly, ranking: draft.ranking };
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

const issuesAt = (issues: readonly InputIssue[], field: string) => issues.filter((issue) => issue.path === field || issue.path.startsWith(`${field}[`) || issue.path.startsWith(`${field}.`));

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
  return view && view.scenarioKey === scenario.key ? { contract: view.compiledContract, changes: view.appliedChanges } : null;
}

const changeKind = (change: AppliedChange) => (change.kind === 'control' ? 'control' : 'late change');

function ChangeBadges({ changes, id }: { changes: readonly AppliedChange[]; id?: string }) {
  return (
    <span className="change-badges" id={id}>
      {changes.map((change) => (
        <span key={change.id} className={`badge change-badge change-${change.kind}`} data-testid={`change-badge-${change.id}`}>
          {changeKind(change)}: {change.label}
        </span>
      ))}
    </span>
  );
}

const FORM_FIELDS = new Set<string>(['typedEvidenceOnly', 'ranking', ...TEXT_FIELDS.map((item) => item.field), ...NUMBER_FIELDS.map((item) => item.field), ...LIST_FIELDS.map((item) => item.field)]);

/** Which button had the focus when an applied edit remounted the editor, so the new editor can give it back. */
type Refocus = RefObject<'apply' | 'apply-json' | 'heading' | null>;

function useRefocus(refocus: Refocus, mine: 'apply' | 'apply-json') {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (refocus.current !== mine) return;
    refocus.current = null;
    button.current?.focus();
  }, [refocus, mine]);
  return button;
}

function ContractForm({ scenario, issues, compiled, refocus }: { scenario: ScenarioSummary; issues: readonly InputIssue[]; compiled: CompiledInputs | null; refocus: Refocus }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(scenario.contract));
  const apply = useRefocus(refocus, 'apply');
  const compiledDraft = compiled ? draftOf(compiled.contract) : null;
  // A field an active control or late change sets shows the compiled value, read-only: the form edits the scenario's own contract.
  const overriders = (name: string) => (compiled ? compiled.changes.filter((change) => change.contractFields.includes(name)) : []);
  const hiddenChanges = compiled ? compiled.changes.filter((change) => change.contractFields.some((field) => !FORM_FIELDS.has(field))) : [];
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
    const describedBy = [fieldIssues.length > 0 ? errorId : null, overridden ? overrideId : null].filter((value) => value !== null).join(' ');
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
            Compiled value, set by <ChangeBadges changes={changedBy} />. The scenario says “{draft[name] === '' ? 'none' : draft[name]}”; switch it off to edit this field.
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
        <select value={draft.ranking} onChange={(event) => set({ ranking: event.target.value === 'declared' ? 'declared' : 'bm25' })}>
          <option value="bm25">bm25 (FTS5)</option>
          <option value="declared">declared scores</option>
        </select>
      </label>
      <label className="field checkbox">
        <input type="checkbox" checked={draft.typedEvidenceOnly} onChange={(event) => set({ typedEvidenceOnly: event.target.checked })} />
        <span>Typed evidence only</span>
      </label>
      {hiddenChanges.length > 0 ? (
        <p className="caption" data-testid="override-other-fields">
          Also changed for this compilation (see Raw JSON for the scenario's values):{' '}
          {hiddenChanges.map((change) => `${change.contractFields.filter((item) => !FORM_FIELDS.has(item)).join(', ')} by ${changeKind(change)} “${change.label}”`).join('; ')}.
        </p>
      ) : null}
      <p className="caption">Principals, identities, propositions and forbidden lifecycle states are edited in raw JSON.</p>
      <button type="submit" ref={apply}>
        Apply contract
      </button>
    </form>
  );
}

function RawContract({ scenario, refocus }: { scenario: ScenarioSummary; refocus: Refocus }) {
  const [text, setText] = useState(() => `${JSON.stringify(scenario.contract, null, 2)}\n`);
  const typedIssues = useTypedIssues(text, checkContractText);
  const apply = useRefocus(refocus, 'apply-json');
  const applyText = () => {
    refocus.current = 'apply-json';
    void updateContract({ text }).then((applied) => {
      if (!applied) refocus.current = null;
    });
  };
  return (
    <div className="raw-contract">
      <JsonEditor label="Contract JSON" text={text} onChange={setText} onApply={applyText} issues={typedIssues} issuesId="contract-typed-issues" testId="contract-json" />
      {typedIssues.length > 0 ? (
        <ul className="issues" id="contract-typed-issues" data-testid="contract-typed-issues" aria-live="polite" aria-label="Problems as typed">
          {typedIssues.map((issue, index) => (
            <li key={index}>
              <code>{issue.path}</code>
              {issue.line === undefined ? '' : ` (line ${issue.line})`}: {issue.message}
            </li>
          ))}
        </ul>
      ) : null}
      <button type="button" ref={apply} onClick={applyText}>
        Apply JSON
      </button>
    </div>
  );
}

function ContractEditor({ scenario, compiled }: { scenario: ScenarioSummary; compiled: CompiledInputs | null }) {
  const [mode, setMode] = useState<'form' | 'json'>('form');
  const issues = useScenarioStore((state) => state.contractIssues);
  const refocus: Refocus = useRef(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // Revert removes its own button: the focus goes to the editor's heading instead of <body>.
  useEffect(() => {
    if (refocus.current !== 'heading' || scenario.contractEdited) return;
    refocus.current = null;
    heading.current?.focus();
  }, [scenario.contractEdited]);
  // Remount the editors whenever the contract in force changes, so a draft never outlives its contract.
  const revision = `${scenario.key}:${JSON.stringify(scenario.contract)}`;
  return (
    // Named apart from the panel's own "Contract" region: two landmarks of one name cannot be told apart.
    <section className="contract-editor" aria-label="Contract editor">
      <h3 id="contract-editor-heading" ref={heading} tabIndex={-1}>
        Contract{scenario.contractEdited ? ' (edited)' : ''}
      </h3>
      <div className="button-row" role="group" aria-label="Contract editor mode">
        <button type="button" aria-pressed={mode === 'form'} onClick={() => setMode('form')}>
          Form
        </button>
        <button type="button" aria-pressed={mode === 'json'} onClick={() => setMode('json')}>
          Raw JSON
        </button>
        {scenario.contractEdited ? (
          <button
            type="button"
            className="secondary"
            onClick={() => {
              refocus.current = 'heading';
              void revertContract();
            }}
          >
            Revert contract edits
          </button>
        ) : null}
      </div>
      {issues.length > 0 ? (
        <ul className="issues" id="contract-issues" data-testid="contract-issues" role="alert" aria-label="Contract problems">
          {issues.map((issue, index) => (
            <li key={index}>
              <code>{issue.path}</code>
              {issue.line === undefined ? '' : ` (line ${issue.line})`}: {issue.message}
            </li>
          ))}
          <li>The last valid contract stays in force until this is fixed.</li>
        </ul>
      ) : null}
      {mode === 'form' ? (
        <ContractForm key={revision} scenario={scenario} issues={issues} compiled={compiled} refocus={refocus} />
      ) : (
        <RawContract key={revision} scenario={scenario} refocus={refocus} />
      )}
    </section>
  );
}

function ControlToggles({ scenario }: { scenario: ScenarioSummary }) {
  const active = useScenarioStore((state) => state.workspace?.selection.controls ?? []);
  const textOf = useChangeText(scenario.key);
  if (scenario.controls.length === 0) return <p>This scenario declares no controls.</p>;
  return (
    <fieldset className="controls">
      <legend>Poison controls</legend>
      {scenario.controls.map((control) => {
        const { label, explanation } = textOf(control, 'control');
        return (
          <div key={control.id} className="control">
            <label>
              <input
                type="checkbox"
                role="switch"
                checked={active.includes(control.id)}
                onChange={(event) => void setControl(control.id, event.target.checked)}
                aria-describedby={`control-help-${control.id}`}
                data-testid={`control-${control.id}`}
              />
              {label}
            </label>
            <p className="caption" id={`control-help-${control.id}`}>
              {explanation}
            </p>
          </div>
        );
      })}
    </fieldset>
  );
}

/** "(loaded)", "(edited)" or both, so an edited scenario is told apart wherever it is listed. */
export function scenarioMarks(scenario: ScenarioSummary): string {
  const marks = [scenario.origin === 'loaded' ? 'loaded' : null, scenario.contractEdited ? 'edited' : null].filter((mark) => mark !== null);
  return marks.length === 0 ? '' : ` (${marks.join(', ')})`;
}

export function ContractPanel() {
  const workspace = useScenarioStore((state) => state.workspace);
  const scenario = useScenarioStore(selectedScenario);
  const compiling = useResultStore((state) => state.compiling);
  const response = useResultStore((state) => state.response);
  const exportNotice = useScenarioStore((state) => state.exportNotice);
  const audience = useUiStore((state) => state.audience);
  if (!workspace || !scenario) return <section className="panel">Loading scenarios…</section>;
  const compiled = compiledInputsOf(response?.ok ? response.view : null, scenario);
  const recordCount = compiled && response?.ok ? response.view.recordCount : scenario.recordCount;
  return (
    <section className="panel" aria-labelledby="contract-heading">
      <h2 id="contract-heading" tabIndex={-1}>
        Contract
      </h2>
      <label className="field">
        <span>Scenario</span>
        <select className="scenario-picker" value={scenario.key} onChange={(event) => void selectScenario(event.target.value)} data-testid="scenario-picker">
          {workspace.scenarios.map((item) => (
            <option key={item.key} value={item.key}>
              {item.title}
              {scenarioMarks(item)}
            </option>
          ))}
        </select>
      </label>
      {scenario.contractEdited ? (
        <p className="edited-mark" data-testid="scenario-edited">
          <span className="badge">edited</span> Its contract differs from the {scenario.origin === 'loaded' ? 'loaded file' : 'built-in scenario'}; the edit is saved in this browser.
        </p>
      ) : null}
      {/* A scenario file holds every record and the controls' own words: it is the diagnostic view's to export. */}
      {audience === 'user' ? (
        <p className="caption" data-testid="export-scenario-diagnostic-only">
          Export scenario is in the diagnostic view: a scenario file holds every record, those this view withholds among them.
        </p>
      ) : (
        <>
          <div className="button-row">
            <button type="button" className="secondary" onClick={() => void exportScenario()}>
              Export scenario
            </button>
          </div>
          <p className="caption" role="status" data-testid="export-scenario-status">
            {exportNotice}
          </p>
        </>
      )}
      {scenario.description ? <p className="caption">{scenario.description}</p> : null}
      <p className="caption" data-testid="scenario-records">
        {plural(recordCount, 'record')}
        {recordCount !== scenario.recordCount ? ` (${formatCount(scenario.recordCount)} in the scenario)` : ''}
      </p>
      <ControlToggles scenario={scenario} />
      <SteadyButton onClick={() => void compileNow()} unavailable={compiling}>
        Compile context
      </SteadyButton>
      {/* Below the switches and in a line kept in place, so a result arriving never moves a switch under the pointer. */}
      <p className="compiled-with" data-testid="compiled-with">
        {compiled && compiled.changes.length > 0 ? (
          <>
            Compiled with <ChangeBadges changes={compiled.changes} />
          </>
        ) : null}
      </p>
      <ContractEditor scenario={scenario} compiled={compiled} />
    </section>
  );
}
