import { useState } from 'react';
import type { Audience } from '../../core/disclosure';
import type { EvidenceSlot, EvidenceState } from '../../core/result';
import type { AttemptOutcome, CompileView, EvidenceAttempt, EvidenceAttempts } from '../../worker/protocol';
import { loadEvidenceAttempts } from '../state/actions';
import { useResultStore } from '../state/result-store';
import { CodeLink } from './Glossary';
import { RecordLink } from './RecordInspector';

const STATE_LABELS: Record<EvidenceState, string> = {
  supported: '✓ Supported',
  contradicted: '✗ Contradicted',
  unknown: '? Unknown',
};

const OUTCOME_LABELS: Record<AttemptOutcome, string> = {
  used: 'used in the packet',
  left_out: 'admitted, but not in the packet',
  class_not_accepted: 'admitted, but its class is not accepted for this proposition',
  refused: 'refused by a gate',
};

/** Reviewer wording: the packet can only speak for what was admitted, never for what exists. */
export function evidenceSentence(slot: EvidenceSlot): string {
  const classes = slot.acceptedClasses.join(', ');
  if (slot.state === 'supported') return `Supported by admitted ${classes} evidence: ${slot.supporting.join(', ')}.`;
  if (slot.state === 'contradicted')
    return `Contradicted by admitted ${classes} evidence: ${slot.contradicting.join(', ')}.`;
  return `No admissible evidence was found in the admitted records of an accepted class (${classes}).`;
}

/** Shown while the worker works out the attempts of a large record set, which it sends after the result. */
function AttemptsPending() {
  return (
    <p className="attempts-pending" data-testid="attempts-pending">
      Finding the records that tried…
    </p>
  );
}

/**
 * Every record that claimed the proposition and what became of it, so "unknown" names who tried and why each failed.
 */
function Attempts({ attempts, view }: { attempts: EvidenceAttempts | undefined; view: CompileView }) {
  // Pages fetched after the view's first, for the compilation and view they extend: a new one starts from its own first
  // page
  // (the same compilation with its baselines filled in keeps them).
  const [more, setMore] = useState<{
    readonly compilation: number;
    readonly audience: Audience;
    readonly attempts: readonly EvidenceAttempt[];
  } | null>(null);
  const [busy, setBusy] = useState(false);
  if (!attempts) return null;
  if (attempts.total === 0)
    return <p data-testid={`attempts-${attempts.proposition}`}>No record in this view claims it.</p>;
  const listed =
    more?.compilation === view.compilation && more.audience === view.audience
      ? [...attempts.attempts, ...more.attempts]
      : attempts.attempts;
  const hidden = attempts.total - listed.length;
  // The worker's page size is the first page's length whenever some are hidden (protocol.ts is imported for types
  // only).
  const showMore = async () => {
    setBusy(true);
    const page = await loadEvidenceAttempts(view.compilation, view.audience, attempts.proposition, listed.length);
    setBusy(false);
    if (page)
      setMore({
        compilation: view.compilation,
        audience: view.audience,
        attempts: [...listed.slice(attempts.attempts.length), ...page.attempts],
      });
  };
  return (
    <details
      className="attempts"
      open={attempts.attempts.every((attempt) => attempt.outcome !== 'used')}
      data-testid={`attempts-${attempts.proposition}`}
    >
      <summary>Records that tried ({attempts.total})</summary>
      <ul>
        {listed.map((attempt) => (
          <li
            key={`${attempt.id}-${attempt.claim}`}
            className={`attempt attempt-${attempt.outcome}`}
            data-testid={`attempt-${attempts.proposition}-${attempt.id}`}
          >
            <RecordLink id={attempt.id} /> ({attempt.evidenceClass}, {attempt.claim}): {OUTCOME_LABELS[attempt.outcome]}{' '}
            · <CodeLink code={attempt.code} /> <span className="fact">{attempt.fact}</span>
          </li>
        ))}
      </ul>
      {hidden > 0 ? (
        <p className="attempts-more">
          Showing {listed.length} of {attempts.total}.{' '}
          <button
            type="button"
            data-testid={`attempts-more-${attempts.proposition}`}
            disabled={busy}
            onClick={() => void showMore()}
          >
            Show {Math.min(attempts.attempts.length, hidden)} more
          </button>
        </p>
      ) : null}
    </details>
  );
}

function Slot({
  slot,
  attempts,
  view,
}: {
  slot: EvidenceSlot;
  attempts: EvidenceAttempts | undefined;
  view: CompileView;
}) {
  return (
    <li className={`evidence evidence-${slot.state}`} data-testid={`evidence-${slot.proposition}`}>
      <div className="evidence-head">
        <strong>{slot.proposition}</strong>
        <span className="badge" data-testid={`evidence-state-${slot.proposition}`}>
          {STATE_LABELS[slot.state]}
        </span>
        {slot.blocking ? <span className="badge">blocking</span> : null}
      </div>
      {slot.description ? <p>{slot.description}</p> : null}
      <p>{evidenceSentence(slot)}</p>
      {slot.notAccepted.length > 0 ? (
        <p>Mentioned, but not an accepted class for it: {slot.notAccepted.join(', ')}.</p>
      ) : null}
      {slot.displaced.length > 0 ? (
        <p>Admitted accepted evidence the budget left out: {slot.displaced.join(', ')}.</p>
      ) : null}
      {view.evidenceAttempts === null ? <AttemptsPending /> : <Attempts attempts={attempts} view={view} />}
    </li>
  );
}

export function EvidencePanel() {
  const response = useResultStore((state) => state.response);
  const view = response?.ok ? response.view : null;
  // Nothing until there is a result: an empty panel here would be pushed down when the packets above arrive.
  if (!view) return null;
  const attemptsOf = (proposition: string) =>
    view.evidenceAttempts?.find((attempts) => attempts.proposition === proposition);
  return (
    <section className="panel" aria-labelledby="evidence-heading">
      <h2 id="evidence-heading">Evidence</h2>
      {view.status === 'fail_closed' ? (
        <>
          <p>No packet was emitted, so no proposition is established by it.</p>
          {view.evidenceAttempts === null ? (
            <AttemptsPending />
          ) : view.evidenceAttempts.length > 0 ? (
            <ul className="evidence-list">
              {view.evidenceAttempts.map((attempts) => (
                <li key={attempts.proposition} className="evidence" data-testid={`evidence-${attempts.proposition}`}>
                  <strong>{attempts.proposition}</strong>
                  <Attempts attempts={attempts} view={view} />
                </li>
              ))}
            </ul>
          ) : null}
        </>
      ) : view.evidence.length === 0 ? (
        <p>This contract requires no propositions.</p>
      ) : (
        <ul className="evidence-list">
          {view.evidence.map((slot) => (
            <Slot key={slot.proposition} slot={slot} attempts={attemptsOf(slot.proposition)} view={view} />
          ))}
        </ul>
      )}
    </section>
  );
}
