import { useId, useState } from 'react';
import type { Coverage, CoverageDimension } from '../../core/expectations/coverage';
import type { CaseView, MismatchView, SuiteView } from '../../worker/suites/expectation-runs';
import { useTestsStore } from '../state/tests-store';
import { useUiStore } from '../state/ui-store';
import { RecordLink } from './RecordInspector';
import { previewUpdatedSuite } from '../state/tests-actions';
import { SaveTestCase, SuiteDraftPreview, SuiteEditor } from './SuiteWriter';

/** Where a mismatch points: the record it concerns, else the contract, where the field it expects is decided. */
function Mismatch({ mismatch }: { mismatch: MismatchView }) {
  return (
    <li className="test-mismatch" data-testid="test-mismatch">
      <p>
        <code data-testid="test-place">{mismatch.place}</code>:{' '}
        <span data-testid="test-subject">{mismatch.subject}</span>
      </p>
      <dl>
        <dt>Expected</dt>
        <dd data-testid="test-expected">{mismatch.expected}</dd>
        <dt>Actual</dt>
        <dd data-testid="test-actual">{mismatch.actual}</dd>
      </dl>
      {mismatch.record === null ? (
        <button
          type="button"
          className="link-button"
          onClick={() => useUiStore.setState({ activeView: 'contract', workspace: 'debugger' })}
        >
          Show the contract ({mismatch.field})
        </button>
      ) : (
        <RecordLink id={mismatch.record} />
      )}
    </li>
  );
}

function Case({ entry }: { entry: CaseView }) {
  return (
    <li
      className={entry.passed ? 'test-case passed' : 'test-case failed'}
      data-testid="test-case"
      data-passed={entry.passed}
    >
      <span className="test-mark" aria-hidden="true">
        {entry.passed ? '✓' : '✗'}
      </span>{' '}
      <span className="test-name" data-testid="test-name">
        {entry.name}
      </span>{' '}
      <span className="test-verdict">{entry.passed ? 'passes' : 'fails'}</span>
      {entry.notChecked > 0 && (
        <p className="test-not-checked">
          {entry.notChecked} expectation{entry.notChecked === 1 ? ' is' : 's are'} not checked in the user view:{' '}
          {entry.notChecked === 1 ? 'it concerns' : 'they concern'} a record you may not see, or the baselines.
        </p>
      )}
      {entry.mismatches.length > 0 && (
        <ul className="test-mismatches">
          {entry.mismatches.map((mismatch) => (
            <Mismatch key={mismatch.place + mismatch.subject} mismatch={mismatch} />
          ))}
        </ul>
      )}
    </li>
  );
}

const DIMENSIONS: readonly { readonly key: CoverageDimension; readonly label: string }[] = [
  { key: 'codes', label: 'Reason codes' },
  { key: 'gates', label: 'Gates failed' },
  { key: 'controls', label: 'Controls' },
  { key: 'lateChanges', label: 'Late changes' },
  { key: 'propositions', label: 'Propositions' },
];

/** What the cases reached, as `context-compiler test --coverage` reports it: the share, and what was never reached. */
function CoverageTable({ coverage }: { coverage: Coverage }) {
  return (
    <table className="tests-coverage" data-testid="tests-coverage">
      <caption>Coverage of the open suites on the inputs on screen</caption>
      <thead>
        <tr>
          <th scope="col">What</th>
          <th scope="col">Reached</th>
          <th scope="col">Never reached</th>
        </tr>
      </thead>
      <tbody>
        {DIMENSIONS.map(({ key, label }) => (
          <tr key={key} data-testid={`coverage-${key}`}>
            <th scope="row">{label}</th>
            <td>{coverage[key].percent}%</td>
            <td>{coverage[key].missed.length === 0 ? 'nothing' : coverage[key].missed.join(', ')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Suite({ suite, onClose }: { suite: SuiteView; onClose: (file: string) => void }) {
  const headingId = useId();
  const [editing, setEditing] = useState(false);
  return (
    <section className="test-suite" aria-labelledby={headingId} data-testid="test-suite">
      <h3 id={headingId} data-testid="test-suite-name">
        {suite.suite}
      </h3>
      <p className="test-file">
        {suite.file}{' '}
        <button
          type="button"
          className="link-button"
          onClick={() => onClose(suite.file)}
          aria-label={`Close ${suite.file}`}
        >
          Close
        </button>{' '}
        <button
          type="button"
          className="link-button"
          onClick={() => void previewUpdatedSuite(suite.file)}
          aria-label={`Update expectations of ${suite.file}`}
        >
          Update expectations
        </button>{' '}
        <button
          type="button"
          className="link-button"
          onClick={() => setEditing(true)}
          aria-label={`Edit ${suite.file}`}
        >
          Edit
        </button>
      </p>
      {editing && <SuiteEditor file={suite.file} onDone={() => setEditing(false)} />}
      {suite.description !== '' && <p>{suite.description}</p>}
      <p className="caption" data-testid="test-suite-coverage">
        Reaches {suite.coverage.codes.percent}% of reason codes, {suite.coverage.gates.percent}% of gates,{' '}
        {suite.coverage.controls.percent}% of controls.
      </p>
      {suite.inputsNote !== null && <p className="test-inputs-note">{suite.inputsNote}</p>}
      {suite.problems.length > 0 && (
        <ul className="test-problems" role="alert">
          {suite.problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      <ul className="test-cases">
        {suite.cases.map((entry) => (
          <Case key={entry.name} entry={entry} />
        ))}
      </ul>
    </section>
  );
}

/**
 * The suites the user opened, run on the inputs on screen: each case passes or fails as controls, files or the
 * contract change, and a failing one says what it expected, what happened, and where to look.
 */
export function TestsPanel({
  onOpen,
  onClose,
}: {
  onOpen: (files: readonly File[]) => void;
  onClose: (file: string) => void;
}) {
  const { view, refusal, busy } = useTestsStore();
  const inputId = useId();
  return (
    <section className="tests-panel" aria-labelledby={`${inputId}-heading`} aria-busy={busy} data-testid="tests-panel">
      <h2 id={`${inputId}-heading`}>Tests</h2>
      <label htmlFor={inputId}>Open a suite (*.expect.json)</label>{' '}
      <input
        id={inputId}
        type="file"
        accept=".json,application/json"
        multiple
        data-testid="tests-open"
        onChange={(event) => onOpen([...(event.target.files ?? [])])}
      />
      {refusal !== null && (
        <p className="test-refusal" role="alert" data-testid="tests-refusal">
          {refusal}
        </p>
      )}
      <SuiteDraftPreview />
      {view === null || view.suites.length === 0 ? (
        <p>No suite open. A suite names what the contract must decide; open one, or drop it on the page.</p>
      ) : (
        <>
          <p className="tests-summary" role="status" data-testid="tests-summary">
            {view.passed} passing, {view.failed} failing.
          </p>
          {view.coverage !== null && <CoverageTable coverage={view.coverage} />}
          {view.suites.map((suite) => (
            <Suite key={suite.file} suite={suite} onClose={onClose} />
          ))}
        </>
      )}
      <SaveTestCase />
    </section>
  );
}
