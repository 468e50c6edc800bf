import { clearBaseline, pinBaseline } from '../state/debug-actions';
import { useDebugStore } from '../state/debug-store';
import { useResultStore } from '../state/result-store';
import { useUiStore } from '../state/ui-store';
import { plural } from './format';
import { ReceiptDiffView } from './ReceiptDiffView';
import { SteadyButton } from './SteadyButton';

/**
 * Pin a compilation, change anything, and see what changed (a plan before you apply it): the contract
 * fields, records, decisions, slots and packet, with the trace marking the rows whose decision or reason changed.
 */
export function BaselinePanel() {
  const baseline = useDebugStore((state) => state.baseline);
  const diff = useDebugStore((state) => state.baselineDiff);
  const audience = useUiStore((state) => state.audience);
  const compiled = useResultStore((state) => state.response?.ok === true);
  // Nothing before the first result, like Evidence below it: a panel here would be pushed down when the packets arrive.
  if (!compiled && baseline === null) return null;
  return (
    <section className="panel baseline-panel" aria-labelledby="baseline-heading" data-testid="baseline-panel">
      <h2 id="baseline-heading">Baseline</h2>
      {baseline === null ? (
        <>
          <p className="caption">
            Pin what is compiled now. After any change (a control, an edit, the as-of), this panel lists what changed
            and the trace marks (◆) the rows whose decision or reason changed.
          </p>
          <SteadyButton onClick={() => void pinBaseline()} unavailable={!compiled}>
            Pin as baseline
          </SteadyButton>
        </>
      ) : (
        <>
          <p data-testid="baseline-pin">
            Pinned: {baseline.scenarioTitle}, as of {baseline.asOf},{' '}
            {baseline.outcome === 'packet'
              ? `a packet of ${plural(baseline.selected, 'record')}`
              : 'fail-closed (no packet)'}
            .
          </p>
          <div className="button-row">
            <SteadyButton onClick={() => void pinBaseline()} unavailable={!compiled}>
              Pin current instead
            </SteadyButton>
            <button type="button" className="secondary" onClick={() => void clearBaseline()}>
              Clear baseline
            </button>
          </div>
          {!compiled ? (
            <p data-testid="baseline-nothing">Nothing is compiled now to compare with the baseline.</p>
          ) : diff === null ? (
            <p aria-busy="true">Comparing…</p>
          ) : diff.identical ? (
            <p data-testid="baseline-same">
              {audience === 'user'
                ? 'Nothing this view shows has changed since the baseline.'
                : 'No change: what is compiled now gives the same receipt as the baseline.'}
            </p>
          ) : (
            <ReceiptDiffView diff={diff} label="What changed from the baseline to what is compiled now" />
          )}
        </>
      )}
    </section>
  );
}
