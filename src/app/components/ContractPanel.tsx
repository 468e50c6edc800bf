import { useEffect, useRef, useState } from 'react';
import type { ScenarioSummary } from '../../worker/protocol';
import { compileNow } from '../state/actions';
import { exportScenario } from '../state/export-actions';
import {
  checkContractText,
  revertContract,
  selectScenario,
  setControl,
  updateContract,
} from '../state/workspace-actions';
import { JsonEditor, useTypedIssues } from './JsonEditor';
import { useResultStore } from '../state/result-store';
import { useUiStore } from '../state/ui-store';
import { useChangeText } from './use-change-text';
import { SteadyButton } from './SteadyButton';
import { formatCount, plural } from './format';
import { selectedScenario, useScenarioStore } from '../state/scenario-store';

import {
  ChangeBadges,
  compiledInputsOf,
  ContractForm,
  useRefocus,
  type CompiledInputs,
  type Refocus,
} from './ContractForm';

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
      <JsonEditor
        label="Contract JSON"
        text={text}
        onChange={setText}
        onApply={applyText}
        issues={typedIssues}
        issuesId="contract-typed-issues"
        testId="contract-json"
      />
      {typedIssues.length > 0 ? (
        <ul
          className="issues"
          id="contract-typed-issues"
          data-testid="contract-typed-issues"
          aria-live="polite"
          aria-label="Problems as typed"
        >
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
        <ul
          className="issues"
          id="contract-issues"
          data-testid="contract-issues"
          role="alert"
          aria-label="Contract problems"
        >
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
  const marks = [scenario.origin === 'loaded' ? 'loaded' : null, scenario.contractEdited ? 'edited' : null].filter(
    (mark) => mark !== null,
  );
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
        <select
          className="scenario-picker"
          value={scenario.key}
          onChange={(event) => void selectScenario(event.target.value)}
          data-testid="scenario-picker"
        >
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
          <span className="badge">edited</span> Its contract differs from the{' '}
          {scenario.origin === 'loaded' ? 'loaded file' : 'built-in scenario'}; the edit is saved in this browser.
        </p>
      ) : null}
      {/* A scenario file holds every record and the controls' own words: it is the diagnostic view's to export. */}
      {audience === 'user' ? (
        <p className="caption" data-testid="export-scenario-diagnostic-only">
          Export scenario is in the diagnostic view: a scenario file holds every record, those this view withholds among
          them.
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
