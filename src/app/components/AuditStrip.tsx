import { useResultStore } from '../state/result-store';
import { shortHash } from './format';

export const GOVERNING_PRINCIPLE = 'Legality first: rank only inside the admitted set, protect required records, and emit nothing when an obligation cannot be met.';

/** One line of facts an auditor asks for first: counts, exact budget, receipt, principle. */
export function AuditStrip() {
  const response = useResultStore((state) => state.response);
  const failed = useResultStore((state) => state.failure !== null);
  const view = response?.ok ? response.view : null;
  return (
    <section className="audit-strip" aria-label="Audit strip" data-testid="audit-strip">
      {view ? (
        <dl>
          <div>
            <dt>Selected</dt>
            <dd data-testid="audit-selected">{view.counts.selected}</dd>
          </div>
          <div>
            <dt>Excluded</dt>
            <dd data-testid="audit-excluded">{view.counts.excluded}</dd>
          </div>
          <div>
            <dt>Budget</dt>
            <dd data-testid="audit-budget">
              {view.tokensUsed} / {view.tokenBudget} tokens
            </dd>
          </div>
          <div>
            <dt>Outcome</dt>
            <dd data-testid="audit-outcome">{view.status === 'packet' ? 'Packet emitted' : 'Fail-closed: no packet'}</dd>
          </div>
          <div>
            <dt>Receipt</dt>
            <dd data-testid="audit-receipt" title={view.receiptId}>
              {shortHash(view.receiptId)}
            </dd>
          </div>
        </dl>
      ) : (
        <p>{failed ? 'Not compiled: the compiler failed' : response && !response.ok ? `Not compiled: ${response.error.code}` : 'Compiling…'}</p>
      )}
      <p className="principle" data-testid="audit-principle">
        {GOVERNING_PRINCIPLE}
      </p>
    </section>
  );
}
