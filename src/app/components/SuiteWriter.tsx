import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { formatIssue } from '../../core/errors';
import {
  checkSuiteText,
  discardDraft,
  keepDraft,
  openSuites,
  previewCaseFromScreen,
  suiteTextOf,
} from '../state/tests-actions';
import { JsonEditor, useTypedIssues } from './JsonEditor';
import { useTestsStore } from '../state/tests-store';

const idsOf = (text: string) =>
  text
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');

/** "Save as test case": a case stating what the screen shows, added to a new suite or an open one. */
export function SaveTestCase() {
  const view = useTestsStore((state) => state.view);
  const [name, setName] = useState('');
  const [records, setRecords] = useState('');
  const [suite, setSuite] = useState('');
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void previewCaseFromScreen({ name: name.trim(), records: idsOf(records), suite: suite === '' ? null : suite });
  };
  return (
    <form className="save-test-case" aria-labelledby={`${id}-heading`} onSubmit={submit}>
      <h3 id={`${id}-heading`}>Save as test case</h3>
      <p className="caption">
        A case that states what this screen shows: its controls and late changes, the outcome, the packet in order, the
        evidence, and the decisions of the records you name.
      </p>
      <label className="field">
        <span>Case name</span>
        <input value={name} onChange={(event) => setName(event.target.value)} required data-testid="case-name" />
      </label>
      <label className="field">
        <span>
          Records whose decision it states <span className="hint">(comma-separated ids)</span>
        </span>
        <input value={records} onChange={(event) => setRecords(event.target.value)} data-testid="case-records" />
      </label>
      <label className="field">
        <span>Add to</span>
        <select value={suite} onChange={(event) => setSuite(event.target.value)} data-testid="case-suite">
          <option value="">a new suite</option>
          {(view?.suites ?? []).map((open) => (
            <option key={open.file} value={open.file}>
              {open.file}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Preview test case</button>
    </form>
  );
}

/** The scenario file a suite names as its inputs (an edited or loaded scenario), or null for a built-in one. */
function scenarioFileOf(text: string): string | null {
  const inputs = (JSON.parse(text) as { inputs?: { scenarioFile?: unknown } }).inputs;
  return typeof inputs?.scenarioFile === 'string' ? inputs.scenarioFile : null;
}

/** The suite a case or an update would write, as a diff against what is open; nothing is kept until "Keep". */
export function SuiteDraftPreview() {
  const shown = useTestsStore((state) => state.draft);
  const id = useId();
  if (shown === null) return null;
  const { draft, purpose } = shown;
  return (
    <section className="suite-draft" aria-labelledby={`${id}-heading`} data-testid="suite-draft">
      <h3 id={`${id}-heading`}>{purpose === 'case' ? 'New test case' : 'Updated expectations'}</h3>
      {draft.ok ? (
        <>
          <p className="caption">
            {draft.file}: lines marked + are added, − removed. Keep downloads the suite and opens it here;{' '}
            <code>context-compiler test {draft.file}</code> runs it unchanged.
          </p>
          {scenarioFileOf(draft.text) !== null && (
            <p data-testid="suite-draft-scenario-file">
              Its inputs are {scenarioFileOf(draft.text)}, the scenario as edited here: Export scenario (Debugger)
              writes it; keep both files in one folder.
            </p>
          )}
          {draft.notShown.length > 0 && (
            <p data-testid="suite-draft-not-shown">
              Not in this view&apos;s trace, so left out: {draft.notShown.join(', ')}.
            </p>
          )}
          {draft.unchanged.length > 0 && (
            <p>Left as written (a matrix runs under several sets of switches): {draft.unchanged.join(', ')}.</p>
          )}
          <pre className="suite-diff" data-testid="suite-diff">
            {draft.diff.map((line, index) => (
              <span key={index} className={`diff-${line.kind}`} data-kind={line.kind}>
                {line.kind === 'added' ? '+ ' : line.kind === 'removed' ? '− ' : '  '}
                {line.text}
                {'\n'}
              </span>
            ))}
          </pre>
          <div className="button-row">
            <button type="button" onClick={() => void keepDraft()}>
              Keep and download
            </button>
            <button type="button" className="secondary" onClick={discardDraft}>
              Discard
            </button>
          </div>
        </>
      ) : (
        <>
          <ul className="issues" role="alert" data-testid="suite-draft-issues">
            {draft.issues.map((issue, index) => (
              <li key={index}>{formatIssue(issue)}</li>
            ))}
          </ul>
          <button type="button" className="secondary" onClick={discardDraft}>
            Discard
          </button>
        </>
      )}
    </section>
  );
}

/**
 * An open suite edited in place: highlighted, checked as typed with the CLI's reading, run on the screen's inputs with
 * Ctrl+Enter.
 */
export function SuiteEditor({ file, onDone }: { file: string; onDone: () => void }) {
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void suiteTextOf(file).then((found) => {
      if (current) setText(found);
    });
    return () => {
      current = false;
    };
  }, [file]);
  const check = useCallback((typed: string) => checkSuiteText(file, typed), [file]);
  const issues = useTypedIssues(text ?? '', check);
  const id = useId();
  if (text === null) return null;
  const run = () => {
    void openSuites([new File([text], file, { type: 'application/json' })]).then(onDone);
  };
  return (
    <div className="suite-editor" data-testid="suite-editor">
      <JsonEditor
        label={`Suite ${file}`}
        text={text}
        onChange={setText}
        onApply={run}
        issues={issues}
        issuesId={`${id}-issues`}
        testId="suite-json"
      />
      {issues.length > 0 && (
        <ul
          className="issues"
          id={`${id}-issues`}
          data-testid="suite-typed-issues"
          aria-live="polite"
          aria-label="Problems as typed"
        >
          {issues.map((issue, index) => (
            <li key={index}>{formatIssue(issue)}</li>
          ))}
        </ul>
      )}
      <div className="button-row">
        <button type="button" onClick={run}>
          Run edited suite
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Stop editing
        </button>
      </div>
    </div>
  );
}
