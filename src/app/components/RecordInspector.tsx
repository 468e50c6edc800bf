import { useEffect } from 'react';
import type { RecordInspection } from '../../worker/protocol';
import { closeInspector, openInspector } from '../state/debug-actions';
import { EditThisRecord } from './RecordEditor';
import { useDebugStore } from '../state/debug-store';
import { useUiStore } from '../state/ui-store';
import { formatScore, titleBesideId } from './format';
import { CodeLink, TermLink } from './Glossary';
import { useModalDialog } from './use-modal-dialog';
import { WhatIf } from './WhatIf';

/** A record id wherever one is listed: a button that opens the record in the inspector. */
export function RecordLink({ id, testId }: { id: string; testId?: string }) {
  return (
    <button
      type="button"
      className="record-link"
      aria-haspopup="dialog"
      aria-label={`Inspect ${id}`}
      onClick={() => void openInspector(id)}
      data-testid={testId}
    >
      {id}
    </button>
  );
}

function Gates({ record }: { record: RecordInspection }) {
  return (
    <ol className="inspector-gates" aria-label="Gates in order">
      {record.gates.map((gate) => (
        <li
          key={gate.gate}
          className={gate.passed ? 'gate passed' : 'gate failed'}
          data-testid={`inspector-gate-${gate.gate}`}
        >
          <span className="gate-mark" aria-hidden="true">
            {gate.passed ? '✓' : '✗'}
          </span>
          <span className="gate-name">{gate.gate}</span>
          {gate.passed || gate.code === null ? (
            <span className="gate-result">passed</span>
          ) : (
            <span className="gate-result">
              failed: <CodeLink code={gate.code} /> {gate.fact}
            </span>
          )}
        </li>
      ))}
    </ol>
  );
}

function Body({ record }: { record: RecordInspection }) {
  const audience = useUiStore((state) => state.audience);
  const firstFailure = record.gates.find((gate) => !gate.passed);
  return (
    <>
      <p className="inspector-title">{titleBesideId(record.id, record.title)}</p>
      <dl className="inspector-facts">
        <div>
          <dt>Decision</dt>
          <dd data-testid="inspector-decision">
            {record.decision === 'selected' ? '✓ selected' : '✗ excluded'} ·{' '}
            <CodeLink code={record.code} testId="inspector-code" />
          </dd>
        </div>
        <div>
          <dt>
            <TermLink term="fact">Boundary fact</TermLink>
          </dt>
          <dd data-testid="inspector-fact">{record.fact}</dd>
        </div>
        <div>
          <dt>
            <TermLink term="rank">Rank</TermLink> · <TermLink term="score">score</TermLink>
          </dt>
          <dd data-testid="inspector-rank">
            {record.rank === null
              ? `not ranked (${formatScore(record.score)})`
              : `#${record.rank} · ${formatScore(record.score)}`}
          </dd>
        </div>
        <div>
          <dt>In the packet</dt>
          <dd data-testid="inspector-packet">
            {record.packetPosition === null ? 'no' : `yes, entry ${record.packetPosition}`}
          </dd>
        </div>
        <div>
          <dt>
            <TermLink term="tokens">Tokens</TermLink>
          </dt>
          <dd>
            {record.tokens}
            {record.required ? ' · required by the contract' : ''}
          </dd>
        </div>
        <div>
          <dt>Supersession</dt>
          <dd data-testid="inspector-supersession">
            {record.supersededBy === null ? (
              'not superseded at the as-of time'
            ) : record.supersededBy === 'withheld' ? (
              'superseded by a record outside the authorised scope'
            ) : (
              <>
                superseded by <RecordLink id={record.supersededBy.id} /> (in force from {record.supersededBy.since})
              </>
            )}
            {record.supersedes.length > 0 ? (
              <>
                ; names as replaced:{' '}
                {record.supersedes.map((id, index) => (
                  <span key={id}>
                    {index > 0 ? ', ' : ''}
                    <RecordLink id={id} />
                  </span>
                ))}
              </>
            ) : null}
          </dd>
        </div>
      </dl>
      <h3>Gates, in the order they are applied</h3>
      <p className="caption">
        {firstFailure
          ? `The first failing gate (${firstFailure.gate}) gives the reason; every failing gate is listed.`
          : 'It passed every gate; what the plan decided is its reason above.'}
      </p>
      <Gates record={record} />
      <WhatIf record={record} />
      <h3>Fields</h3>
      <dl className="inspector-fields" data-testid="inspector-fields">
        {record.metadata.map(({ field, value }) => (
          <div key={field}>
            <dt>{field}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <h3>Text</h3>
      <p className="inspector-text" data-testid="inspector-text">
        {record.text}
      </p>
      <h3>Receipt row{audience === 'user' ? ' (as the user view has it)' : ''}</h3>
      <pre className="inspector-row" data-testid="inspector-receipt-row">
        {JSON.stringify(JSON.parse(record.receiptRow), null, 2)}
      </pre>
    </>
  );
}

/** Everything about one record (Enter or click on its id anywhere), in a dialog that gives the focus back on close. */
export function RecordInspector() {
  const inspector = useDebugStore((state) => state.inspector);
  const ref = useModalDialog(inspector !== null, (dialog) => dialog.querySelector<HTMLElement>('h2')?.focus());
  // Following a link to another record starts it at the top.
  useEffect(() => {
    if (inspector?.id) ref.current?.querySelector<HTMLElement>('h2')?.focus();
  }, [ref, inspector?.id]);
  const response = inspector?.response ?? null;
  return (
    <dialog
      ref={ref}
      className="inspector"
      aria-labelledby="inspector-heading"
      data-testid="record-inspector"
      onCancel={(event) => {
        event.preventDefault();
        closeInspector();
      }}
    >
      {inspector ? (
        <>
          <div className="glossary-head">
            <h2 id="inspector-heading" tabIndex={-1}>
              Record <code>{inspector.id}</code>
            </h2>
            {response?.ok ? <EditThisRecord id={inspector.id} onOpen={closeInspector} /> : null}
            <button type="button" className="secondary" onClick={closeInspector}>
              Close inspector
            </button>
          </div>
          {response === null ? (
            <p aria-busy="true">Loading…</p>
          ) : response.ok ? (
            <Body record={response.record} />
          ) : (
            <p data-testid="inspector-missing">{response.message}</p>
          )}
        </>
      ) : null}
    </dialog>
  );
}
