import { z } from 'zod';
import { compileError, type CompileError, type Result } from '../core/errors';
import type { Sha256 } from '../core/fingerprints';
import type { LoadedScenario } from '../core/phases/1-validate/validate';
import type { SqlDriver } from '../adapters/sqlite/driver';
import { parseFoundationCorpus, runFoundation, type FoundationReport } from '../eval/foundation';
import { DEFAULT_GROWTH_SEED, runGrowth, type GrowthPoint, type GrowthReport } from '../eval/growth';
import { GROWTH_BLOCK_MIX, GROWTH_BLOCK_SIZE } from '../eval/growth-corpus';
import { runScenarioComparison, type ScenarioComparison } from '../eval/scenario-comparison';
import { EVALUATION_GROWTH_SIZES } from '../shared/evaluation-sizes';
import type { EvaluationApi, EvaluationExperiment, EvaluationOutcome, EvaluationProgress, Selection } from './protocol';
import { nextTask } from './next-task';

export interface EvaluationDeps {
  /** The SHA-256, once it has started: the experiments read and compile records. */
  readonly sha256: Promise<Sha256>;
  /** A fresh database per experiment: two compilers indexing into one database would collide. */
  readonly openDatabase: () => Promise<SqlDriver>;
  /** Seed 000's eight-item corpus, parsed from the bundled fixture. */
  readonly seed000: (sha256: Sha256) => Result<LoadedScenario, CompileError>;
  readonly foundationTexts: () => { readonly records: string; readonly queries: string };
  /** The scenario selected in the session, as the compiler sees it, with its toggled controls and late changes. */
  readonly currentScenario: () => Promise<{ readonly loaded: LoadedScenario; readonly selection: Selection }>;
  /** Milliseconds, for the timings shown beside the results. */
  readonly clock: () => number;
}

// Progress crosses to the main thread as messages: at most one per half percent keeps the page idle.
const PROGRESS_STEPS = 200;

const sizesSchema = z.array(z.union(EVALUATION_GROWTH_SIZES.map((size) => z.literal(size)))).min(1);

class EvaluationCancelled extends Error {}

const sizeLabel = (size: number) => size.toLocaleString('en-GB');

/**
 * The evaluation lab behind the app's Evaluation view. Each experiment runs synchronously inside one
 * step, so a cancel is seen between steps: before each corpus size for growth, before the work
 * starts for the others. Growth runs each size in its own database; the corpora are nested, so the numbers are the
 * ones an incremental run gives, and a cancel keeps every size already measured.
 */
export function createEvaluation(deps: EvaluationDeps): EvaluationApi {
  let running: AbortController | null = null;

  const throttled = (experiment: EvaluationExperiment, onProgress: (progress: EvaluationProgress) => void) => {
    let lastBucket = -1;
    let lastStep = '';
    return (step: string, done: number, total: number) => {
      const bucket = total > 0 ? Math.floor((done / total) * PROGRESS_STEPS) : 0;
      if (bucket === lastBucket && step === lastStep && done < total) return;
      lastBucket = bucket;
      lastStep = step;
      onProgress({ experiment, step, done, total });
    };
  };

  /** One run at a time: a new one cancels the previous at its next step boundary. */
  async function exclusive<T>(
    work: (checkpoint: () => Promise<void>) => Promise<EvaluationOutcome<T>>,
  ): Promise<EvaluationOutcome<T>> {
    running?.abort();
    const controller = new AbortController();
    running = controller;
    const checkpoint = async () => {
      // The worker's event loop delivers a cancel (or a compile request) between two synchronous steps.
      await nextTask();
      if (controller.signal.aborted) throw new EvaluationCancelled();
    };
    try {
      return await work(checkpoint);
    } catch (error) {
      if (error instanceof EvaluationCancelled) return { status: 'cancelled', partial: null };
      throw error;
    } finally {
      if (running === controller) running = null;
    }
  }

  const compare = (
    experiment: 'seed000' | 'scenario',
    onProgress: (progress: EvaluationProgress) => void,
    input: () => Promise<
      Result<{ loaded: LoadedScenario; selection: Pick<Selection, 'controls' | 'lateChanges'> }, CompileError>
    >,
  ) =>
    exclusive<ScenarioComparison>(async (checkpoint) => {
      const report = throttled(experiment, onProgress);
      const started = deps.clock();
      report('Preparing', 0, 1);
      const chosen = await input();
      if (!chosen.ok) return { status: 'failed', error: chosen.error };
      const driver = await deps.openDatabase();
      await checkpoint();
      const { loaded, selection } = chosen.value;
      const result = await runScenarioComparison(
        await deps.sha256,
        driver,
        loaded,
        { controls: selection.controls, lateChanges: selection.lateChanges },
        (done, total) => report('Indexing', done, total + 1),
      );
      if (!result.ok) return { status: 'failed', error: result.error };
      report('Done', 1, 1);
      return { status: 'done', report: result.value, elapsedMs: deps.clock() - started };
    });

  return {
    runSeed000: (onProgress) =>
      compare('seed000', onProgress, async () => {
        const loaded = deps.seed000(await deps.sha256);
        return loaded.ok
          ? { ok: true, value: { loaded: loaded.value, selection: { controls: [], lateChanges: [] } } }
          : loaded;
      }),

    runScenarioComparison: (onProgress) =>
      compare('scenario', onProgress, async () => ({ ok: true, value: await deps.currentScenario() })),

    async runGrowth(sizes, onProgress) {
      // Values from the main thread cross a boundary: only the offered sizes may start a run.
      const parsed = sizesSchema.safeParse(sizes);
      if (!parsed.success)
        return {
          status: 'failed',
          error: compileError({ pass: 'validate', code: 'INVALID_INPUT' }, 'GROWTH_SIZES', {
            sizes: EVALUATION_GROWTH_SIZES,
          }),
        };
      const ordered = [...new Set(parsed.data)].sort((a, b) => a - b);
      const points: GrowthPoint[] = [];
      const reportOf = (): GrowthReport => ({
        seed: DEFAULT_GROWTH_SEED,
        blockSize: GROWTH_BLOCK_SIZE,
        blockMix: GROWTH_BLOCK_MIX,
        points: [...points],
      });
      const outcome = await exclusive<GrowthReport>(async (checkpoint) => {
        const report = throttled('growth', onProgress);
        const started = deps.clock();
        // Each size counts its records twice, as runGrowth does: once indexing, once compiling.
        const total = ordered.reduce((sum, size) => sum + 2 * size, 0);
        let offset = 0;
        for (const size of ordered) {
          report(`${sizeLabel(size)} records: opening a fresh database`, offset, total);
          const driver = await deps.openDatabase();
          await checkpoint();
          const step = await runGrowth(
            await deps.sha256,
            driver,
            { seed: DEFAULT_GROWTH_SEED, sizes: [size], clock: deps.clock },
            (done) =>
              report(
                `${sizeLabel(size)} records: ${done < size ? 'indexing' : 'compiling and ranking the baselines'}`,
                offset + done,
                total,
              ),
          );
          if (!step.ok) return { status: 'failed', error: step.error };
          for (const point of step.value.points) points.push(point);
          offset += 2 * size;
          // No checkpoint here: a cancel seen after the last size would discard a finished run.
          report(`${sizeLabel(size)} records: measured`, offset, total);
        }
        return { status: 'done', report: reportOf(), elapsedMs: deps.clock() - started };
      });
      return outcome.status === 'cancelled'
        ? { status: 'cancelled', partial: points.length > 0 ? reportOf() : null }
        : outcome;
    },

    runFoundation: (onProgress) =>
      exclusive<FoundationReport>(async (checkpoint) => {
        const report = throttled('foundation', onProgress);
        const started = deps.clock();
        report('Preparing', 0, 1);
        const texts = deps.foundationTexts();
        const corpus = parseFoundationCorpus(
          'retrieval-foundation/records.jsonl',
          texts.records,
          'retrieval-foundation/queries.jsonl',
          texts.queries,
        );
        if (!corpus.ok) return { status: 'failed', error: corpus.error };
        const driver = await deps.openDatabase();
        await checkpoint();
        const result = runFoundation(await deps.sha256, driver, corpus.value, (done, total) =>
          report('Ranking queries', done, total),
        );
        return { status: 'done', report: result, elapsedMs: deps.clock() - started };
      }),

    async cancelEvaluation() {
      running?.abort();
    },
  };
}
