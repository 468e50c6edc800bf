import { REASONS } from '../../core/reasons';
import { EMPTY_BASELINE_NOTES } from '../../core/suggestions';
import type { PacketColumn, PacketMarks, PropositionCoverage } from '../../worker/protocol';
import { EnteredMark, LeftEntries, MarksSummary } from './ChangeMarks';
import { useResultStore } from '../state/result-store';
import { formatCount, plural, titleBesideId } from './format';
import { CodeLink } from './Glossary';
import { RecordLink } from './RecordInspector';

const COLUMN_TITLES: Record<PacketColumn['kind'], { title: string; caption: string }> = {
  naive: { title: 'Naive top-k', caption: 'Relevance only: the top k matches that fit the budget.' },
  'post-filter': { title: 'Post-filter top-k', caption: 'Top k by relevance, then illegal records dropped.' },
  compiled: {
    title: 'Compiled packet',
    caption: 'Legality first, required records protected, ranked inside the admitted set.',
  },
};

function TokenMeter({ column, label }: { column: PacketColumn; label: string }) {
  const over = column.tokensUsed > column.tokenBudget;
  return (
    <div className="meter-row">
      <meter
        aria-label={`${label} tokens used`}
        min={0}
        max={Math.max(column.tokenBudget, 1)}
        value={Math.min(column.tokensUsed, column.tokenBudget)}
      />
      <span data-testid={`tokens-${column.kind}`}>
        {formatCount(column.tokensUsed)} / {formatCount(column.tokenBudget)} tokens{over ? ' (over budget)' : ''}
      </span>
    </div>
  );
}

const ids = (list: readonly string[]) =>
  list.map((id, index) => (
    <span key={id}>
      {index > 0 ? ', ' : ''}
      <RecordLink id={id} />
    </span>
  ));

/**
 * How many required propositions the column's own entries answer with a legal record of an accepted class: a
 * contradicted or unknown proposition is not answered, and the decision waits on it when it is blocking.
 */
function CoverageStat({ column }: { column: PacketColumn }) {
  if (column.coverage.length === 0) return null;
  const open = column.coverage.filter((coverage) => coverage.state !== 'supported');
  const contradicted = open.filter((coverage) => coverage.state === 'contradicted').length;
  return (
    <p className={open.length > 0 ? 'stat bad' : 'stat'} data-testid={`propositions-${column.kind}`}>
      {open.length > 0
        ? `✗ ${open.length} of ${plural(column.coverage.length, 'required proposition')} not ` +
          `answered${contradicted > 0 ? ` (${contradicted} contradicted)` : ''}`
        : `✓ All ${plural(column.coverage.length, 'required proposition')} answered`}
    </p>
  );
}

function CoverageCell({ column, coverage }: { column: PacketColumn; coverage: PropositionCoverage }) {
  return (
    <td
      className={coverage.state === 'supported' ? 'covered' : 'uncovered'}
      data-testid={`coverage-${column.kind}-${coverage.proposition}`}
    >
      {coverage.state === 'supported' ? (
        <>✓ {ids(coverage.supporting)}</>
      ) : coverage.state === 'contradicted' ? (
        <>✗ contradicted by {ids(coverage.contradicting)}</>
      ) : (
        '✗ not answered'
      )}
      {coverage.state === 'contradicted' && coverage.supporting.length > 0 ? (
        <>; supported by {ids(coverage.supporting)}</>
      ) : null}
      {coverage.illegal.length > 0 ? <>; only illegally by {ids(coverage.illegal)}</> : null}
      {coverage.notAccepted.length > 0 ? (
        <>; mentioned by {ids(coverage.notAccepted)}, a class not accepted for it</>
      ) : null}
    </td>
  );
}

/**
 * Which required propositions each packet answers, from its own entries only: a packet can let in a
 * note that mentions a waiver without ever holding an approval of one.
 */
function CoverageTable({ columns }: { columns: readonly PacketColumn[] }) {
  const propositions = columns[0]?.coverage.map((coverage) => coverage.proposition) ?? [];
  if (propositions.length === 0) return null;
  return (
    <div className="coverage-table" data-testid="coverage-table">
      <table>
        <caption>Required propositions each packet answers</caption>
        <thead>
          <tr>
            <th scope="col">Proposition</th>
            {columns.map((column) => (
              <th key={column.kind} scope="col">
                {COLUMN_TITLES[column.kind].title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {propositions.map((proposition, index) => (
            <tr key={proposition}>
              <th scope="row">{proposition}</th>
              {columns.map((column) => {
                const coverage = column.coverage[index];
                return coverage ? (
                  <CoverageCell key={column.kind} column={column} coverage={coverage} />
                ) : (
                  <td key={column.kind}>—</td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Column({ column, marks }: { column: PacketColumn; marks: PacketMarks | null }) {
  const { title, caption } = COLUMN_TITLES[column.kind];
  const entered = new Set(marks?.entered);
  return (
    <section
      className={`packet-column packet-column-${column.kind}`}
      aria-label={title}
      data-testid={`column-${column.kind}`}
    >
      <h3>{title}</h3>
      <p className="caption">{caption}</p>
      <TokenMeter column={column} label={title} />
      <p className={column.illegalCount > 0 ? 'stat bad' : 'stat'} data-testid={`illegal-count-${column.kind}`}>
        {column.illegalCount > 0 ? '✗ ' : '✓ '}
        {plural(column.illegalCount, 'illegal record')} let in
      </p>
      <p
        className={column.requiredMissed.length > 0 ? 'stat bad' : 'stat'}
        data-testid={`required-missed-${column.kind}`}
      >
        {column.requiredMissed.length > 0
          ? `✗ Required missed: ${column.requiredMissed.join(', ')}`
          : '✓ No required record missed'}
      </p>
      <CoverageStat column={column} />
      {column.emptyNote ? (
        <p className="caption empty-note" data-testid={`empty-note-${column.kind}`}>
          {EMPTY_BASELINE_NOTES[column.emptyNote.code](column.emptyNote.args)}
        </p>
      ) : null}
      {column.emitted ? (
        <ol className="entries" aria-label={`${title} records`}>
          {column.entries.map((entry) => (
            <li
              key={entry.id}
              className={`entry${entry.illegal ? ' illegal' : ''}${entered.has(entry.id) ? ' entered' : ''}`}
              data-testid={`entry-${column.kind}-${entry.id}`}
            >
              <span className="entry-id">
                <RecordLink id={entry.id} />
              </span>
              <span className="entry-title">{titleBesideId(entry.id, entry.title)}</span>
              <span className="entry-tags">
                {plural(entry.tokens, 'token')}
                {entry.required ? ' · required' : ''}
                {entry.illegal ? ' · illegal: ' : ' · '}
                <CodeLink code={entry.code} testId={`entry-code-${column.kind}-${entry.id}`} />
              </span>
              {entered.has(entry.id) ? (
                <EnteredMark entry={entry} testId={`entered-${column.kind}-${entry.id}`} />
              ) : null}
            </li>
          ))}
        </ol>
      ) : (
        <p className="no-packet" data-testid="no-packet">
          No packet emitted.
        </p>
      )}
      {marks ? <LeftEntries kind={column.kind} marks={marks} /> : null}
    </section>
  );
}

/** The user view leaves the relevance-only packets out: their scores use statistics of records it withholds. */
function DiagnosticOnlyColumn({ kind }: { kind: 'naive' | 'post-filter' }) {
  const { title, caption } = COLUMN_TITLES[kind];
  return (
    <section className={`packet-column packet-column-${kind}`} aria-label={title} data-testid={`column-${kind}`}>
      <h3>{title}</h3>
      <p className="caption">{caption}</p>
      <p className="no-packet" data-testid={`diagnostic-only-${kind}`}>
        Shown in the diagnostic view only: relevance ranks with statistics of records this view withholds.
      </p>
    </section>
  );
}

/** The packet is on screen already; this baseline waits for the whole-corpus index the worker builds meanwhile. */
function IndexingColumn({
  kind,
  progress,
}: {
  kind: 'naive' | 'post-filter';
  progress: { readonly done: number; readonly total: number };
}) {
  const { title, caption } = COLUMN_TITLES[kind];
  const percent = progress.total > 0 ? Math.floor((progress.done / progress.total) * 100) : 0;
  return (
    <section
      className={`packet-column packet-column-${kind}`}
      aria-label={title}
      aria-busy="true"
      data-testid={`column-${kind}`}
    >
      <h3>{title}</h3>
      <p className="caption">{caption}</p>
      <p className="no-packet" data-testid={`baseline-indexing-${kind}`}>
        Indexing every record for this baseline: {formatCount(progress.done)} of {formatCount(progress.total)} (
        {percent}%). The compiled packet does not need this index.
      </p>
      <progress
        aria-label={`${title}: indexing the whole corpus`}
        max={Math.max(progress.total, 1)}
        value={progress.done}
      />
    </section>
  );
}

function BaselineColumn({
  kind,
  column,
  marks,
  progress,
}: {
  kind: 'naive' | 'post-filter';
  column: PacketColumn | null;
  marks: PacketMarks | null;
  progress: { readonly done: number; readonly total: number } | null;
}) {
  if (column) return <Column column={column} marks={marks} />;
  return progress ? <IndexingColumn kind={kind} progress={progress} /> : <DiagnosticOnlyColumn kind={kind} />;
}

/** Fail-closed is a state, not an error: the compiler read the inputs and refused. Red, worded, coded. */
export function FailClosedBanner() {
  const response = useResultStore((state) => state.response);
  if (!response) return null;
  if (!response.ok) {
    return (
      <div className="fail-closed" role="alert" data-testid="compile-error">
        <strong>NOT COMPILED — {response.error.code}</strong>
        <p>{response.error.message}</p>
        {response.error.issues && response.error.issues.length > 0 ? (
          <ul>
            {response.error.issues.map((issue, index) => (
              <li key={index}>
                {issue.file}
                {issue.line === undefined ? '' : `:${issue.line}`} {issue.path}: {issue.message}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    );
  }
  const { failure } = response.view;
  if (!failure) return null;
  return (
    <div className="fail-closed" role="alert" data-testid="fail-closed">
      <strong>
        FAIL-CLOSED — <CodeLink code={failure.code} testId="fail-closed-code" />
      </strong>
      <p>{failure.message}</p>
      {failure.fact ? <p className="fact">Boundary fact: {failure.fact}</p> : null}
      <p>{REASONS[failure.code].summary} Nothing can be copied until the obligation is met.</p>
    </div>
  );
}

export function ComparePanel() {
  const response = useResultStore((state) => state.response);
  const progress = useResultStore((state) => state.baselineProgress);
  const view = response?.ok ? response.view : null;
  const indexing = view?.baselineIndexing ? (progress ?? view.baselineIndexing) : null;
  return (
    // Until the first result the panel keeps a packet's height, so the trace under it does not jump when it lands.
    <section className={view ? 'panel compare-panel' : 'panel compare-panel pending'} aria-labelledby="compare-heading">
      <h2 id="compare-heading" tabIndex={-1}>
        Compare
      </h2>
      <FailClosedBanner />
      {view ? (
        <>
          <p className="caption">Three packets under the same budget of {view.tokenBudget} tokens.</p>
          {/* Above the packets, so the first screen says that the answer may not rest on them. */}
          {view.decisionBlockedBy.length > 0 ? (
            <p className="warning" data-testid="decision-blocked">
              Decision reserved for a person: {view.decisionBlockedBy.join(', ')} not established from admitted
              evidence.
            </p>
          ) : null}
          <MarksSummary marks={view.marks} />
          <div className="columns">
            <BaselineColumn
              kind="naive"
              column={view.columns.naive}
              marks={view.marks?.columns.naive ?? null}
              progress={indexing}
            />
            <BaselineColumn
              kind="post-filter"
              column={view.columns.postFilter}
              marks={view.marks?.columns.postFilter ?? null}
              progress={indexing}
            />
            <Column column={view.columns.compiled} marks={view.marks?.columns.compiled ?? null} />
          </div>
          <CoverageTable
            columns={[view.columns.naive, view.columns.postFilter, view.columns.compiled].filter(
              (column) => column !== null,
            )}
          />
        </>
      ) : null}
    </section>
  );
}
