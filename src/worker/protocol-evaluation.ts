import type { CompileError } from '../core/errors';
import type { FoundationReport } from '../eval/foundation';
import type { GrowthReport } from '../eval/growth';
import type { ScenarioComparison } from '../eval/scenario-comparison';
import type { EvaluationGrowthSize } from '../shared/evaluation-sizes';

/* The Evaluation view's experiments: part of the worker's protocol (protocol.ts re-exports it). */

export type EvaluationExperiment = 'seed000' | 'scenario' | 'growth' | 'foundation';

export interface EvaluationProgress {
  readonly experiment: EvaluationExperiment;
  /** What the worker is doing now, e.g. "10,000 records: indexing". */
  readonly step: string;
  readonly done: number;
  readonly total: number;
}

/** A cancelled growth run keeps the sizes it finished before the cancel was seen. */
export type EvaluationOutcome<T> =
  | { readonly status: 'done'; readonly report: T; readonly elapsedMs: number }
  | { readonly status: 'failed'; readonly error: CompileError }
  | { readonly status: 'cancelled'; readonly partial: T | null };

/** Each experiment runs in its own fresh in-memory database; a new run cancels the one in progress. */
export interface EvaluationApi {
  runSeed000(onProgress: (progress: EvaluationProgress) => void): Promise<EvaluationOutcome<ScenarioComparison>>;
  /** The strategy comparison on the selected scenario, with its contract edit, controls and late changes. */
  runScenarioComparison(
    onProgress: (progress: EvaluationProgress) => void,
  ): Promise<EvaluationOutcome<ScenarioComparison>>;
  runGrowth(
    sizes: readonly EvaluationGrowthSize[],
    onProgress: (progress: EvaluationProgress) => void,
  ): Promise<EvaluationOutcome<GrowthReport>>;
  runFoundation(onProgress: (progress: EvaluationProgress) => void): Promise<EvaluationOutcome<FoundationReport>>;
  /** Takes effect at the next step boundary (between corpus sizes): a step runs synchronously. */
  cancelEvaluation(): Promise<void>;
}
