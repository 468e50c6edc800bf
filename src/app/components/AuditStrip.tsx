import type { ReactNode } from 'react';
import { useDrillStore } from '../state/drill-store';
import { useResultStore } from '../state/result-store';
import { formatCount, shortHash } from './format';
import { TermLink } from './Glossary';

export const GOVERNING_PRINCIPLE =
  'Legality first: rank only inside the admitted set, protect required records, and emit nothing when ' +
  'an obligation cannot be met.';

function Fact({ term, value, testId, title }: { term: ReactNode; value: ReactNode; testId?: string; title?: string }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd data-testid={testId} title={title}>
        {value}
      </dd>
    </div>
  );
}

/**
 * One line of facts an auditor asks for first: counts, exact budget, receipt (user-view id in the user view),
 * principle. Before the first
 * result the same grid holds placeholders, so nothing below it moves when the result arrives.
 */
export function AuditStrip() {
  const response = useResultStore((state) => state.response);
  const failed = useResultStore((state) => state.failure !== null);
  const compiling = useResultStore((state) => state.compiling);
  const remembered = useResultStore((state) => state.rememberedReceipt !== null);
  const view = response?.ok ? response.view : null;
  const declared = useDrillStore((state) => state.declared);
  // A late change the fire drill declared and no compilation applied yet: the packet on screen is stale, whatever it
  // establishes.
  const lateChangePending = view !== null && declared.some((id) => !view.lateChanges.includes(id));
  const budget = <TermLink term="tokens">Budget</TermLink>;
  const receipt = <TermLink term="receipt">Receipt</TermLink>;
  const userViewId = <TermLink term="user-view-id">User view</TermLink>;
  const decision = <TermLink term="decision">Decision</TermLink>;
  return (
    <section className="audit-strip" aria-label="Audit strip" data-testid="audit-strip">
      {view ? (
        // While the inputs compile again the previous facts stay in place, dimmed, so nothing moves; the outcome says
        // it is not yet known.
        <dl aria-busy={compiling} className={compiling ? 'audit-outdated' : undefined}>
          <Fact term="Selected" value={formatCount(view.counts.selected)} testId="audit-selected" />
          <Fact
            term="Excluded"
            value={
              view.counts.withheld > 0
                ? `${formatCount(view.counts.excluded)} + ${formatCount(view.counts.withheld)} withheld`
                : formatCount(view.counts.excluded)
            }
            testId="audit-excluded"
          />
          <Fact
            term={budget}
            value={`${formatCount(view.tokensUsed)} / ${formatCount(view.tokenBudget)} tokens`}
            testId="audit-budget"
          />
          <Fact
            term="Outcome"
            value={
              remembered
                ? 'From your last session; checking…'
                : compiling
                  ? 'Compiling…'
                  : view.status === 'packet'
                    ? 'Packet emitted'
                    : 'Fail-closed: no packet'
            }
            testId="audit-outcome"
          />
          {/* The receipt id covers withheld records: the user view shows its own id instead (docs/FORMAT.md, "User-view
              export"). */}
          {view.receiptId !== null ? (
            <Fact term={receipt} value={shortHash(view.receiptId)} testId="audit-receipt" title={view.receiptId} />
          ) : (
            <Fact
              term={userViewId}
              value={shortHash(view.userViewId ?? '')}
              testId="audit-user-view"
              title={view.userViewId ?? undefined}
            />
          )}
          {/* A few words that fit one line at any width; which propositions are not established is said under Compare. */}
          <Fact
            term={decision}
            value={
              view.status !== 'packet'
                ? 'None: no packet'
                : lateChangePending
                  ? 'Stale: recompile first'
                  : view.decisionBlockedBy.length > 0
                    ? 'Reserved for a person'
                    : 'May rest on the packet'
            }
            testId="audit-decision"
            title={
              view.status !== 'packet'
                ? undefined
                : lateChangePending
                  ? 'A late change is declared since this receipt and not yet compiled: recompile before an answer rests ' +
                    'on the packet.'
                  : view.decisionBlockedBy.length > 0
                    ? `${view.decisionBlockedBy.join(', ')} not established`
                    : undefined
            }
          />
        </dl>
      ) : response && !response.ok ? (
        <p className="audit-error">Not compiled: {response.error.code}</p>
      ) : failed ? (
        <p className="audit-error">Not compiled: the compiler failed</p>
      ) : (
        <dl aria-busy="true">
          <Fact term="Selected" value="…" />
          <Fact term="Excluded" value="…" />
          <Fact term={budget} value="…" />
          <Fact term="Outcome" value="Compiling…" />
          <Fact term={receipt} value="…" />
          <Fact term={decision} value="…" />
        </dl>
      )}
      <p className="principle" data-testid="audit-principle">
        {GOVERNING_PRINCIPLE}
      </p>
    </section>
  );
}
