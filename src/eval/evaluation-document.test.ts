import { sha256 } from '../core/test-support/sha256';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenarioJson } from '../core/phases/1-validate/validate';
import { freshDriver } from '../core/test-support/node-driver';
import { evaluationDocument, type EvaluationReports } from './evaluation-document';
import { parseFoundationCorpus, runFoundation } from './foundation';
import { runGrowth } from './growth';
import { runScenarioComparison } from './scenario-comparison';

const FIXTURES = join(import.meta.dirname, '../../fixtures');
const read = (path: string) => readFileSync(join(FIXTURES, path), 'utf8');

/** The three reports at a small growth size, with a clock, so timings are there to be left out. */
async function smallReports(): Promise<EvaluationReports> {
  const loaded = parseScenarioJson(sha256, 'scenario.json', read('seed000-contaminated/scenario.json'), (name) =>
    read(`seed000-contaminated/${name}`),
  );
  if (!loaded.ok) throw new Error(loaded.error.message);
  const seed000 = await runScenarioComparison(sha256, await freshDriver(), loaded.value);
  if (!seed000.ok) throw new Error(seed000.error.message);
  let tick = 0;
  const growth = await runGrowth(sha256, await freshDriver(), { seed: 0, sizes: [100, 200], clock: () => (tick += 7) });
  if (!growth.ok) throw new Error(growth.error.message);
  const corpus = parseFoundationCorpus(
    'records.jsonl',
    read('retrieval-foundation/records.jsonl'),
    'queries.jsonl',
    read('retrieval-foundation/queries.jsonl'),
  );
  if (!corpus.ok) throw new Error(corpus.error.message);
  return {
    seed000: seed000.value,
    growth: growth.value,
    foundation: runFoundation(sha256, await freshDriver(), corpus.value),
  };
}

describe('the evaluation page', () => {
  it('says the shipped seed 000 corpus reproduces the published table, and leaves measured timings out', async () => {
    const page = evaluationDocument(await smallReports());
    expect(page).toContain('reproduce the seed\u2019s published table exactly');
    expect(page).toContain('200 records: admitted 10 (exactly the generated legal records)');
    expect(page).not.toMatch(/\d ms/);
    expect(page).toContain('discriminative metadata removes hb-11 for q04');
  });

  it('says so when seed 000 no longer reproduces the published table', async () => {
    const reports = await smallReports();
    const rows = reports.seed000.rows.map((row) => (row.strategy === 'naive' ? { ...row, unsafePassed: 3 } : row));
    const page = evaluationDocument({ ...reports, seed000: { ...reports.seed000, rows } });
    expect(page).toContain('These rows DIFFER from the seed\u2019s published table: plain top-k');
    expect(page).not.toContain('published table exactly');
  });
});
