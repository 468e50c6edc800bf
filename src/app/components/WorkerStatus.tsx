import { dismissWorkerNotice, retryCompiler, startFromBuiltins } from '../state/session-actions';
import { useUiStore } from '../state/ui-store';

/** Says when the compiler worker could not start or ended unasked, what happened next, and the ways back. */
export function WorkerStatus() {
  const fatal = useUiStore((state) => state.fatal);
  const notice = useUiStore((state) => state.workerNotice);
  if (fatal) {
    return (
      <div className="fail-closed" role="alert" data-testid="fatal-error">
        <p>{fatal}</p>
        <p>Nothing can be compiled until it runs: no packet, receipt or trace is shown.</p>
        <div className="button-row">
          <button type="button" onClick={() => void retryCompiler()}>
            Try again
          </button>
          <button type="button" className="secondary" onClick={() => void startFromBuiltins()}>
            Start without the saved workspace
          </button>
        </div>
      </div>
    );
  }
  if (!notice) return null;
  if (notice.status === 'restarting') {
    return (
      <div className="notice" role="alert" data-testid="worker-restarting">
        The compiler stopped ({notice.reason}). Starting it again and restoring your workspace…
      </div>
    );
  }
  return (
    <div className="notice" role="status" data-testid="worker-restarted">
      <p>
        The compiler stopped ({notice.reason}) and was started again. Your loaded files, selection and contract edits
        were restored and compiled afresh; a receipt frozen for the fire drill was not kept.
      </p>
      <button type="button" className="secondary" onClick={dismissWorkerNotice}>
        Dismiss
      </button>
    </div>
  );
}
