import type { StrategyId, StrategyMetrics } from '../../eval/compare';
import type { FoundationReport } from '../../eval/foundation';
import type { GrowthReport } from '../../eval/growth';
import type { ScenarioComparison } from '../../eval/scenario-comparison';
import { EVALUATION_GROWTH_SIZES } from '../../shared/evaluation-sizes';
import { runCurrentScenario, runFoundationExperiment, runGrowthExperiment, runSeed000, setGrowthSize, useEvaluationStore } from '../state/evaluation-store';
import { selectedScenario, useScenarioStore } from '../state/scenario-store';
import type { ChangeSummary, ChangeText } from '../../worker/protocol';
import { useChangeText } from './change-text';
import { BarChart, LineChart, type Bar } from './EvaluationCharts';
import { Outcome, Progress, RunButton } from './EvaluationRun';
import { formatCount, shortHash } from './format';
import './evaluation.css';

/** Chart labels must fit beside a bar; the tables carry the full names. */
function shortLabel(strategy: StrategyId, overFetch: number): string {
  switch (strategy) {
    case 'naive':
      return 'plain top-k';
    case 'post-filter':
      return 'post-filter';
    case 'post-filter-overfetch':
      return `post-filter ×${overFetch}`;
    case 'compiled':
      return 'compiled';
  }
}

const percent = (share: number | null) => (share === null ? 'n/a' : `${Math.round(share * 100)} %`);
const decimal = (value: number | null, digits = 2) => (value === null ? '–' : value.toFixed(digits));
const count = formatCount;
const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

function strategyName(row: StrategyMetrics, overFetch: number): string {
  return row.strategy === 'post-filter-overfetch' ? `${row.label} ×${overFetch}` : row.label;
}

/** One strategy's metric cells, shared by every table so a column means the same thing everywhere. */
// Every cell carries its column's name (data-label): on a phone each row becomes a card that shows it.
function StrategyMetricCells({ row, tokenBudget, requiredMissed, k }: { row: StrategyMetrics; tokenBudget: number; requiredMissed: boolean; k: number }) {
  return (
    <>
      <td data-column="passed" data-label="passed">
        {row.itemsPassed}
      </td>
      <td data-column="unsafe" data-label="unsafe" className={row.unsafePassed > 0 ? 'bad' : undefined}>
        {row.unsafePassed}
      </td>
      <td data-column="coverage" data-label="coverage (mentioned)">
        {percent(row.coverageMentioned)}
      </td>
      <td data-column="coverage-accepted" data-label="coverage (accepted evidence)">
        {percent(row.coverageSupported)}
      </td>
      <td data-column="recall" data-label={`recall@${k}`}>
        {decimal(row.recallAtK)}
      </td>
      {requiredMissed ? (
        <td data-column="required-missed" data-label="required missed" className={row.requiredMissed.length > 0 ? 'bad' : undefined}>
          {row.requiredMissed.length > 0 ? row.requiredMissed.join(', ') : 'none'}
        </td>
      ) : (
        <td data-column="displaced" data-label="displaced citations">
          {row.displacedCitations}
        </td>
      )}
      <td data-column="tokens" data-label="tokens">
        {row.tokensUsed} / {tokenBudget}
      </td>
    </>
  );
}

/** Said under a table whose coverage reads n/a, so nobody takes it for a failure. */
function CoverageNote({ rows }: { rows: readonly StrategyMetrics[] }) {
  if (!rows.some((row) => row.coverageMentioned === null)) return null;
  return (
    <p className="caption" data-testid="coverage-na">
      Coverage n/a: this contract requires no propositions, so there is nothing to cover (an empty packet would otherwise score 100 %).
    </p>
  );
}

function ComparisonTable({ label, testId, comparison, requiredMissed }: { label: string; testId: string; comparison: ScenarioComparison; requiredMissed: boolean }) {
  return (
    <div className="table-scroll">
      <table aria-label={label} data-testid={testId} className="evaluation-table">
        <thead>
          <tr>
            <th scope="col">strategy</th>
            <th scope="col">passed</th>
            <th scope="col">unsafe</th>
            <th scope="col">coverage (mentioned)</th>
            <th scope="col">coverage (accepted evidence)</th>
            <th scope="col">recall@{comparison.k}</th>
            {requiredMissed ? <th scope="col">required missed</th> : <th scope="col">displaced citations</th>}
            <th scope="col">tokens</th>
          </tr>
        </thead>
        <tbody>
          {comparison.rows.map((row) => (
            <tr key={row.strategy} data-testid={`${testId}-${row.strategy}`}>
              <th scope="row">{strategyName(row, comparison.overFetch)}</th>
              <StrategyMetricCells row={row} tokenBudget={comparison.tokenBudget} requiredMissed={requiredMissed} k={comparison.k} />
            </tr>
          ))}
        </tbody>
      </table>
      <CoverageNote rows={comparison.rows} />
    </div>
  );
}

function comparisonFacts(comparison: ScenarioComparison): string {
  const outcome = comparison.status === 'packet' ? 'packet emitted' : 'fail-closed: no packet, so the compiled row passes nothing';
  return `k = ${comparison.k}, ranking ${comparison.ranking}, ${count(comparison.candidates)} candidates, ${count(comparison.admitted)} admitted, ${count(comparison.legalRelevant)} legal relevant; compiled: ${outcome}; receipt ${shortHash(comparison.receiptId)}.`;
}

function bars(comparison: ScenarioComparison, value: (row: StrategyMetrics) => number, display: (row: StrategyMetrics) => string): Bar[] {
  return comparison.rows.map((row) => ({ key: row.strategy, label: shortLabel(row.strategy, comparison.overFetch), value: value(row), display: display(row) }));
}

function Seed000Result({ comparison, elapsedMs }: { comparison: ScenarioComparison; elapsedMs: number | null }) {
  const maxItems = comparison.rows.reduce((most, row) => Math.max(most, row.itemsPassed), comparison.k);
  return (
    <>
      <p className="caption" data-testid="seed000-facts">
        {comparisonFacts(comparison)}
        {elapsedMs === null ? '' : ` Ran in ${seconds(elapsedMs)}.`}
      </p>
      <div className="chart-row">
        <BarChart
          title="Items passed"
          max={maxItems}
          bars={bars(
            comparison,
            (row) => row.itemsPassed,
            (row) => String(row.itemsPassed),
          )}
        />
        <BarChart
          title="Unsafe items passed"
          max={maxItems}
          bars={bars(
            comparison,
            (row) => row.unsafePassed,
            (row) => String(row.unsafePassed),
          )}
        />
        <BarChart
          title="Coverage (mentioned)"
          max={1}
          bars={bars(
            comparison,
            (row) => row.coverageMentioned ?? 0,
            (row) => percent(row.coverageMentioned),
          )}
        />
      </div>
      <ComparisonTable label="Seed 000 comparison" testId="seed000-table" comparison={comparison} requiredMissed={false} />
    </>
  );
}

function Seed000Section() {
  const result = useEvaluationStore((state) => state.seed000);
  return (
    <section className="panel evaluation-section" aria-labelledby="seed000-heading">
      <h3 id="seed000-heading">Seed 000: the contaminated eight-item corpus</h3>
      <p data-testid="seed000-explained">
        “Seed 000” is the essay this project started from (<i>compile the evidence boundary</i>). It publishes a small, fixed benchmark: eight synthetic records for one credit decision about Atlas
        Industries, where relevance ranking is tempted by the wrong ones. This run rebuilds its table with this compiler, so the numbers should match the essay’s exactly.
      </p>
      <p className="caption">
        Four high-scoring records are unusable (another borrower’s, superseded, an email claiming a waiver, a waiver released only to investigators); four lower-scoring ones are the evidence the task
        needs. Ranked by declared relevance, k = 5.
      </p>
      <RunButton experiment="seed000" label="Run seed 000 comparison" onRun={runSeed000} />
      <Progress experiment="seed000" />
      <Outcome experiment="seed000" result={result} render={(comparison, elapsedMs) => <Seed000Result comparison={comparison} elapsedMs={elapsedMs} />} />
    </section>
  );
}

function ScenarioSection() {
  const result = useEvaluationStore((state) => state.scenario);
  const context = useEvaluationStore((state) => state.scenarioContext);
  const scenario = useScenarioStore(selectedScenario);
  const selection = useScenarioStore((state) => state.workspace?.selection);
  const textOf = useChangeText(scenario?.key ?? '');
  // Labels go through the view's disclosure: in the user view a control that names a withheld record names none.
  const shown = (changes: readonly ChangeSummary[], chosen: readonly string[], kind: ChangeText['kind']) =>
    changes.filter((change) => chosen.includes(change.id)).map((change) => textOf(change, kind).label);
  const toggled = scenario && selection ? shown(scenario.controls, selection.controls, 'control') : [];
  const runContext = scenario && selection ? { title: scenario.title, controls: toggled, lateChanges: shown(scenario.lateChanges, selection.lateChanges, 'late-change') } : null;
  return (
    <section className="panel evaluation-section" aria-labelledby="scenario-heading">
      <h3 id="scenario-heading">Run on the current scenario</h3>
      <p className="caption" data-testid="scenario-selection">
        {scenario ? `${scenario.title}${scenario.contractEdited ? ' (edited contract)' : ''}; controls: ${toggled.length > 0 ? toggled.join(', ') : 'none'}.` : 'No scenario is loaded yet.'}
      </p>
      <RunButton experiment="scenario" label="Run on the current scenario" onRun={() => runCurrentScenario(runContext)} disabled={!scenario} />
      <Progress experiment="scenario" />
      <Outcome
        experiment="scenario"
        result={result}
        render={(comparison, elapsedMs) => (
          <>
            <p className="caption" data-testid="scenario-facts">
              {context
                ? `${context.title}; controls: ${context.controls.length > 0 ? context.controls.join(', ') : 'none'}${context.lateChanges.length > 0 ? `; late changes: ${context.lateChanges.join(', ')}` : ''}. `
                : ''}
              {comparisonFacts(comparison)}
              {elapsedMs === null ? '' : ` Ran in ${seconds(elapsedMs)}.`}
            </p>
            <ComparisonTable label="Current scenario comparison" testId="scenario-table" comparison={comparison} requiredMissed />
          </>
        )}
      />
    </section>
  );
}

function GrowthResult({ report, elapsedMs }: { report: GrowthReport; elapsedMs: number | null }) {
  const sizes = report.points.map((point) => point.size);
  const strategies = report.points[0]?.rows ?? [];
  const k = report.points[0]?.k ?? 0;
  const seriesOf = (value: (row: StrategyMetrics) => number | null) =>
    strategies.map((first) => ({
      key: first.strategy,
      label: shortLabel(first.strategy, report.points[0]?.overFetch ?? 0),
      values: report.points.map((point) => {
        const row = point.rows.find((candidate) => candidate.strategy === first.strategy);
        return row ? value(row) : null;
      }),
    }));
  const maxUnsafe = report.points.reduce((most, point) => point.rows.reduce((pointMost, row) => Math.max(pointMost, row.unsafePassed), most), k);
  return (
    <>
      <p className="caption" data-testid="growth-facts">
        Seed {report.seed}; every {report.blockSize} records:{' '}
        {Object.entries(report.blockMix)
          .map(([category, n]) => `${n} ${category}`)
          .join(', ')}
        . k = {k}, budget {report.points[0]?.tokenBudget ?? 0} tokens.
        {elapsedMs === null ? '' : ` Whole run ${seconds(elapsedMs)}.`}
      </p>
      <div className="chart-row">
        <LineChart
          title={`Unsafe items passed (of k = ${k})`}
          xValues={sizes}
          xFormat={count}
          series={seriesOf((row) => row.unsafePassed)}
          yMax={maxUnsafe}
          yFormat={(y) => String(Math.round(y * 10) / 10)}
        />
        <LineChart title={`Recall@${k}`} xValues={sizes} xFormat={count} series={seriesOf((row) => row.recallAtK)} yMax={1} yFormat={(y) => y.toFixed(1)} />
      </div>
      <div className="table-scroll">
        <table aria-label="Growth results" data-testid="growth-table" className="evaluation-table">
          <thead>
            <tr>
              <th scope="col">records</th>
              <th scope="col">strategy</th>
              <th scope="col">passed</th>
              <th scope="col">unsafe</th>
              <th scope="col">coverage (mentioned)</th>
              <th scope="col">coverage (accepted evidence)</th>
              <th scope="col">recall@{k}</th>
              <th scope="col">displaced citations</th>
              <th scope="col">tokens</th>
            </tr>
          </thead>
          <tbody>
            {report.points.flatMap((point) =>
              point.rows.map((row) => (
                <tr key={`${point.size}-${row.strategy}`} data-testid={`growth-${point.size}-${row.strategy}`}>
                  <th scope="row">{count(point.size)}</th>
                  <th scope="row">{strategyName(row, point.overFetch)}</th>
                  <StrategyMetricCells row={row} tokenBudget={point.tokenBudget} requiredMissed={false} k={point.k} />
                </tr>
              )),
            )}
          </tbody>
        </table>
      </div>
      <div className="table-scroll">
        <table aria-label="Growth timings" data-testid="growth-timings" className="evaluation-table">
          <thead>
            <tr>
              <th scope="col">records</th>
              <th scope="col">index (fresh database)</th>
              <th scope="col">compile + baselines</th>
              <th scope="col">admitted</th>
              <th scope="col">admitted set</th>
              <th scope="col">corpus digest</th>
            </tr>
          </thead>
          <tbody>
            {report.points.map((point) => (
              <tr key={point.size}>
                <th scope="row">{count(point.size)}</th>
                <td data-label="index (fresh database)">{point.indexMs === null ? '–' : `${Math.round(point.indexMs)} ms`}</td>
                <td data-label="compile + baselines">{point.compareMs === null ? '–' : `${Math.round(point.compareMs)} ms`}</td>
                <td data-label="admitted">{count(point.admitted)}</td>
                <td data-label="admitted set" className={point.admittedAsGenerated ? undefined : 'bad'}>
                  {point.admittedAsGenerated ? 'exactly the generated legal records' : 'differs from the generated legal records'}
                </td>
                <td data-label="corpus digest">
                  <code>{shortHash(point.corpusDigest)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function GrowthSection() {
  const result = useEvaluationStore((state) => state.growth);
  const chosen = useEvaluationStore((state) => state.growthSizes);
  const busy = useEvaluationStore((state) => state.running !== null);
  return (
    <section className="panel evaluation-section" aria-labelledby="growth-heading">
      <h3 id="growth-heading">Growth: contaminated corpora of growing size</h3>
      <p className="caption">
        Every 20 records hold 1 legal relevant record among 11 similar illegal ones and 8 legal records the task does not need. Each size runs in its own fresh database, so a cancel stops between
        sizes and keeps the sizes already measured.
      </p>
      <fieldset className="size-choices" disabled={busy}>
        <legend>Corpus sizes</legend>
        {EVALUATION_GROWTH_SIZES.map((size) => (
          <label key={size}>
            <input type="checkbox" checked={chosen.includes(size)} onChange={(event) => setGrowthSize(size, event.target.checked)} />
            {count(size)}
            {size === 50_000 ? ' (slow: tens of seconds)' : ''}
          </label>
        ))}
      </fieldset>
      <RunButton experiment="growth" label="Run growth experiment" onRun={runGrowthExperiment} disabled={chosen.length === 0} />
      <Progress experiment="growth" />
      <Outcome experiment="growth" result={result} render={(report, elapsedMs) => <GrowthResult report={report} elapsedMs={elapsedMs} />} />
    </section>
  );
}

function FoundationResult({ report, elapsedMs }: { report: FoundationReport; elapsedMs: number | null }) {
  return (
    <>
      <p className="caption" data-testid="foundation-facts">
        {report.records} records, {report.queries} queries, the same FTS5 bm25 ranking in every mode.{elapsedMs === null ? '' : ` Ran in ${seconds(elapsedMs)}.`}
      </p>
      <div className="table-scroll">
        <table aria-label="Retrieval foundation" data-testid="foundation-table" className="evaluation-table">
          <thead>
            <tr>
              <th scope="col">mode</th>
              <th scope="col">hit@1</th>
              <th scope="col">recall@3</th>
              <th scope="col">MRR</th>
              <th scope="col">avg candidates</th>
              <th scope="col">filter false negatives</th>
            </tr>
          </thead>
          <tbody>
            {report.modes.map((mode) => (
              <tr key={mode.mode} data-testid={`foundation-table-${mode.mode}`}>
                <th scope="row">{mode.label}</th>
                <td data-label="hit@1">{decimal(mode.hitAt1, 3)}</td>
                <td data-label="recall@3">{decimal(mode.recallAt3, 3)}</td>
                <td data-label="MRR">{decimal(mode.mrr, 3)}</td>
                <td data-label="avg candidates">{decimal(mode.averageCandidates)}</td>
                <td data-label="filter false negatives" className={mode.filterFalseNegatives > 0 ? 'bad' : undefined}>
                  {mode.filterFalseNegatives}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function FoundationSection() {
  const result = useEvaluationStore((state) => state.foundation);
  return (
    <section className="panel evaluation-section" aria-labelledby="foundation-heading">
      <h3 id="foundation-heading">Retrieval foundation</h3>
      <p className="caption">
        36 records from three software projects with overlapping wording, 12 queries: content only, broad metadata, discriminative metadata, and discriminative metadata that treats a missing field as
        unknown.
      </p>
      <RunButton experiment="foundation" label="Run retrieval foundation" onRun={runFoundationExperiment} />
      <Progress experiment="foundation" />
      <Outcome experiment="foundation" result={result} render={(report, elapsedMs) => <FoundationResult report={report} elapsedMs={elapsedMs} />} />
    </section>
  );
}

/** The evaluation lab (region "Evaluation"): every experiment runs in the worker, in its own database, on demand. */
export function EvaluationPanel() {
  return (
    <section className="evaluation" aria-labelledby="evaluation-heading">
      <h2 id="evaluation-heading">Evaluation</h2>
      <p className="caption">
        What deciding the admitted set before ranking changes, measured against plain top-k and post-filter top-k under the same ranking and budget. Unsafe: passed records outside the admitted set.
        Coverage (mentioned): required propositions some passed record speaks to, legal or not; accepted evidence counts only admitted records of an accepted class.
      </p>
      <Seed000Section />
      <ScenarioSection />
      <GrowthSection />
      <FoundationSection />
    </section>
  );
}
