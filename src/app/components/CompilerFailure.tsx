import { retryAfterFailure, revertContract, selectScenario } from '../state/workspace-actions';
import { wordsText } from '../../core/messages';
import { useResultStore } from '../state/result-store';
import { selectedScenario, useScenarioStore } from '../state/scenario-store';

/**
 * The fail-closed state after a call to the worker threw or was lost: what was being done, why it
 * failed, that nothing from it is shown, and the ways back (try again, undo the contract edit, or go
 * back to the first built-in scenario).
 */
export function CompilerFailure() {
  const failure = useResultStore((state) => state.failure);
  const scenario = useScenarioStore(selectedScenario);
  const fallback = useScenarioStore(
    (state) => state.workspace?.scenarios.find((entry) => entry.origin === 'builtin') ?? null,
  );
  if (!failure) return null;
  return (
    <div className="fail-closed" role="alert" data-testid="compiler-failure">
      <strong>{wordsText(failure.headline)}</strong>
      <p data-testid="compiler-failure-reason">{wordsText(failure.reason)}</p>
      <p>
        Nothing from before the failure is shown: there is no packet to copy or download, no receipt and no trace until
        a compilation succeeds.
      </p>
      <div className="button-row">
        <button type="button" onClick={() => void retryAfterFailure()}>
          Try again
        </button>
        {scenario?.contractEdited ? (
          <button type="button" className="secondary" onClick={() => void revertContract()}>
            Undo contract edits
          </button>
        ) : null}
        {fallback && fallback.key !== scenario?.key ? (
          <button type="button" className="secondary" onClick={() => void selectScenario(fallback.key)}>
            Open {fallback.title}
          </button>
        ) : null}
      </div>
    </div>
  );
}
