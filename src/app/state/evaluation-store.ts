import { create } from 'zustand';
import { formatIssue, type CompileError } from '../../core/errors';
import type { FoundationReport } from '../../eval/foundation';
import type { GrowthReport } from '../../eval/growth';
import type { ScenarioComparison } from '../../eval/scenario-comparison';
import type { EvaluationGrowthSize } from '../../shared/evaluation-sizes';
import type { EvaluationExperiment, EvaluationOutcome, EvaluationProgress } from '../../worker/protocol';
import { compilerApi } from '../worker-client';
import { reasonOf, wordMessage } from '../../core/messages';

export type ExperimentResult<T> =
  | { readonly status: 'none' }
  | { readonly status: 'done'; readonly report: T; readonly elapsedMs: number }
  | { readonly status: 'failed'; readonly message: string }
  | { readonly status: 'cancelled'; readonly partial: T | null };

export interface RunningExperiment {
  readonly experiment: EvaluationExperiment;
  readonly progress: EvaluationProgress | null;
  readonly cancelling: boolean;
}

/** What the current-scenario run was asked to compare, captured when it started (the selection may change after). */
export interface ScenarioRunContext {
  readonly title: string;
  readonly controls: readonly string[];
  readonly lateChanges: readonly string[];
}

interface EvaluationState {
  readonly growthSizes: readonly EvaluationGrowthSize[];
  readonly running: RunningExperiment | null;
  readonly seed000: ExperimentResult<ScenarioComparison>;
  readonly scenario: ExperimentResult<ScenarioComparison>;
  readonly scenarioContext: ScenarioRunContext | null;
  readonly growth: ExperimentResult<GrowthReport>;
  readonly foundation: ExperimentResult<FoundationReport>;
}

export const DEFAULT_GROWTH_SELECTION: readonly EvaluationGrowthSize[] = [100, 1_000, 10_000];

export const INITIAL_EVALUATION: EvaluationState = {
  growthSizes: DEFAULT_GROWTH_SELECTION,
  running: null,
  seed000: { status: 'none' },
  scenario: { status: 'none' },
  scenarioContext: null,
  growth: { status: 'none' },
  foundation: { status: 'none' },
};

export const useEvaluationStore = create<EvaluationState>(() => INITIAL_EVALUATION);

function describeError(error: CompileError): string {
  const issues = (error.issues ?? []).map(formatIssue);
  return [error.message, ...issues].join('\n');
}

function toResult<T>(outcome: EvaluationOutcome<T>): ExperimentResult<T> {
  if (outcome.status === 'failed') return { status: 'failed', message: describeError(outcome.error) };
  return outcome;
}

/** Runs one experiment in the worker; the previous result stays on screen until the new one arrives. */
async function run<T>(
  experiment: EvaluationExperiment,
  start: (onProgress: (progress: EvaluationProgress) => void) => Promise<EvaluationOutcome<T>>,
  save: (result: ExperimentResult<T>) => Partial<EvaluationState>,
): Promise<void> {
  useEvaluationStore.setState({ running: { experiment, progress: null, cancelling: false } });
  const onProgress = (progress: EvaluationProgress) => {
    const running = useEvaluationStore.getState().running;
    // A late message from a finished run must not bring its progress bar back.
    if (running?.experiment === progress.experiment) useEvaluationStore.setState({ running: { ...running, progress } });
  };
  let result: ExperimentResult<T>;
  try {
    result = toResult(await start(onProgress));
  } catch (error) {
    result = {
      status: 'failed',
      message: wordMessage('EXPERIMENT_FAILED', { reason: reasonOf(error) }),
    };
  }
  const running = useEvaluationStore.getState().running;
  useEvaluationStore.setState({ ...save(result), running: running?.experiment === experiment ? null : running });
}

export function setGrowthSize(size: EvaluationGrowthSize, on: boolean): void {
  const sizes = useEvaluationStore.getState().growthSizes.filter((chosen) => chosen !== size);
  useEvaluationStore.setState({ growthSizes: on ? [...sizes, size].sort((a, b) => a - b) : sizes });
}

export function runSeed000(): Promise<void> {
  return run(
    'seed000',
    (onProgress) => compilerApi().runSeed000(onProgress),
    (seed000) => ({ seed000 }),
  );
}

/** `context` holds the labels the view on screen may show, so the facts under the run word it the same way. */
export function runCurrentScenario(context: ScenarioRunContext | null): Promise<void> {
  useEvaluationStore.setState({ scenarioContext: context });
  return run(
    'scenario',
    (onProgress) => compilerApi().runScenarioComparison(onProgress),
    (scenario) => ({ scenario }),
  );
}

export function runGrowthExperiment(): Promise<void> {
  const sizes = useEvaluationStore.getState().growthSizes;
  if (sizes.length === 0) return Promise.resolve();
  return run(
    'growth',
    (onProgress) => compilerApi().runGrowth(sizes, onProgress),
    (growth) => ({ growth }),
  );
}

export function runFoundationExperiment(): Promise<void> {
  return run(
    'foundation',
    (onProgress) => compilerApi().runFoundation(onProgress),
    (foundation) => ({ foundation }),
  );
}

export async function cancelExperiment(): Promise<void> {
  const running = useEvaluationStore.getState().running;
  if (!running) return;
  useEvaluationStore.setState({ running: { ...running, cancelling: true } });
  try {
    await compilerApi().cancelEvaluation();
  } catch {
    // The worker is gone: the run's own call fails with it and says so, so nothing is left to cancel.
  }
}
