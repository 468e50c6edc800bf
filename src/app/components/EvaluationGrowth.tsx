import type { StrategyMetrics } from '../../eval/compare';
import type { GrowthReport } from '../../eval/growth';
import { EVALUATION_GROWTH_SIZES } from '../../shared/evaluation-sizes';
import { runGrowthExperiment, setGrowthSize, useEvaluationStore } from '../state/evaluation-store';
import { LineChart } from './EvaluationCharts';
import { count, seconds, shortLabel, strategyName, StrategyMetricCells } from './EvaluationCells';
import { Outcome, Progress, RunButton } from './EvaluationRun';
import { shortHash } from './format';

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
  const maxUnsafe = report.points.reduce(
    (most, point) => point.rows.reduce((pointMost, row) => Math.max(pointMost, row.unsafePassed), most),
    k,
  );
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
        <LineChart
          title={`Recall@${k}`}
          xValues={sizes}
          xFormat={count}
          series={seriesOf((row) => row.recallAtK)}
          yMax={1}
          yFormat={(y) => y.toFixed(1)}
        />
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
                <td data-label="index (fresh database)">
                  {point.indexMs === null ? '–' : `${Math.round(point.indexMs)} ms`}
                </td>
                <td data-label="compile + baselines">
                  {point.compareMs === null ? '–' : `${Math.round(point.compareMs)} ms`}
                </td>
                <td data-label="admitted">{count(point.admitted)}</td>
                <td data-label="admitted set" className={point.admittedAsGenerated ? undefined : 'bad'}>
                  {point.admittedAsGenerated
                    ? 'exactly the generated legal records'
                    : 'differs from the generated legal records'}
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

export function GrowthSection() {
  const result = useEvaluationStore((state) => state.growth);
  const chosen = useEvaluationStore((state) => state.growthSizes);
  const busy = useEvaluationStore((state) => state.running !== null);
  return (
    <section className="panel evaluation-section" aria-labelledby="growth-heading">
      <h3 id="growth-heading">Growth: contaminated corpora of growing size</h3>
      <p className="caption">
        Every 20 records hold 1 legal relevant record among 11 similar illegal ones and 8 legal records the task does
        not need. Each size runs in its own fresh database, so a cancel stops between sizes and keeps the sizes already
        measured.
      </p>
      <fieldset className="size-choices" disabled={busy}>
        <legend>Corpus sizes</legend>
        {EVALUATION_GROWTH_SIZES.map((size) => (
          <label key={size}>
            <input
              type="checkbox"
              checked={chosen.includes(size)}
              onChange={(event) => setGrowthSize(size, event.target.checked)}
            />
            {count(size)}
            {size === 50_000 ? ' (slow: tens of seconds)' : ''}
          </label>
        ))}
      </fieldset>
      <RunButton
        experiment="growth"
        label="Run growth experiment"
        onRun={runGrowthExperiment}
        disabled={chosen.length === 0}
      />
      <Progress experiment="growth" />
      <Outcome
        experiment="growth"
        result={result}
        render={(report, elapsedMs) => <GrowthResult report={report} elapsedMs={elapsedMs} />}
      />
    </section>
  );
}
