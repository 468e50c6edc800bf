import type { AsOfStop } from '../../worker/protocol';
import { stepAsOf } from '../state/debug-actions';
import { useDebugStore } from '../state/debug-store';
import { ReceiptDiffView } from './ReceiptDiffView';
import { SteadyButton } from './SteadyButton';

const KIND_LABELS: Record<AsOfStop['records'][number]['kind'], string> = {
  knownAt: 'known from',
  validFrom: 'valid from',
  expires: 'expired from',
};

function describeStop(stop: AsOfStop): string {
  const records = stop.records.map((record) => `${record.id} ${KIND_LABELS[record.kind]}`).join(', ');
  return stop.more > 0 ? `${records} and ${stop.more} more` : records;
}

/**
 * Moves the contract's as-of a day at a time, or to the next date at which a record enters or leaves the
 * time gate, and shows what the step changed. Each step is a contract edit, marked and undone like any other.
 */
export function AsOfStepper() {
  const stops = useDebugStore((state) => state.stops);
  const diff = useDebugStore((state) => state.asOfDiff);
  const stepping = useDebugStore((state) => state.stepping);
  const issues = useDebugStore((state) => state.stepIssues);
  if (!stops || stops.asOf === null) return null;
  const locked = stops.lockedBy !== null;
  const unavailable = stepping || locked;
  const previous = stops.before[stops.before.length - 1];
  const next = stops.after[0];
  return (
    <section className="panel as-of-stepper" aria-labelledby="as-of-heading" data-testid="as-of-stepper">
      <h2 id="as-of-heading">As-of stepper</h2>
      <p>
        Compiled as of <strong data-testid="as-of-current">{stops.asOf}</strong>.{' '}
        {locked ? (
          <span data-testid="as-of-locked">“{stops.lockedBy}” sets the as-of: switch it off to step.</span>
        ) : null}
      </p>
      <div className="button-row" role="group" aria-label="Step the as-of">
        <SteadyButton onClick={() => void stepAsOf({ days: -1 })} unavailable={unavailable}>
          − 1 day
        </SteadyButton>
        <SteadyButton onClick={() => void stepAsOf({ days: 1 })} unavailable={unavailable}>
          + 1 day
        </SteadyButton>
        <SteadyButton
          onClick={() => previous && void stepAsOf({ to: previous.at })}
          unavailable={unavailable || !previous}
          aria-label={previous ? `Previous boundary, ${previous.at}` : 'Previous boundary (none)'}
        >
          ◀ Previous boundary
        </SteadyButton>
        <SteadyButton
          onClick={() => next && void stepAsOf({ to: next.at })}
          unavailable={unavailable || !next}
          aria-label={next ? `Next boundary, ${next.at}` : 'Next boundary (none)'}
        >
          Next boundary ▶
        </SteadyButton>
      </div>
      {issues.length > 0 ? (
        <p className="field-error" role="alert">
          {issues.map((issue) => issue.message).join('; ')}
        </p>
      ) : null}
      <details className="as-of-stops">
        <summary>
          Nearby boundaries ({stops.before.length + stops.after.length} of {stops.total})
        </summary>
        <ol>
          {[...stops.before, ...stops.after].map((stop) => (
            <li key={stop.at}>
              <SteadyButton
                className="link-button"
                onClick={() => void stepAsOf({ to: stop.at })}
                unavailable={unavailable}
                data-testid={`as-of-stop-${stop.at}`}
              >
                {stop.at}
              </SteadyButton>{' '}
              {describeStop(stop)}
            </li>
          ))}
        </ol>
      </details>
      {diff === null ? null : diff.identical ? (
        <p data-testid="as-of-same">The last step changed nothing.</p>
      ) : (
        <ReceiptDiffView diff={diff} label="What the last as-of step changed" />
      )}
    </section>
  );
}
