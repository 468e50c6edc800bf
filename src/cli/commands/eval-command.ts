import { sha256InNode } from '../../lib/node-sha256';
import { readFileSync } from 'node:fs';
import { wordMessage } from '../../core/messages';
import type { ParseArgsConfig } from 'node:util';
import { z } from 'zod';
import { err, ok } from '../../core/errors';
import { evaluationDocument, type EvaluationReports } from '../../eval/evaluation-document';
import { parseFoundationCorpus, runFoundation } from '../../eval/foundation';
import { DEFAULT_GROWTH_SEED, DEFAULT_GROWTH_SIZES, runGrowth } from '../../eval/growth';
import { GROWTH_BLOCK_SIZE } from '../../eval/growth-corpus';
import { runScenarioComparison } from '../../eval/scenario-comparison';
import { formatComparison, formatFoundation, formatGrowth } from '../../eval/tables';
import { openInMemoryDatabase } from '../../sqlite/load-sqlite';
import { FIXTURES_DIR, builtinScenarioPath } from '../builtin-paths';
import { EXIT, type CliIo } from '../command';
import { defineCommand } from '../define-command';
import { inputError, type PositionalRule } from '../options';
import { readScenarioFile } from '../read-scenario';

const EXPERIMENTS = ['seed000', 'growth', 'foundation'] as const;
const experimentSchema = z.enum([...EXPERIMENTS, 'all']);

const USAGE = `usage: context-compiler eval [seed000|growth|foundation|all] [--json|--markdown] [--seed N] [--sizes 100,1000,...]

  seed000     seed 000's contaminated eight-item corpus: plain top-k, post-filter, compiled
  growth      seeded contaminated corpora of growing size (default ${DEFAULT_GROWTH_SIZES.join(',')})
  foundation  content-only vs broad vs discriminative metadata retrieval (36 records, 12 queries)
  all         the three, in that order (the default)

  --json      print the reports as JSON instead of tables
  --markdown  print docs/EVALUATION.md: all three, without timings, so the page is the same on every machine
  --seed N    generator seed for growth (default ${DEFAULT_GROWTH_SEED})
  --sizes L   comma-separated growth sizes, each a positive multiple of ${GROWTH_BLOCK_SIZE}`;

const optionSpec = {
  json: { type: 'boolean', default: false },
  markdown: { type: 'boolean', default: false },
  seed: { type: 'string' },
  sizes: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

const oneExperiment: PositionalRule<string | undefined> = (given) =>
  given.length > 1 ? err({ code: 'ONE_EXPERIMENT', args: { given } }) : ok(given[0]);

const seedSchema = z.coerce
  .number()
  .int()
  .min(0)
  .max(2 ** 32 - 1);
const sizeSchema = z.coerce
  .number()
  .int()
  .positive()
  .max(1_000_000)
  .refine((size) => size % GROWTH_BLOCK_SIZE === 0, `a multiple of ${GROWTH_BLOCK_SIZE}`);

/** Growth progress goes to stderr so that --json output stays clean. */
function progressTo(io: CliIo, label: string): (done: number, total: number) => void {
  let lastShown = -1;
  return (done, total) => {
    const tenth = Math.floor((done / total) * 10);
    if (tenth === lastShown) return;
    lastShown = tenth;
    io.stderr(`${wordMessage('PROGRESS', { label, percent: tenth * 10 })}\n`);
  };
}

export const evalCommand = defineCommand({
  name: 'eval',
  summary: 'Measure plain top-k, post-filter and compiled packets (seed 000, growth, retrieval foundation)',
  usage: USAGE,
  options: optionSpec,
  positionals: oneExperiment,
  async run({ values, positionals: named, usageError }, io) {
    const experiment = experimentSchema.safeParse(named ?? 'all');
    if (!experiment.success) return usageError('UNKNOWN_EXPERIMENT', { name: named ?? '' });
    if (values.markdown && values.json) return usageError('JSON_OR_MARKDOWN');
    if (values.markdown && experiment.data !== 'all') return usageError('MARKDOWN_ALL_EXPERIMENTS');
    const seed = seedSchema.safeParse(values.seed ?? DEFAULT_GROWTH_SEED);
    if (!seed.success) return usageError('SEED_RANGE', { max: 2 ** 32 - 1 });
    const sizes: number[] = [];
    for (const raw of (values.sizes ?? DEFAULT_GROWTH_SIZES.join(',')).split(',')) {
      const size = sizeSchema.safeParse(raw.trim());
      if (!size.success) return usageError('SIZES_VALUE', { given: raw, block: GROWTH_BLOCK_SIZE });
      sizes.push(size.data);
    }

    const wanted = experiment.data === 'all' ? EXPERIMENTS : [experiment.data];
    const reports: { -readonly [Name in keyof EvaluationReports]?: EvaluationReports[Name] } = {};
    const text: string[] = [];
    // The page leaves timings out: without a clock the growth run is deterministic.
    const clock = values.markdown ? undefined : () => performance.now();
    for (const name of wanted) {
      if (name === 'seed000') {
        const loaded = await readScenarioFile(builtinScenarioPath('seed000-contaminated'));
        if (!loaded.ok) return inputError(io, loaded.error);
        const result = await runScenarioComparison(sha256InNode, await openInMemoryDatabase(), loaded.value);
        if (!result.ok) return inputError(io, result.error);
        reports.seed000 = result.value;
        text.push(formatComparison(`Seed 000 synthetic comparison (${result.value.title})`, result.value));
      } else if (name === 'growth') {
        const started = performance.now();
        const result = await runGrowth(
          sha256InNode,
          await openInMemoryDatabase(),
          { seed: seed.data, sizes, clock },
          progressTo(io, 'growth'),
        );
        if (!result.ok) return inputError(io, result.error);
        reports.growth = result.value;
        text.push(
          `${formatGrowth(result.value)}whole growth run: ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
        );
      } else {
        const folder = `${FIXTURES_DIR}retrieval-foundation/`;
        const corpus = parseFoundationCorpus(
          'records.jsonl',
          readFileSync(`${folder}records.jsonl`, 'utf8'),
          'queries.jsonl',
          readFileSync(`${folder}queries.jsonl`, 'utf8'),
        );
        if (!corpus.ok) return inputError(io, corpus.error);
        const report = runFoundation(sha256InNode, await openInMemoryDatabase(), corpus.value);
        reports.foundation = report;
        text.push(formatFoundation(report));
      }
    }
    const { seed000, growth, foundation } = reports;
    if (values.markdown && seed000 && growth && foundation)
      io.stdout(evaluationDocument({ seed000, growth, foundation }));
    else io.stdout(values.json ? `${JSON.stringify(reports, null, 2)}\n` : text.join('\n'));
    return EXIT.ok;
  },
});
