import { useState } from 'react';
import type { DrillAction } from '../../core/result';
import {
  attemptContinue,
  freezeReceipt,
  injectLateChange,
  recompileAfterDrill,
  resetDrill,
} from '../state/drill-actions';
import { useDrillStore } from '../state/drill-store';
import { useResultStore } from '../state/result-store';
import { useUiStore } from '../state/ui-store';
import { selectedScenario, useScenarioStore } from '../state/scenario-store';
import { shortHash } from './format';
import { CodeLink } from './Glossary';
import { useChangeText } from './use-change-text';
import { SteadyButton } from './SteadyButton';
import { VerdictDiff } from './ReceiptDiffView';

export const VERDICT_HEADLINES: Record<DrillAction, string> = {
  continue: 'CURRENT — MAY CONTINUE',
  recompile_required: 'STALE — RECOMPILE REQUIRED',
  block: 'BLOCKED — DO NOT CONTINUE',
};

/** Freeze a receipt, declare a late change, try to continue on the old receipt, then recompile. */
export function DrillPanel() {
  const scenario = useScenarioStore(selectedScenario);
  const { frozenReceiptId, declared, verdict, verdictRevision, busy } = useDrillStore();
  const response = useResultStore((state) => state.response);
  const revision = useResultStore((state) => state.revision);
  const compiling = useResultStore((state) => state.compiling);
  // Receipt ids cover every record, withheld ones too: the user view names none (docs/FORMAT.md, user view).
  const showsReceiptIds = useUiStore((state) => state.audience) === 'diagnostic';
  // A verdict is about the inputs it was given against: once they change (compiling) or are recompiled, it no longer
  // speaks for the screen.
  const outdated = verdict !== null && (compiling || verdictRevision !== revision);
  const lateChanges = scenario?.lateChanges ?? [];
  const [chosen, setChosen] = useState<string>('');
  const lateChangeId = lateChanges.some((change) => change.id === chosen) ? chosen : (lateChanges[0]?.id ?? '');
  const textOf = useChangeText(scenario?.key ?? '');
  const chosenSummary = lateChanges.find((change) => change.id === lateChangeId);
  const chosenChange = chosenSummary ? textOf(chosenSummary, 'late-change') : null;
  // Whether a result is on screen to freeze: in the user view it goes by its user-view id.
  const currentId = response?.ok ? (response.view.receiptId ?? response.view.userViewId) : null;
  const lateChangeLabel = (id: string) => {
    const change = lateChanges.find((candidate) => candidate.id === id);
    return change ? textOf(change, 'late-change').label : id;
  };
  const pending = response?.ok === true && declared.some((id) => !response.view.lateChanges.includes(id));

  return (
    <section className="panel" aria-labelledby="drill-heading">
      <h2 id="drill-heading" tabIndex={-1}>
        Fire drill
      </h2>
      {lateChanges.length === 0 ? (
        <p>This scenario declares no late changes.</p>
      ) : (
        <>
          <ol className="drill-steps">
            <li>
              <SteadyButton onClick={() => void freezeReceipt()} unavailable={busy || currentId === null}>
                Freeze receipt
              </SteadyButton>{' '}
              <span data-testid="drill-frozen">
                {frozenReceiptId
                  ? showsReceiptIds
                    ? `Frozen: ${shortHash(frozenReceiptId)}`
                    : 'Frozen (its receipt id is shown in the diagnostic view)'
                  : 'Nothing frozen yet'}
              </span>
            </li>
            <li>
              <label>
                Late change{' '}
                <select value={lateChangeId} onChange={(event) => setChosen(event.target.value)} disabled={busy}>
                  {lateChanges.map((change) => (
                    <option key={change.id} value={change.id}>
                      {textOf(change, 'late-change').label}
                    </option>
                  ))}
                </select>
              </label>{' '}
              <SteadyButton
                onClick={() => void injectLateChange(lateChangeId)}
                unavailable={busy || currentId === null}
              >
                Inject late change
              </SteadyButton>
              {chosenChange ? <p className="caption">{chosenChange.explanation}</p> : null}
              {scenario?.lateChangesGeneric ? (
                <p className="caption" data-testid="drill-generic">
                  This scenario declares no late changes: these are worked out from its own contract and records.
                </p>
              ) : null}
              {declared.length > 0 ? (
                <p data-testid="drill-declared">
                  Declared since the receipt: {declared.map(lateChangeLabel).join(', ')}
                </p>
              ) : null}
            </li>
            <li>
              <SteadyButton onClick={() => void attemptContinue()} unavailable={busy || currentId === null}>
                Attempt to continue
              </SteadyButton>
            </li>
            <li>
              <SteadyButton onClick={() => void recompileAfterDrill()} unavailable={busy || declared.length === 0}>
                Recompile current context
              </SteadyButton>
            </li>
          </ol>
          {verdict && outdated ? (
            <div className="verdict verdict-outdated" role="status" data-testid="drill-verdict-outdated">
              <strong>INPUTS CHANGED — ATTEMPT AGAIN</strong>
              <p>
                The contract, a control or the records were recompiled after the last verdict, so it no longer applies.
                Attempt to continue again to check the frozen receipt against the inputs now in force.
              </p>
            </div>
          ) : verdict ? (
            <div className={`verdict verdict-${verdict.action}`} role="status" data-testid="drill-verdict">
              <strong data-testid="drill-headline">{VERDICT_HEADLINES[verdict.action]}</strong>
              <p>
                <CodeLink code={verdict.code} testId="drill-code" /> {verdict.message}
              </p>
              {showsReceiptIds ? (
                <p data-testid="drill-judged">
                  Receipt judged: {shortHash(verdict.priorReceiptId)}
                  {verdict.priorReceiptId === currentId ? ', the one on screen.' : '.'}
                  {verdict.action !== 'continue' && verdict.currentReceiptId && verdict.currentReceiptId !== currentId
                    ? ` ${pending ? 'With the late change the inputs compile to' : 'The current inputs compile to'} ` +
                      `${shortHash(verdict.currentReceiptId)}: press Recompile current context to put it on screen.`
                    : ''}
                </p>
              ) : null}
              <VerdictDiff verdict={verdict} />
            </div>
          ) : null}
          <SteadyButton className="secondary" onClick={() => void resetDrill()} unavailable={busy}>
            Reset drill
          </SteadyButton>
        </>
      )}
    </section>
  );
}
