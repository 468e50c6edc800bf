import { useDrillStore } from '../state/drill-store';
import { useResultStore } from '../state/result-store';
import { selectedScenario, useScenarioStore } from '../state/scenario-store';
import { useChangeText } from './use-change-text';
import { DrillPanel } from './DrillPanel';
import { plural } from './format';
import { CodeLink } from './Glossary';

const listed = (labels: readonly string[]) => (labels.length > 0 ? labels.join(', ') : 'none');

/** What is compiled now, beside the drill, so a recompile's effect is seen without leaving the drill. */
function CurrentCompilation() {
  const response = useResultStore((state) => state.response);
  const failed = useResultStore((state) => state.failure !== null);
  const view = response?.ok ? response.view : null;
  const scenario = useScenarioStore(selectedScenario);
  const declared = useDrillStore((state) => state.declared);
  const textOf = useChangeText(scenario?.key ?? '');
  // Declared in the drill but not in what is compiled now, by the labels the view may show.
  const pending = view
    ? declared
        .filter((id) => !view.lateChanges.includes(id))
        .map((id) => {
          const change = scenario?.lateChanges.find((candidate) => candidate.id === id);
          return change ? textOf(change, 'late-change').label : id;
        })
    : [];
  return (
    <section className="panel drill-current" aria-labelledby="drill-current-heading" data-testid="drill-current">
      <h2 id="drill-current-heading">Compiled now</h2>
      {!view ? (
        <p>
          {response && !response.ok
            ? `Not compiled: ${response.error.code}`
            : failed
              ? 'Not compiled: the compiler failed'
              : 'Compiling…'}
        </p>
      ) : (
        <>
          <p data-testid="drill-current-outcome">
            {view.status === 'packet' ? (
              `Packet of ${plural(view.columns.compiled.entries.length, 'record')}, ${view.tokensUsed} / ` +
              `${view.tokenBudget} tokens.`
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
          <p className="caption" data-testid="drill-current-changes">
            Late changes applied:{' '}
            {listed(
              view.appliedChanges.filter((change) => change.kind === 'late-change').map((change) => change.label),
            )}
            .{pending.length > 0 ? ` Declared in the drill, not yet compiled: ${pending.join(', ')}.` : ''} Controls on:{' '}
            {listed(view.appliedChanges.filter((change) => change.kind === 'control').map((change) => change.label))}.
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
