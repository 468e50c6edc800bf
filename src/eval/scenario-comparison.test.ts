import { sha256 } from '../core/test-support/sha256';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSqliteCompiler } from '../adapters/sqlite/compiler';
import { parseScenarioJson, type LoadedScenario } from '../core/phases/1-validate/validate';
import { freshDriver } from '../core/test-support/node-driver';
import { runScenarioComparison } from './scenario-comparison';

const FOLDER = join(import.meta.dirname, '../../fixtures/seed000-contaminated');

function loadSeed000(): LoadedScenario {
  const loaded = parseScenarioJson(
    sha256,
    'scenario.json',
    readFileSync(join(FOLDER, 'scenario.json'), 'utf8'),
    (name) => readFileSync(join(FOLDER, name), 'utf8'),
  );
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
}

describe('seed 000 contaminated corpus', () => {
  it('reproduces the published table: 5/4/75 %, 1/0/25 %, 4/0/100 %', async () => {
    const result = await runScenarioComparison(sha256, await freshDriver(), loadSeed000());
    if (!result.ok) throw new Error(result.error.message);
    const table = Object.fromEntries(
      result.value.rows.map((row) => [
        row.strategy,
        [row.itemsPassed, row.unsafePassed, Math.round((row.coverageMentioned ?? Number.NaN) * 100)],
      ]),
    );
    expect(table.naive).toEqual([5, 4, 75]);
    expect(table['post-filter']).toEqual([1, 0, 25]);
    expect(table.compiled).toEqual([4, 0, 100]);
    expect(result.value.ranking).toBe('declared');
  });

  it('shows that plain top-k coverage rests on records that are not accepted evidence', async () => {
    const result = await runScenarioComparison(sha256, await freshDriver(), loadSeed000());
    if (!result.ok) throw new Error(result.error.message);
    const supported = Object.fromEntries(result.value.rows.map((row) => [row.strategy, row.coverageSupported]));
    expect(supported).toEqual({ naive: 0.25, 'post-filter': 0.25, 'post-filter-overfetch': 1, compiled: 1 });
  });

  it('computes the same baselines as the compiler reports for k = naiveTopK', async () => {
    const loaded = loadSeed000();
    const compiler = createSqliteCompiler(sha256, await freshDriver());
    const request = { contract: loaded.scenario.contract, recordSet: loaded.recordSet };
    const outcome = await compiler.compile(request);
    if (!outcome.ok) throw new Error(outcome.error.message);
    const baselines = compiler.baselines(request, outcome.value);
    const result = await runScenarioComparison(sha256, await freshDriver(), loaded);
    if (!result.ok) throw new Error(result.error.message);
    const byStrategy = new Map(result.value.rows.map((row) => [row.strategy, row]));
    expect(byStrategy.get('naive')?.unsafePassed).toBe(baselines.naive.illegal.length);
    expect(byStrategy.get('post-filter')?.itemsPassed).toBe(baselines.postFilter.selected.length);
  });

  it('loses a citation to the budget when a tight budget is filled by unsafe records first', async () => {
    const loaded = loadSeed000();
    const tight: LoadedScenario = {
      ...loaded,
      scenario: { ...loaded.scenario, contract: { ...loaded.scenario.contract, tokenBudget: 400 } },
    };
    const result = await runScenarioComparison(sha256, await freshDriver(), tight);
    if (!result.ok) throw new Error(result.error.message);
    const naive = result.value.rows.find((row) => row.strategy === 'naive');
    expect(naive?.itemsPassed).toBe(4);
    expect(naive?.displacedCitations).toBe(1);
  });
});
