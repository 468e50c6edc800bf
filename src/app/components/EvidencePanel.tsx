import type { EvidenceSlot, EvidenceState } from '../../core/result';
import { useResultStore } from '../state/result-store';

const STATE_LABELS: Record<EvidenceState, string> = { supported: '✓ Supported', contradicted: '✗ Contradicted', unknown: '? Unknown' };

/** Reviewer wording: the packet can only speak for what was admitted, never for what exists. */
export function evidenceSentence(slot: EvidenceSlot): string {
  const classes = slot.acceptedClasses.join(', ');
  if (slot.state === 'supported') return `Supported by admitted ${classes} evidence: ${slot.supporting.join(', ')}.`;
  if (slot.state === 'contradicted') return `Contradicted by admitted ${classes} evidence: ${slot.contradicting.join(', ')}.`;
  return `No admissible evidence was found in the admitted records of an accepted class (${classes}).`;
}

function Slot({ slot }: { slot: EvidenceSlot }) {
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
      {slot.notAccepted.length > 0 ? <p>Mentioned, but not an accepted class for it: {slot.notAccepted.join(', ')}.</p> : null}
      {slot.displaced.length > 0 ? <p>Admitted accepted evidence the budget left out: {slot.displaced.join(', ')}.</p> : null}
    </li>
  );
}

export function EvidencePanel() {
  const response = useResultStore((state) => state.response);
  const view = response?.ok ? response.view : null;
  // Nothing until there is a result: an empty panel here would be pushed down when the packets above arrive.
  if (!view) return null;
  return (
    <section className="panel" aria-labelledby="evidence-heading">
      <h2 id="evidence-heading">Evidence</h2>
      {view.status === 'fail_closed' ? (
        <p>No packet was emitted, so no proposition is established by it.</p>
      ) : view.evidence.length === 0 ? (
        <p>This contract requires no propositions.</p>
      ) : (
        <ul className="evidence-list">
          {view.evidence.map((slot) => (
            <Slot key={slot.proposition} slot={slot} />
          ))}
        </ul>
      )}
    </section>
  );
}
