import type { Sha256 } from '../core/fingerprints';
import { createSqliteCompiler } from '../adapters/sqlite/compiler';
import { err, ok, type CompileError, type Result } from '../core/errors';
import type { LoadedScenario } from '../core/phases/1-validate/validate';
import type { SqlDriver } from '../adapters/sqlite/driver';
import { prepareScenario } from '../core/compile';
import { measureComparison, type Comparison } from './compare';

export interface ScenarioComparisonOptions {
  readonly controls?: readonly string[];
  readonly lateChanges?: readonly string[];
  /** Overrides the contract's naiveTopK for the baselines. */
  readonly k?: number;
  readonly overFetch?: number;
}

export interface ScenarioComparison extends Comparison {
  readonly scenarioId: string;
  readonly title: string;
}

/**
 * Compares plain top-k, post-filter top-k and the compiled packet on one scenario (the shipped
 * seed 000 corpus, or the user's own). `driver` must be a database no other compiler indexes into.
 */
export async function runScenarioComparison(
  sha256: Sha256,
  driver: SqlDriver,
  loaded: LoadedScenario,
  options: ScenarioComparisonOptions = {},
  onProgress?: (done: number, total: number) => void,
): Promise<Result<ScenarioComparison, CompileError>> {
  const request = prepareScenario(sha256, loaded, {
    controls: options.controls ?? [],
    lateChanges: options.lateChanges ?? [],
  });
  if (!request.ok) return err(request.error);
  const compiler = createSqliteCompiler(sha256, driver);
  compiler.index(request.value.recordSet, onProgress);
  const measured = await measureComparison(compiler, driver, request.value, {
    k: options.k,
    overFetch: options.overFetch,
  });
  if (!measured.ok) return measured;
  return ok({ scenarioId: loaded.scenario.id, title: loaded.scenario.title, ...measured.value.comparison });
}
