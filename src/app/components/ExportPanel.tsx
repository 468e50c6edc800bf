import { copyPacket, downloadPacket, downloadReceipt, downloadStatement, downloadUserView } from '../state/actions';
import { useResultStore } from '../state/result-store';
import { useUiStore } from '../state/ui-store';
import { plural } from './format';

/**
 * Exports follow the view on screen. The user view exports only what it shows (labelled, with no digest
 * over withheld records); the receipt, which names every record, leaves only from the diagnostic view.
 * Copying is offered only when a packet exists: a fail-closed compilation has nothing to hand on.
 */
export function ExportPanel() {
  const response = useResultStore((state) => state.response);
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
            <button type="button" onClick={() => void copyPacket()}>
              Copy packet
            </button>
            <button type="button" onClick={() => void downloadPacket()}>
              Download packet
            </button>
          </>
        ) : null}
        {user ? (
          <button type="button" onClick={() => void downloadUserView()}>
            Download user view
          </button>
        ) : (
          <>
            <button type="button" onClick={() => void downloadReceipt()}>
              Download diagnostic receipt
            </button>
            <button type="button" onClick={() => void downloadStatement()} title="The diagnostic receipt as an in-toto Statement v1: subjects the packet text and the record set">
              Download statement
            </button>
          </>
        )}
      </div>
      {user ? null : <p className="caption">To check a saved receipt against these inputs, open or drop the receipt file.</p>}
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
