import { formatIssue } from '../../core/errors';
import { cancelLoad, dismissLoadStatus } from '../state/workspace-actions';
import { useResultStore } from '../state/result-store';
import { useScenarioStore } from '../state/scenario-store';
import { VERDICT_HEADLINES } from './DrillPanel';
import { CodeLink } from './Glossary';
import { VerdictDiff } from './ReceiptDiffView';

const PHASES = { reading: 'Reading', indexing: 'Indexing' } as const;

/** Progress of a file load, or what it did, or every problem found (and that nothing was changed). */
export function LoadStatus() {
  const load = useScenarioStore((state) => state.load);
  const revision = useResultStore((state) => state.revision);
  const compiling = useResultStore((state) => state.compiling);
  if (load.status === 'idle') return null;
  if (load.status === 'loading') {
    const progress = load.progress;
    const percent = progress && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : null;
    return (
      <div className="load-status" data-testid="load-progress">
        <label>
          {progress ? `${PHASES[progress.phase]} ${progress.file}` : 'Reading files'}
          <progress aria-label="Loading files" max={100} value={percent ?? undefined} />
        </label>
        {percent !== null ? <span>{percent}%</span> : null}
        <button type="button" onClick={() => void cancelLoad()}>
          Cancel loading
        </button>
      </div>
    );
  }
  const dismiss = (
    <button type="button" className="secondary" onClick={dismissLoadStatus}>
      Dismiss
    </button>
  );
  if (load.status === 'cancelled') {
    return (
      <div className="load-status" role="status" data-testid="load-cancelled">
        Cancelled: nothing was loaded or saved, and the workspace is as it was. {dismiss}
      </div>
    );
  }
  if (load.status === 'rejected') {
    return (
      <div className="load-status load-errors" role="alert" data-testid="load-errors">
        <strong>The files were not loaded: nothing that was loaded before has changed.</strong>
        {load.summaries.map((summary, index) => (
          <p key={index} data-testid="load-file-summary">
            {summary.file}: {summary.message}
          </p>
        ))}
        <ul>
          {load.issues.map((issue, index) => (
            <li key={index} data-testid="load-issue">
              {formatIssue(issue)}
            </li>
          ))}
        </ul>
        {dismiss}
      </div>
    );
  }
  // A verdict speaks for the inputs it was judged against: from the moment they change until it is judged again, it
  // says so.
  const outdated = compiling || load.checkedAt !== revision;
  return (
    <div className="load-status" role="status" data-testid="load-result">
      <p>{load.message}</p>
      {load.receiptChecks.map((check) =>
        outdated ? (
          <div key={check.file} className="receipt-check verdict verdict-outdated" data-testid="receipt-check">
            <p>
              <strong>{check.file}: INPUTS CHANGED — CHECKING AGAIN</strong> The inputs were changed after this receipt
              was checked, so its verdict no longer applies; it is judged again against the new compilation.
            </p>
          </div>
        ) : (
          <div
            key={check.file}
            className={`receipt-check verdict verdict-${check.verdict.action}`}
            data-testid="receipt-check"
          >
            <p>
              <strong>
                {check.file}: {VERDICT_HEADLINES[check.verdict.action]}
              </strong>{' '}
              <CodeLink code={check.verdict.code} /> {check.verdict.message}
            </p>
            <VerdictDiff verdict={check.verdict} />
          </div>
        ),
      )}
      {dismiss}
    </div>
  );
}
