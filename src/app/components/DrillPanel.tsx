import { useState } from 'react';
import type { DrillAction } from '../../core/result';
import { attemptContinue, freezeReceipt, injectLateChange, recompileAfterDrill, resetDrill } from '../state/actions';
import { useDrillStore } from '../state/drill-store';
import { useResultStore } from '../state/result-store';
import { selectedScenario, useScenarioStore } from '../state/scenario-store';
import { shortHash } from './format';
import { VerdictDiff } from './ReceiptDiffView';

export const VERDICT_HEADLINES: Record<DrillAction, string> = {
  continue: 'CURRENT — MAY CONTINUE',
  recompile_required: 'STALE — RECOMPILE REQUIRED',
  block: 'BLOCKED — DO NOT CONTINUE',
};

/** Freeze a receipt, declare a late change, try to continue on the old receipt, then recompile. */
export function DrillPanel() {
  const scenario = useScenarioStore(selectedScenario);
  const { frozenReceiptId, declared, verdict, busy } = useDrillStore();
  const response = useResultStore((state) => state.response);
  const lateChanges = scenario?.lateChanges ?? [];
  const [chosen, setChosen] = useState<string>('');
  const lateChangeId = lateChanges.some((change) => change.id === chosen) ? chosen : (lateChanges[0]?.id ?? '');
  const chosenChange = lateChanges.find((change) => change.id === lateChangeId);
  const currentId = response?.ok ? response.view.receiptId : null;

  return (
    <section className="panel" aria-labelledby="drill-heading">
      <h2 id="drill-heading">Fire drill</h2>
      {lateChanges.length === 0 ? (
        <p>This scenario declares no late changes.</p>
      ) : (
        <>
          <ol className="drill-steps">
            <li>
              <button type="button" onClick={() => void freezeReceipt()} disabled={busy || currentId === null}>
                Freeze receipt
              </button>{' '}
              <span data-testid="drill-frozen">{frozenReceiptId ? `Frozen: ${shortHash(frozenReceiptId)}` : 'Nothing frozen yet'}</span>
            </li>
            <li>
              <label>
                Late change{' '}
                <select value={lateChangeId} onChange={(event) => setChosen(event.target.value)} disabled={busy}>
                  {lateChanges.map((change) => (
                    <option key={change.id} value={change.id}>
                      {change.label}
                    </option>
                  ))}
                </select>
              </label>{' '}
              <button type="button" onClick={() => void injectLateChange(lateChangeId)} disabled={busy || currentId === null}>
                Inject late change
              </button>
              {chosenChange ? <p className="caption">{chosenChange.explanation}</p> : null}
              {declared.length > 0 ? <p data-testid="drill-declared">Declared since the receipt: {declared.join(', ')}</p> : null}
            </li>
            <li>
              <button type="button" onClick={() => void attemptContinue()} disabled={busy || currentId === null}>
                Attempt to continue
              </button>
            </li>
            <li>
              <button type="button" onClick={() => void recompileAfterDrill()} disabled={busy || declared.length === 0}>
                Recompile current context
              </button>
            </li>
          </ol>
          {verdict ? (
            <div className={`verdict verdict-${verdict.action}`} role="status" data-testid="drill-verdict">
              <strong data-testid="drill-headline">{VERDICT_HEADLINES[verdict.action]}</strong>
              <p>
                <code data-testid="drill-code">{verdict.code}</code> {verdict.message}
              </p>
              <p>
                Receipt checked: {shortHash(verdict.priorReceiptId)}
                {verdict.currentReceiptId ? ` · current receipt: ${shortHash(verdict.currentReceiptId)}` : ''}
              </p>
              <VerdictDiff verdict={verdict} />
            </div>
          ) : null}
          <button type="button" className="secondary" onClick={() => void resetDrill()} disabled={busy}>
            Reset drill
          </button>
        </>
      )}
    </section>
  );
}
