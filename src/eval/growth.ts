import type { Sha256 } from '../core/fingerprints';
import { createSqliteCompiler } from '../adapters/sqlite/compiler';
import { err, ok, type CompileError, type Result } from '../core/errors';
import { recordSetDigest } from '../core/phases/7-attest/attest-digests';
import { createRecordSet } from '../core/phases/1-validate/validate';
import type { SqlDriver } from '../adapters/sqlite/driver';
import { measureComparison, type Comparison } from './compare';
import { createGrowthContract, generateGrowthCorpus, GROWTH_BLOCK_MIX, GROWTH_BLOCK_SIZE } from './growth-corpus';

export const DEFAULT_GROWTH_SIZES = [100, 1_000, 10_000, 50_000] as const;
export const DEFAULT_GROWTH_SEED = 0;

export interface GrowthOptions {
  readonly seed: number;
  readonly sizes: readonly number[];
  readonly k?: number;
  readonly overFetch?: number;
  readonly tokenBudget?: number;
  /** A millisecond clock for the timing columns; without one the report stays fully deterministic. */
  readonly clock?: () => number;
}

export interface GrowthPoint extends Comparison {
  readonly size: number;
  readonly corpusDigest: string;
  /** Whether the compiler admitted exactly the records the generator made legal and relevant. */
  readonly admittedAsGenerated: boolean;
  /** Indexing the records added since the previous, smaller size. */
  readonly indexMs: number | null;
  /** Compiling plus running the baselines' ranking queries. */
  readonly compareMs: number | null;
}

export interface GrowthReport {
  readonly seed: number;
  readonly blockSize: number;
  readonly blockMix: typeof GROWTH_BLOCK_MIX;
  readonly points: readonly GrowthPoint[];
}

export const GROWTH_DEFAULTS = { k: 5, overFetch: 5, tokenBudget: 500 } as const;

/**
 * Compiles the same Atlas task over ever larger contaminated corpora and measures every strategy at
 * each size. Corpora are nested, so the largest is indexed once, step by step, into `driver`
 * (a database no other compiler uses).
 */
export async function runGrowth(
  sha256: Sha256,
  driver: SqlDriver,
  options: GrowthOptions,
  onProgress?: (done: number, total: number) => void,
): Promise<Result<GrowthReport, CompileError>> {
  const sizes = [...new Set(options.sizes)].sort((a, b) => a - b);
  const largest = sizes[sizes.length - 1] ?? 0;
  const k = options.k ?? GROWTH_DEFAULTS.k;
  const contract = createGrowthContract(k, options.tokenBudget ?? GROWTH_DEFAULTS.tokenBudget);
  const corpus = generateGrowthCorpus(sha256, options.seed, largest);
  const compiler = createSqliteCompiler(sha256, driver);
  const clock = options.clock;
  // Compiling costs about as much per record as indexing it, so both count one unit per record.
  const total = largest + sizes.reduce((sum, size) => sum + size, 0);
  let done = 0;
  let previousSize = 0;

  const points: GrowthPoint[] = [];
  for (const size of sizes) {
    const slice = corpus.slice(0, size);
    const recordSet = createRecordSet(
      sha256,
      slice.map((item) => item.record),
    );
    const indexedBefore = done;
    const indexStart = clock?.();
    // The index reports positions in the whole slice; the first previousSize records are already indexed.
    compiler.index(recordSet, (position) => onProgress?.(indexedBefore + Math.max(0, position - previousSize), total));
    const indexMs = clock && indexStart !== undefined ? clock() - indexStart : null;
    done = indexedBefore + size - previousSize;

    const compareStart = clock?.();
    const measured = await measureComparison(
      compiler,
      driver,
      { contract, recordSet },
      { k, overFetch: options.overFetch ?? GROWTH_DEFAULTS.overFetch },
    );
    if (!measured.ok) return err(measured.error);
    const compareMs = clock && compareStart !== undefined ? clock() - compareStart : null;
    done += size;
    previousSize = size;
    onProgress?.(done, total);

    const generatedLegal = slice.filter((item) => item.category === 'legal').map((item) => item.record.id);
    const { admitted, legalRelevant } = measured.value.context;
    points.push({
      size,
      corpusDigest: recordSetDigest(sha256, recordSet.checked),
      admittedAsGenerated:
        admitted.size === generatedLegal.length &&
        legalRelevant.size === generatedLegal.length &&
        generatedLegal.every((id) => admitted.has(id)),
      indexMs,
      compareMs,
      ...measured.value.comparison,
    });
  }
  return ok({ seed: options.seed, blockSize: GROWTH_BLOCK_SIZE, blockMix: GROWTH_BLOCK_MIX, points });
}
