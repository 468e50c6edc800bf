import { sha256 } from '../core/test-support/sha256';
import { describe, expect, it } from 'vitest';
import { createSqliteCompiler } from '../adapters/sqlite/compiler';
import { freshDriver } from '../core/test-support/node-driver';
import { runGrowth } from '../eval/growth';
import { readBuiltinScenarios } from './workspace/builtin-sources';
import { createEvaluation, type EvaluationDeps } from './evaluation';
import { readFoundationTexts, readSeed000 } from './evaluation-sources';
import type { EvaluationGrowthSize } from '../shared/evaluation-sizes';
import type { EvaluationProgress, Selection } from './protocol';
import { createSession } from './session';

async function currentScenarioWith(
  selection: Omit<Selection, 'scenarioKey'>,
): Promise<EvaluationDeps['currentScenario']> {
  const storage = {
    read: async () => undefined,
    write: async () => undefined,
    clear: async () => undefined,
    watch: () => undefined,
  };
  const session = createSession({
    compiler: createSqliteCompiler(sha256, await freshDriver()),
    storage,
    builtins: readBuiltinScenarios(sha256),
  });
  await session.start();
  await session.select({ scenarioKey: 'retry-policy', ...selection });
  return async () => session.current();
}

function evaluation(change: Partial<EvaluationDeps> = {}) {
  return createEvaluation({
    sha256: Promise.resolve(sha256),
    openDatabase: freshDriver,
    seed000: readSeed000,
    foundationTexts: readFoundationTexts,
    currentScenario: () => Promise.reject(new Error('no session in this test')),
    clock: () => 0,
    ...change,
  });
}

const byStrategy = <T extends { strategy: string }>(rows: readonly T[]) =>
  Object.fromEntries(rows.map((row) => [row.strategy, row]));

describe('evaluation in the worker', () => {
  it('reproduces seed 000 from the bundled fixture', async () => {
    const outcome = await evaluation().runSeed000(() => undefined);
    if (outcome.status !== 'done') throw new Error(outcome.status);
    const rows = byStrategy(outcome.report.rows);
    expect([rows.naive?.itemsPassed, rows.naive?.unsafePassed, rows.naive?.coverageMentioned]).toEqual([5, 4, 0.75]);
    expect([rows['post-filter']?.itemsPassed, rows['post-filter']?.coverageMentioned]).toEqual([1, 0.25]);
    expect([rows.compiled?.itemsPassed, rows.compiled?.unsafePassed, rows.compiled?.coverageMentioned]).toEqual([
      4, 0, 1,
    ]);
  });

  it('compares on the selected scenario with its toggled controls', async () => {
    const plain = await evaluation({
      currentScenario: await currentScenarioWith({ controls: [], lateChanges: [] }),
    }).runScenarioComparison(() => undefined);
    if (plain.status !== 'done') throw new Error(plain.status);
    expect(plain.report.scenarioId).toBe('retry-policy');
    expect(byStrategy(plain.report.rows).naive?.requiredMissed).toEqual(['ADR-0234']);
    expect(byStrategy(plain.report.rows).compiled?.requiredMissed).toEqual([]);

    const failClosed = await evaluation({
      currentScenario: await currentScenarioWith({ controls: ['remove-provenance'], lateChanges: [] }),
    }).runScenarioComparison(() => undefined);
    if (failClosed.status !== 'done') throw new Error(failClosed.status);
    expect(failClosed.report.status).toBe('fail_closed');
    expect(byStrategy(failClosed.report.rows).compiled?.itemsPassed).toBe(0);
  });

  it('runs each growth size in its own database with the numbers of one nested run', async () => {
    const progress: EvaluationProgress[] = [];
    const outcome = await evaluation().runGrowth([1_000, 100], (step) => progress.push(step));
    if (outcome.status !== 'done') throw new Error(outcome.status);
    const nested = await runGrowth(sha256, await freshDriver(), { seed: 0, sizes: [100, 1_000] });
    if (!nested.ok) throw new Error(nested.error.message);
    expect(
      outcome.report.points.map(({ size, rows, corpusDigest, admittedAsGenerated }) => ({
        size,
        rows,
        corpusDigest,
        admittedAsGenerated,
      })),
    ).toEqual(
      nested.value.points.map(({ size, rows, corpusDigest, admittedAsGenerated }) => ({
        size,
        rows,
        corpusDigest,
        admittedAsGenerated,
      })),
    );
    // Throttled: a few hundred messages at most, ending at 100 %.
    expect(progress.length).toBeLessThanOrEqual(420);
    const last = progress[progress.length - 1];
    expect(last?.done).toBe(last?.total);
  });

  it('stops between sizes when cancelled and keeps the sizes already measured', async () => {
    const lab = evaluation();
    const run = lab.runGrowth([100, 1_000], (step) => {
      if (step.step === '100 records: measured') void lab.cancelEvaluation();
    });
    const outcome = await run;
    expect(outcome.status).toBe('cancelled');
    if (outcome.status !== 'cancelled') return;
    expect(outcome.partial?.points.map((point) => point.size)).toEqual([100]);
  });

  it('finishes a run whose cancel arrives during its last size', async () => {
    const lab = evaluation();
    const outcome = await lab.runGrowth([100], (step) => {
      if (step.step === '100 records: indexing') void lab.cancelEvaluation();
    });
    expect(outcome.status).toBe('done');
  });

  it('lets a new run cancel the one in progress', async () => {
    const lab = evaluation();
    const first = lab.runGrowth([100], () => undefined);
    const second = lab.runFoundation(() => undefined);
    expect((await first).status).toBe('cancelled');
    const foundation = await second;
    if (foundation.status !== 'done') throw new Error(foundation.status);
    expect(foundation.report.modes.map((mode) => mode.filterFalseNegatives)).toEqual([0, 0, 1, 0]);
  });

  it('refuses growth sizes the app does not offer', async () => {
    const outcome = await evaluation().runGrowth([150 as EvaluationGrowthSize], () => undefined);
    expect(outcome.status).toBe('failed');
  });
});
