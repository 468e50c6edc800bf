import {
  copyPacket,
  downloadPacket,
  downloadReceipt,
  downloadStatement,
  downloadUserView,
} from '../state/export-actions';
import { useResultStore } from '../state/result-store';
import { useUiStore } from '../state/ui-store';
import { plural } from './format';
import { SteadyButton } from './SteadyButton';

/**
 * Exports follow the view on screen. The user view exports only what it shows (labelled, with no digest
 * over withheld records); the receipt, which names every record, leaves only from the diagnostic view.
 * Copying is offered only when a packet exists: a fail-closed compilation has nothing to hand on. While
 * the inputs compile again nothing is exported: the result on screen is no longer theirs.
 */
export function ExportPanel() {
  const response = useResultStore((state) => state.response);
  const compiling = useResultStore((state) => state.compiling);
  const notice = useUiStore((state) => state.notice);
  const view = response?.ok ? response.view : null;
  if (!view) return null;
  const user = view.audience === 'user';
  return (
    <section className="panel" aria-labelledby="export-heading">
      <h2 id="export-heading">Export ({user ? 'user view' : 'diagnostic view'})</h2>
      <p className="caption" data-testid="export-view">
        {user
          ? `User view: what you copy or download here is the user view and says so. ${view.withheldCount > 0 ? `${plural(view.withheldCount, 'record')} outside the authorised scope ${view.withheldCount === 1 ? 'is' : 'are'} counted, never named. ` : ''}The receipt is exported only from the diagnostic view.`
          : `Diagnostic view: the receipt names every record and every reason${view.withheldCount > 0 ? `, including ${plural(view.withheldCount, 'record')} the user view withholds` : ''}. Switch the trace to the user view to export what an end user may see.`}
      </p>
      <div className="button-row">
        {view.packetText !== null ? (
          <>
            <SteadyButton onClick={() => void copyPacket()} unavailable={compiling}>
              Copy packet
            </SteadyButton>
            <SteadyButton onClick={() => void downloadPacket()} unavailable={compiling}>
              Download packet
            </SteadyButton>
          </>
        ) : null}
        {user ? (
          <SteadyButton onClick={() => void downloadUserView()} unavailable={compiling}>
            Download user view
          </SteadyButton>
        ) : (
          <>
            <SteadyButton onClick={() => void downloadReceipt()} unavailable={compiling}>
              Download diagnostic receipt
            </SteadyButton>
            <SteadyButton
              onClick={() => void downloadStatement()}
              unavailable={compiling}
              title="The diagnostic receipt as an in-toto Statement v1: subjects the packet text and the record set"
            >
              Download statement
            </SteadyButton>
          </>
        )}
      </div>
      {user ? null : (
        <p className="caption">To check a saved receipt against these inputs, open or drop the receipt file.</p>
      )}
      <p role="status" data-testid="export-status">
        {notice}
      </p>
      {view.packetText !== null ? (
        <details>
          <summary>Packet text</summary>
          <pre className="packet-text" data-testid="packet-text">
            {view.packetText}
          </pre>
        </details>
      ) : null}
    </section>
  );
}
