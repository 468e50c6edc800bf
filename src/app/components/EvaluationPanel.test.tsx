// @vitest-environment happy-dom
import { compileError } from '../../core/errors';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StrategyId, StrategyMetrics } from '../../eval/compare';
import type { FoundationReport } from '../../eval/foundation';
import type { GrowthPoint, GrowthReport } from '../../eval/growth';
import type { ScenarioComparison } from '../../eval/scenario-comparison';
import type { EvaluationOutcome, EvaluationProgress } from '../../worker/protocol';
import { INITIAL_EVALUATION, useEvaluationStore } from '../state/evaluation-store';
import { WorkerLostError } from '../worker-client';
import { installFakeApi, resetStores, sampleScenario, sampleView, sampleWorkspace } from '../test-support';
import { useResultStore } from '../state/result-store';
import { useScenarioStore } from '../state/scenario-store';
import { useUiStore } from '../state/ui-store';
import { App } from './App';
import { REDACTED_RECORD } from './use-change-text';
import { EvaluationPanel } from './EvaluationPanel';

const LABELS: Record<StrategyId, string> = {
  naive: 'plain top-k',
  'post-filter': 'post-filter top-k',
  'post-filter-overfetch': 'post-filter top-k, over-fetch',
  compiled: 'compiled (admit first)',
};

function row(
  strategy: StrategyId,
  itemsPassed: number,
  unsafePassed: number,
  coverageMentioned: number,
  requiredMissed: string[] = [],
): StrategyMetrics {
  return {
    strategy,
    label: LABELS[strategy],
    itemsPassed,
    unsafePassed,
    coverageMentioned,
    coverageSupported: unsafePassed > 0 ? 0.25 : coverageMentioned,
    recallAtK: 0.5,
    displacedCitations: 0,
    requiredMissed,
    tokensUsed: itemsPassed * 100,
  };
}

function comparison(change: Partial<ScenarioComparison> = {}): ScenarioComparison {
  return {
    scenarioId: 'seed000-contaminated',
    title: 'Seed 000',
    status: 'packet',
    receiptId: 'c2dd5a8543ef'.padEnd(64, '0'),
    ranking: 'declared',
    k: 5,
    overFetch: 5,
    tokenBudget: 1000,
    candidates: 8,
    admitted: 4,
    legalRelevant: 4,
    requiredPropositions: 4,
    rows: [
      row('naive', 5, 4, 0.75),
      row('post-filter', 1, 0, 0.25),
      row('post-filter-overfetch', 4, 0, 1),
      row('compiled', 4, 0, 1),
    ],
    ...change,
  };
}

function growthPoint(size: number): GrowthPoint {
  return {
    ...comparison({ ranking: 'bm25', tokenBudget: 500, candidates: size }),
    size,
    corpusDigest: 'e'.repeat(64),
    admittedAsGenerated: true,
    indexMs: 12,
    compareMs: 34,
  };
}

const growthReport = (sizes: number[]): GrowthReport => ({
  seed: 0,
  blockSize: 20,
  blockMix: { legal: 1, superseded: 1, otherTenant: 3, future: 2, wrongClass: 3, denied: 2, unneeded: 8 },
  points: sizes.map(growthPoint),
});

const done = <T,>(report: T): EvaluationOutcome<T> => ({ status: 'done', report, elapsedMs: 120 });

describe('EvaluationPanel', () => {
  beforeEach(() => {
    resetStores();
    useEvaluationStore.setState(INITIAL_EVALUATION);
  });
  afterEach(cleanup);

  it('runs seed 000 and shows the table and one chart per metric with the same numbers', async () => {
    const user = userEvent.setup();
    const api = installFakeApi({ runSeed000: vi.fn(async () => done(comparison())) });
    render(<EvaluationPanel />);
    await user.click(screen.getByRole('button', { name: 'Run seed 000 comparison' }));
    expect(api.runSeed000).toHaveBeenCalled();
    const table = await screen.findByRole('table', { name: 'Seed 000 comparison' });
    const cells = (strategy: string) =>
      within(within(table).getByTestId(`seed000-table-${strategy}`))
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(cells('naive').slice(0, 3)).toEqual(['5', '4', '75 %']);
    expect(cells('post-filter').slice(0, 3)).toEqual(['1', '0', '25 %']);
    expect(cells('compiled').slice(0, 3)).toEqual(['4', '0', '100 %']);
    expect(within(table).getByRole('rowheader', { name: 'post-filter top-k, over-fetch ×5' })).toBeInTheDocument();
    for (const name of ['Items passed', 'Unsafe items passed', 'Coverage (mentioned)'])
      expect(screen.getByRole('img', { name })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Coverage (mentioned)' })).toHaveAccessibleDescription(
      /plain top-k: 75 %; post-filter: 25 %/,
    );
  });

  it('shows progress while an experiment runs and cancels through the worker', async () => {
    const user = userEvent.setup();
    let report: (progress: EvaluationProgress) => void = () => undefined;
    let finish: (outcome: EvaluationOutcome<GrowthReport>) => void = () => undefined;
    const api = installFakeApi({
      runGrowth: vi.fn((_sizes, onProgress) => {
        report = onProgress;
        return new Promise<EvaluationOutcome<GrowthReport>>((resolve) => (finish = resolve));
      }),
    });
    render(<EvaluationPanel />);
    await user.click(screen.getByRole('button', { name: 'Run growth experiment' }));
    expect(api.runGrowth).toHaveBeenCalledWith([100, 1_000, 10_000], expect.any(Function));
    report({ experiment: 'growth', step: '1,000 records: indexing', done: 111, total: 222 });
    const bar = await screen.findByRole('progressbar', { name: 'Growth experiment progress' });
    await vi.waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '50'));
    expect(screen.getByRole('button', { name: 'Run seed 000 comparison' })).toHaveAttribute('aria-disabled', 'true');
    await user.click(screen.getByRole('button', { name: 'Cancel experiment' }));
    expect(api.cancelEvaluation).toHaveBeenCalled();
    finish({ status: 'cancelled', partial: growthReport([100]) });
    expect(await screen.findByTestId('cancelled-growth')).toHaveTextContent(
      'only the sizes finished before the run stopped',
    );
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Growth results' })).getAllByRole('row')).toHaveLength(5);
  });

  it('says the run failed when the worker is lost while cancelling, and Cancel itself throws nothing', async () => {
    const user = userEvent.setup();
    let lose: (error: Error) => void = () => undefined;
    const api = installFakeApi({
      runGrowth: vi.fn(() => new Promise<EvaluationOutcome<GrowthReport>>((_resolve, reject) => (lose = reject))),
      // The supervisor rejects every call to a worker that has ended, the cancel among them.
      cancelEvaluation: vi.fn(async () =>
        Promise.reject(new WorkerLostError('it was ended by the browser or crashed')),
      ),
    });
    render(<EvaluationPanel />);
    await user.click(screen.getByRole('button', { name: 'Run growth experiment' }));
    await user.click(screen.getByRole('button', { name: 'Cancel experiment' }));
    expect(api.cancelEvaluation).toHaveBeenCalled();
    lose(new WorkerLostError('it was ended by the browser or crashed'));
    expect(await screen.findByTestId('error-growth')).toHaveTextContent(
      'The worker could not run the experiment: The compiler stopped: it was ended by the browser or crashed',
    );
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Run growth experiment' })).not.toHaveAttribute('aria-disabled', 'true');
  });

  it('runs only the chosen growth sizes and draws unsafe items and recall against size', async () => {
    const user = userEvent.setup();
    const api = installFakeApi({ runGrowth: vi.fn(async (sizes) => done(growthReport([...sizes]))) });
    render(<EvaluationPanel />);
    await user.click(screen.getByRole('checkbox', { name: '10,000' }));
    await user.click(screen.getByRole('checkbox', { name: /50,000/ }));
    await user.click(screen.getByRole('button', { name: 'Run growth experiment' }));
    expect(api.runGrowth).toHaveBeenCalledWith([100, 1_000, 50_000], expect.any(Function));
    expect(await screen.findByRole('img', { name: 'Unsafe items passed (of k = 5)' })).toHaveAccessibleDescription(
      /plain top-k: 100 → 4, 1,000 → 4, 50,000 → 4/,
    );
    expect(screen.getByRole('img', { name: 'Recall@5' })).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Growth timings' })).getAllByRole('row')).toHaveLength(4);
  });

  it('cannot start a growth run with no size chosen', async () => {
    const user = userEvent.setup();
    installFakeApi();
    render(<EvaluationPanel />);
    for (const name of ['100', '1,000', '10,000']) await user.click(screen.getByRole('checkbox', { name }));
    expect(screen.getByRole('button', { name: 'Run growth experiment' })).toHaveAttribute('aria-disabled', 'true');
  });

  it('compares on the current scenario with its controls and names the required records each strategy missed', async () => {
    const user = userEvent.setup();
    const result = comparison({
      scenarioId: 'retry-policy',
      ranking: 'bm25',
      rows: [
        row('naive', 5, 5, 1, ['ADR-0234']),
        row('post-filter', 0, 0, 1, ['ADR-0234']),
        row('post-filter-overfetch', 2, 0, 1),
        row('compiled', 4, 0, 1),
      ],
    });
    const api = installFakeApi({ runScenarioComparison: vi.fn(async () => done(result)) });
    render(<EvaluationPanel />);
    expect(screen.getByTestId('scenario-selection')).toHaveTextContent('Retry policy; controls: none.');
    await user.click(screen.getByRole('button', { name: 'Run on the current scenario' }));
    expect(api.runScenarioComparison).toHaveBeenCalled();
    const table = await screen.findByRole('table', { name: 'Current scenario comparison' });
    expect(within(within(table).getByTestId('scenario-table-naive')).getAllByRole('cell')[5]).toHaveTextContent(
      'ADR-0234',
    );
    expect(within(within(table).getByTestId('scenario-table-compiled')).getAllByRole('cell')[5]).toHaveTextContent(
      'none',
    );
    expect(screen.getByTestId('scenario-facts')).toHaveTextContent('compiled: packet emitted');
  });

  it('in the user view names a control by the label the view may show, not the one naming a withheld record', async () => {
    const user = userEvent.setup();
    const permit = {
      id: 'grant-agent-permit',
      label: 'Grant the credit team a permit to X9',
      explanation: 'Lets the credit roles read X9.',
      records: ['X9'],
    };
    const scenario = sampleScenario({ controls: [permit] });
    useScenarioStore.setState({
      workspace: sampleWorkspace({
        scenarios: [scenario],
        selection: { scenarioKey: 'retry-policy', controls: [permit.id], lateChanges: [] },
      }),
    });
    const redacted = {
      id: permit.id,
      kind: 'control' as const,
      label: `Grant the credit team a permit to ${REDACTED_RECORD}`,
      explanation: `Lets the credit roles read ${REDACTED_RECORD}.`,
    };
    useResultStore.setState({
      response: { ok: true, view: sampleView({ audience: 'user', changeTexts: [redacted] }) },
    });
    useUiStore.setState({ audience: 'user' });
    installFakeApi({ runScenarioComparison: vi.fn(async () => done(comparison({ scenarioId: 'retry-policy' }))) });
    render(<EvaluationPanel />);
    expect(screen.getByTestId('scenario-selection')).toHaveTextContent(
      `controls: Grant the credit team a permit to ${REDACTED_RECORD}.`,
    );
    await user.click(screen.getByRole('button', { name: 'Run on the current scenario' }));
    expect(await screen.findByTestId('scenario-facts')).toHaveTextContent(
      `controls: Grant the credit team a permit to ${REDACTED_RECORD}`,
    );
    expect(document.body.textContent).not.toContain('X9');
  });

  it('shows the foundation table and a failure as an alert with its message', async () => {
    const user = userEvent.setup();
    const foundation: FoundationReport = {
      records: 36,
      queries: 12,
      modes: [
        {
          mode: 'discriminative',
          label: 'discriminative metadata',
          hitAt1: 11 / 12,
          recallAt3: 11 / 12,
          mrr: 11 / 12,
          averageCandidates: 1.58,
          filterFalseNegatives: 1,
          queries: [],
        },
      ],
    };
    installFakeApi({
      runFoundation: vi.fn(async () => done(foundation)),
      runSeed000: vi.fn(async () => ({
        status: 'failed' as const,
        error: compileError({ pass: 'validate', code: 'INVALID_INPUT' }, 'FILE_PROBLEM', {
          file: 'seed 000 fixture',
          problem: 'unreadable',
        }),
      })),
    });
    render(<EvaluationPanel />);
    await user.click(screen.getByRole('button', { name: 'Run retrieval foundation' }));
    const table = await screen.findByRole('table', { name: 'Retrieval foundation' });
    expect(within(table).getByTestId('foundation-table-discriminative')).toHaveTextContent(
      'discriminative metadata0.9170.9170.9171.581',
    );
    await user.click(screen.getByRole('button', { name: 'Run seed 000 comparison' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('seed 000 fixture: unreadable');
  });

  it('is reached from the app shell and hides the debugger rails while open', async () => {
    const user = userEvent.setup();
    installFakeApi();
    useEvaluationStore.setState(INITIAL_EVALUATION);
    render(<App />);
    expect(screen.queryByRole('region', { name: 'Evaluation' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Evaluation' }));
    expect(screen.getByRole('button', { name: 'Evaluation' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('region', { name: 'Evaluation' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Compare' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Debugger' }));
    expect(screen.getByRole('tab', { name: 'Compare' })).toBeInTheDocument();
  });
});
