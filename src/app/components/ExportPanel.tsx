import { copyPacket, downloadPacket, downloadReceipt, downloadStatement } from '../state/actions';
import { useResultStore } from '../state/result-store';
import { useUiStore } from '../state/ui-store';

/** Copying is offered only when a packet exists: a fail-closed compilation has nothing to hand on. */
export function ExportPanel() {
  const response = useResultStore((state) => state.response);
  const notice = useUiStore((state) => state.notice);
  const view = response?.ok ? response.view : null;
  if (!view) return null;
  return (
    <section className="panel" aria-labelledby="export-heading">
      <h2 id="export-heading">Export</h2>
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
        <button type="button" onClick={() => void downloadReceipt()}>
          Download receipt
        </button>
        <button type="button" onClick={() => void downloadStatement()} title="The receipt as an in-toto Statement v1: subjects the packet text and the record set">
          Download statement
        </button>
      </div>
      <p className="caption">To check a saved receipt against these inputs, open or drop the receipt file.</p>
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
