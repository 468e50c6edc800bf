import type { StrategyMetrics } from '../../eval/compare';
import type { ScenarioComparison } from '../../eval/scenario-comparison';
import { runCurrentScenario, runSeed000, useEvaluationStore } from '../state/evaluation-store';
import { selectedScenario, useScenarioStore } from '../state/scenario-store';
import type { ChangeSummary, ChangeText } from '../../worker/protocol';
import { useChangeText } from './use-change-text';
import { BarChart, type Bar } from './EvaluationCharts';
import { Outcome, Progress, RunButton } from './EvaluationRun';
import { shortHash } from './format';
import './evaluation.css';

import { FoundationSection } from './EvaluationFoundation';
import { GrowthSection } from './EvaluationGrowth';
import { count, percent, seconds, shortLabel, strategyName, StrategyMetricCells } from './EvaluationCells';

function CoverageNote({ rows }: { rows: readonly StrategyMetrics[] }) {
  if (!rows.some((row) => row.coverageMentioned === null)) return null;
  return (
    <p className="caption" data-testid="coverage-na">
      Coverage n/a: this contract requires no propositions, so there is nothing to cover (an empty packet would
      otherwise score 100 %).
    </p>
  );
}

function ComparisonTable({
  label,
  testId,
  comparison,
  requiredMissed,
}: {
  label: string;
  testId: string;
  comparison: ScenarioComparison;
  requiredMissed: boolean;
}) {
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
              <StrategyMetricCells
                row={row}
                tokenBudget={comparison.tokenBudget}
                requiredMissed={requiredMissed}
                k={comparison.k}
              />
            </tr>
          ))}
        </tbody>
      </table>
      <CoverageNote rows={comparison.rows} />
    </div>
  );
}

function comparisonFacts(comparison: ScenarioComparison): string {
  const outcome =
    comparison.status === 'packet' ? 'packet emitted' : 'fail-closed: no packet, so the compiled row passes nothing';
  return `k = ${comparison.k}, ranking ${comparison.ranking}, ${count(comparison.candidates)} candidates, ${count(comparison.admitted)} admitted, ${count(comparison.legalRelevant)} legal relevant; compiled: ${outcome}; receipt ${shortHash(comparison.receiptId)}.`;
}

function bars(
  comparison: ScenarioComparison,
  value: (row: StrategyMetrics) => number,
  display: (row: StrategyMetrics) => string,
): Bar[] {
  return comparison.rows.map((row) => ({
    key: row.strategy,
    label: shortLabel(row.strategy, comparison.overFetch),
    value: value(row),
    display: display(row),
  }));
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
      <ComparisonTable
        label="Seed 000 comparison"
        testId="seed000-table"
        comparison={comparison}
        requiredMissed={false}
      />
    </>
  );
}

function Seed000Section() {
  const result = useEvaluationStore((state) => state.seed000);
  return (
    <section className="panel evaluation-section" aria-labelledby="seed000-heading">
      <h3 id="seed000-heading">Seed 000: the contaminated eight-item corpus</h3>
      <p data-testid="seed000-explained">
        “Seed 000” is the essay this project started from (<i>compile the evidence boundary</i>). It publishes a small,
        fixed benchmark: eight synthetic records for one credit decision about Atlas Industries, where relevance ranking
        is tempted by the wrong ones. This run rebuilds its table with this compiler, so the numbers should match the
        essay’s exactly.
      </p>
      <p className="caption">
        Four high-scoring records are unusable (another borrower’s, superseded, an email claiming a waiver, a waiver
        released only to investigators); four lower-scoring ones are the evidence the task needs. Ranked by declared
        relevance, k = 5.
      </p>
      <RunButton experiment="seed000" label="Run seed 000 comparison" onRun={runSeed000} />
      <Progress experiment="seed000" />
      <Outcome
        experiment="seed000"
        result={result}
        render={(comparison, elapsedMs) => <Seed000Result comparison={comparison} elapsedMs={elapsedMs} />}
      />
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
  const runContext =
    scenario && selection
      ? {
          title: scenario.title,
          controls: toggled,
          lateChanges: shown(scenario.lateChanges, selection.lateChanges, 'late-change'),
        }
      : null;
  return (
    <section className="panel evaluation-section" aria-labelledby="scenario-heading">
      <h3 id="scenario-heading">Run on the current scenario</h3>
      <p className="caption" data-testid="scenario-selection">
        {scenario
          ? `${scenario.title}${scenario.contractEdited ? ' (edited contract)' : ''}; controls: ` +
            `${toggled.length > 0 ? toggled.join(', ') : 'none'}.`
          : 'No scenario is loaded yet.'}
      </p>
      <RunButton
        experiment="scenario"
        label="Run on the current scenario"
        onRun={() => runCurrentScenario(runContext)}
        disabled={!scenario}
      />
      <Progress experiment="scenario" />
      <Outcome
        experiment="scenario"
        result={result}
        render={(comparison, elapsedMs) => (
          <>
            <p className="caption" data-testid="scenario-facts">
              {context
                ? `${context.title}; controls: ` +
                  `${context.controls.length > 0 ? context.controls.join(', ') : 'none'}${context.lateChanges.length > 0 ? `; late changes: ${context.lateChanges.join(', ')}` : ''}. `
                : ''}
              {comparisonFacts(comparison)}
              {elapsedMs === null ? '' : ` Ran in ${seconds(elapsedMs)}.`}
            </p>
            <ComparisonTable
              label="Current scenario comparison"
              testId="scenario-table"
              comparison={comparison}
              requiredMissed
            />
          </>
        )}
      />
    </section>
  );
}

export function EvaluationPanel() {
  return (
    <section className="evaluation" aria-labelledby="evaluation-heading">
      <h2 id="evaluation-heading">Evaluation</h2>
      <p className="caption">
        What deciding the admitted set before ranking changes, measured against plain top-k and post-filter top-k under
        the same ranking and budget. Unsafe: passed records outside the admitted set. Coverage (mentioned): required
        propositions some passed record speaks to, legal or not; accepted evidence counts only admitted records of an
        accepted class.
      </p>
      <Seed000Section />
      <ScenarioSection />
      <GrowthSection />
      <FoundationSection />
    </section>
  );
}
