import type { DiffView, VerdictView } from '../../worker/protocol';
import { formatCount } from './format';
import { useUiStore } from '../state/ui-store';

/** A receipt diff as titled lists: what changed from the receipt to what decided the verdict. */
export function ReceiptDiffView({ diff, label }: { readonly diff: DiffView; readonly label: string }) {
  if (diff.identical) return null;
  const first = diff.firstDifference;
  return (
    <div className="receipt-diff" role="group" aria-label={label} data-testid="receipt-diff">
      <p className="caption">{label}</p>
      {first ? (
        <p data-testid="diff-first">
          First difference: <code>{first.path}</code>
          {first.recordId !== null ? ` (record ${first.recordId})` : ''}
        </p>
      ) : null}
      {diff.sections.map((section) => (
        <section key={section.key} data-testid={`diff-${section.key}`}>
          <h3>{section.title}</h3>
          <ul>
            {section.lines.map((line, index) => (
              <li key={index}>{line}</li>
            ))}
          </ul>
          {section.more > 0 ? <p className="caption">… and {formatCount(section.more)} more.</p> : null}
        </section>
      ))}
    </div>
  );
}

/** The diff behind a verdict, as the current audience may see it. */
export function VerdictDiff({ verdict }: { readonly verdict: VerdictView }) {
  const audience = useUiStore((state) => state.audience);
  if (!verdict.diff) return null;
  const label =
    verdict.code === 'RECEIPT_MISMATCH'
      ? 'What the receipt claims, against what its own inputs compile to'
      : 'What changed from the receipt to what the current inputs compile to';
  return <ReceiptDiffView diff={verdict.diff[audience]} label={label} />;
}
