import { useResultStore } from '../state/result-store';
import { DrillPanel } from './DrillPanel';
import { plural } from './format';
import { CodeLink } from './Glossary';

/** What is compiled now, beside the drill, so a recompile's effect is seen without leaving the drill. */
function CurrentCompilation() {
  const response = useResultStore((state) => state.response);
  const failed = useResultStore((state) => state.failure !== null);
  const view = response?.ok ? response.view : null;
  return (
    <section className="panel drill-current" aria-labelledby="drill-current-heading" data-testid="drill-current">
      <h2 id="drill-current-heading">Compiled now</h2>
      {!view ? (
        <p>{response && !response.ok ? `Not compiled: ${response.error.code}` : failed ? 'Not compiled: the compiler failed' : 'Compiling…'}</p>
      ) : (
        <>
          <p data-testid="drill-current-outcome">
            {view.status === 'packet' ? (
              `Packet of ${plural(view.columns.compiled.entries.length, 'record')}, ${view.tokensUsed} / ${view.tokenBudget} tokens.`
            ) : (
              <>
                Fail-closed: no packet (<CodeLink code={view.failure?.code ?? 'EXCLUDE_FAIL_CLOSED'} />
                ).
              </>
            )}
          </p>
          {view.status === 'packet' ? (
            <ol className="entries" aria-label="Records in the packet now">
              {view.columns.compiled.entries.map((entry) => (
                <li key={entry.id} className="entry" data-testid={`drill-current-${entry.id}`}>
                  <span className="entry-id">{entry.id}</span>
                  <span className="entry-tags">
                    {plural(entry.tokens, 'token')}
                    {entry.required ? ' · required' : ''}
                  </span>
                </li>
              ))}
            </ol>
          ) : null}
          <p className="caption">
            Late changes applied: {view.lateChanges.length > 0 ? view.lateChanges.join(', ') : 'none'}. Controls on: {view.controls.length > 0 ? view.controls.join(', ') : 'none'}.
          </p>
        </>
      )}
    </section>
  );
}

/** The fire drill in its own view: the steps and the verdict on one side, what is compiled now on the other. */
export function DrillView() {
  return (
    <main className="drill-view" id="main-drill" tabIndex={-1}>
      <DrillPanel />
      <CurrentCompilation />
    </main>
  );
}
