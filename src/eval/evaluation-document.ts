import type { StrategyId, StrategyMetrics } from './compare';
import type { FoundationReport } from './foundation';
import type { GrowthReport } from './growth';
import type { ScenarioComparison } from './scenario-comparison';
import { formatComparison, formatFoundation, formatGrowth } from './tables';

/** The three experiments `context-compiler eval` runs, as docs/EVALUATION.md reports them. */
export interface EvaluationReports {
  readonly seed000: ScenarioComparison;
  readonly growth: GrowthReport;
  readonly foundation: FoundationReport;
}

/** Seed 000's published table (passed, unsafe, coverage), which the shipped corpus must reproduce. */
const SEED000_PUBLISHED: ReadonlyArray<{
  readonly strategy: StrategyId;
  readonly passed: number;
  readonly unsafe: number;
  readonly coverage: number;
}> = [
  { strategy: 'naive', passed: 5, unsafe: 4, coverage: 0.75 },
  { strategy: 'post-filter', passed: 1, unsafe: 0, coverage: 0.25 },
  { strategy: 'compiled', passed: 4, unsafe: 0, coverage: 1 },
];

const percent = (share: number | null) => (share === null ? 'n/a' : `${Math.round(share * 100)} %`);
const decimal = (value: number | null) => (value === null ? '–' : value.toFixed(2));
const codeBlock = (text: string) => `\`\`\`\n${text.trimEnd()}\n\`\`\``;

function numericSpan(values: readonly number[], show: (value: number) => string): string {
  const low = values.reduce((least, value) => Math.min(least, value), Infinity);
  const high = values.reduce((most, value) => Math.max(most, value), -Infinity);
  return low === high ? show(low) : `${show(low)} to ${show(high)}`;
}

function seed000Section(comparison: ScenarioComparison): string {
  const row = (strategy: StrategyId) => comparison.rows.find((candidate) => candidate.strategy === strategy);
  const differing = SEED000_PUBLISHED.filter((published) => {
    const measured = row(published.strategy);
    return (
      measured?.itemsPassed !== published.passed ||
      measured.unsafePassed !== published.unsafe ||
      measured.coverageMentioned !== published.coverage
    );
  });
  const naive = row('naive');
  const published = SEED000_PUBLISHED.map(
    (entry) =>
      `${row(entry.strategy)?.label ?? entry.strategy} ${entry.passed}, ${entry.unsafe}, ${percent(entry.coverage)}`,
  ).join('; ');
  const verdict =
    differing.length === 0
      ? `The plain, post-filter and compiled rows reproduce the seed\u2019s published table exactly\n(passed, ` +
        `unsafe, coverage mentioned: ${published}).`
      : `These rows DIFFER from the seed\u2019s published table: ` +
        `${differing.map((entry) => row(entry.strategy)?.label ?? entry.strategy).join(', ')}\n(published: ` +
        `${published}).`;
  return `## 1. Seed 000, reproduced

\`fixtures/seed000-contaminated/\` is seed 000's eight-item Atlas corpus as a scenario: four
high-scoring candidates are unusable (another borrower's facility record, a superseded policy, an email
that claims a waiver, a waiver released only to investigators) and four lower-scoring ones satisfy the
evidence contract. As in the seed, it ranks by declared relevance (\`"ranking": "declared"\`, recorded in
the receipt) and compiles with \`typedEvidenceOnly: true\`; its budget is ${comparison.tokenBudget.toLocaleString('en-GB')} tokens.

${codeBlock(formatComparison(`Seed 000 synthetic comparison (${comparison.title})`, comparison))}

${verdict}
The accepted-evidence column shows what plain top-k's coverage is made of: ${percent(naive?.coverageSupported ?? null)} of the ${percent(naive?.coverageMentioned ?? null)}
rests on records the model may use. On ${comparison.candidates} records a ×${comparison.overFetch} over-fetch fetches the whole corpus, so
post-filtering it can match the compiled packet; the growth experiment shows what happens when it cannot.
`;
}

function strategySummary(report: GrowthReport, strategy: StrategyId): string {
  const rows = report.points
    .map((point) => point.rows.find((row) => row.strategy === strategy))
    .filter((row): row is StrategyMetrics => row !== undefined);
  const label = rows[0]?.label ?? strategy;
  const shown = strategy === 'post-filter-overfetch' ? `${label} ×${report.points[0]?.overFetch ?? ''}` : label;
  const recall = rows.map((row) => `${decimal(row.recallAtK)}`).join(', ');
  return (
    `- **${shown}** passes ${numericSpan(
      rows.map((row) => row.itemsPassed),
      String,
    )} records, ` +
    `${numericSpan(
      rows.map((row) => row.unsafePassed),
      String,
    )} of them unsafe; accepted-evidence coverage ` +
    `${numericSpan(
      rows.map((row) => row.coverageSupported ?? 0),
      (share) => percent(share),
    )}; recall@k by size ${recall}.`
  );
}

function growthSection(report: GrowthReport): string {
  const claimBearing = report.blockSize - report.blockMix.unneeded;
  const illegal = claimBearing - report.blockMix.legal;
  const first = report.points[0];
  const k = first?.k ?? 0;
  const fetched = k * (first?.overFetch ?? 0);
  const sizes = report.points.map((point) => point.size.toLocaleString('en-GB'));
  const sizeList =
    sizes.length > 1 ? `${sizes.slice(0, -1).join(', ')} and ${sizes[sizes.length - 1] ?? ''}` : (sizes[0] ?? '');
  const asGenerated = report.points.every((point) => point.admittedAsGenerated);
  const mix = Object.entries(report.blockMix)
    .map(([category, count]) => `${count} ${category}`)
    .join(', ');
  return `## 2. Growth

\`src/eval/growth-corpus.ts\` generates, from a seed (\`createPrng\`), corpora of any multiple of ${report.blockSize}
records for the same Atlas task (bm25 ranking, k = ${k}, budget ${first?.tokenBudget ?? 0} tokens, ${first?.requiredPropositions ?? 0} required propositions,
\`typedEvidenceOnly\`). Every block of ${report.blockSize} records holds the same mix, so the legal share is fixed:
${report.blockMix.legal} legal relevant record among ${illegal} similar illegal ones, and ${report.blockMix.unneeded} legal records the task does not need
(${mix}). Every claim-bearing record, legal or not, draws its wording from the same
distribution: only metadata tells them apart. Smaller corpora are prefixes of larger ones, so the run
indexes the largest once, step by step.

${codeBlock(formatGrowth({ ...report, points: report.points.map((point) => ({ ...point, indexMs: null, compareMs: null })) }))}

At ${sizeList} records (seed ${report.seed}):

${(['naive', 'post-filter', 'post-filter-overfetch', 'compiled'] as const).map((strategy) => strategySummary(report, strategy)).join('\n')}
- The compiler admitted ${asGenerated ? 'exactly the records the generator made legal, at every size' : 'NOT exactly the records the generator made legal at some size (see the lines under the table)'}.

With a fixed share of legal records, the ${fetched} records an over-fetch retrieves hold about
${fetched} × ${report.blockMix.legal}/${claimBearing} ≈ ${Math.round((fetched * report.blockMix.legal) / claimBearing)} legal ones at any size, so that baseline depends on luck, not on corpus size. (The published multitenant
study's fall with size comes from a tenant whose record count stays fixed while the corpus grows.) The
compiled packet can pass more than k records because it is bounded by the token budget, not by k.
`;
}

function foundationSection(report: FoundationReport): string {
  const misses = report.modes
    .filter((mode) => mode.filterFalseNegatives > 0)
    .map((mode) => {
      const lost = mode.queries
        .filter((query) => query.filteredOut.length > 0)
        .map((query) => `${query.filteredOut.join(', ')} for ${query.query}`);
      return `${mode.label} removes ${lost.join('; ')}`;
    });
  return `## 3. Retrieval foundation

\`fixtures/retrieval-foundation/\` holds ${report.records} records from three neutral software projects (a payments
service, a documentation site and a data pipeline; two components each; runbooks, decisions and
incidents) with deliberately overlapping wording, and ${report.queries} queries with their relevant records and
declared metadata. Every mode ranks with the same FTS5 bm25; the modes differ only in which matching
records the metadata filter lets through:

| mode | filter |
| --- | --- |
| content only | none |
| broad metadata | same project |
| discriminative metadata | same project, kind and entity; a record without an entity is dropped |
| discriminative, missing = unknown | as above, but a record without an entity is kept |

Metrics: **hit@1** (the top result is relevant), **recall@3** (share of a query's relevant records in
its top 3), **MRR** (mean of 1 / rank of the first relevant record, 0 when none), **avg candidates**
(records the ranker chooses among) and **filter false negatives** (relevant records the filter removed,
summed over queries).

${codeBlock(formatFoundation(report))}

${misses.length === 0 ? 'No filter removes a relevant record.' : `Filter false negatives: ${misses.join('; ')}.`}
A record whose metadata is missing must not silently fail a hard filter: treating the missing field as
unknown keeps the narrowing without losing it.
`;
}

const STATIC_HEAD = `# Evaluation

The product's claim is that deciding the admitted set *before* ranking keeps an evidence boundary that
relevance ranking, and filtering after ranking, cannot keep. This page measures that claim three ways.
It is written by \`npx context-compiler eval --markdown > docs/EVALUATION.md\`, and
\`src/cli/commands/eval-command.test.ts\` fails when the checked-in page differs from what that command
writes. Timings are left out; \`npx context-compiler eval\` prints them.

## Strategies compared

| strategy | what it hands to the model |
| --- | --- |
| plain top-k | the k best-ranked records of the whole corpus, then the token budget |
| post-filter top-k | the same k, minus every record the legality gates refuse, then the budget |
| post-filter top-k, over-fetch | k × the over-fetch factor best-ranked, minus refused records, cut back to k, then the budget (the published multitenant study's setup) |
| compiled (admit first) | the compiler's packet: admission first, then ranking inside the admitted set, evidence planned before ordinary ranking, then the budget |

The baselines use the same ranking as the compiler (\`rankRecords\`: FTS5 bm25 with the title weighted
twice, or the records' declared scores when the contract says \`ranking: "declared"\`) and the same
budget rule (a record that does not fit is skipped; later, smaller ones may still fit).

## Definitions

- **passed**: records the strategy hands over after the budget.
- **unsafe**: passed records outside the compiler's admitted set: not authorised, not applicable
  (wrong borrower, superseded, future, denied label…) or, under \`typedEvidenceOnly\`, not accepted
  evidence for any required proposition (seed 000's "not authorised and applicable and typed").
- **coverage (mentioned)**: share of required propositions that *some* passed record supports or
  contradicts, whatever its evidence class and legality (seed 000's coverage).
- **coverage (accepted evidence)**: share of required propositions backed by a passed, admitted record
  whose evidence class the contract accepts for that proposition. Both coverages are \`n/a\` when the
  contract requires no propositions.
- **recall@k**: legal relevant records (admitted and accepted evidence for a required proposition)
  among the first k passed, divided by min(k, number of legal relevant records).
- **displaced citations**: required propositions whose legal evidence the strategy had in hand but lost
  to the token budget, with no other accepted evidence for that proposition passed.
`;

const STATIC_TAIL = `## Reproducing

\`\`\`
npx context-compiler eval                                  # all three, tables with timings
npx context-compiler eval seed000 --json                   # one experiment as JSON
npx context-compiler eval growth --seed 7 --sizes 100,1000,10000
npx context-compiler eval --markdown > docs/EVALUATION.md  # this page
\`\`\`

Growth progress goes to stderr, so \`--json\` and \`--markdown\` output can be piped. The engine
(\`src/eval/\`) is pure TypeScript over an injected \`SqlDriver\`, so the app's Evaluation view runs the same
functions in its worker, and \`runScenarioComparison\` runs on any loaded scenario.
`;

/** docs/EVALUATION.md, the same on every machine: growth timings are left out even when the run measured them. */
export function evaluationDocument(reports: EvaluationReports): string {
  return [
    STATIC_HEAD,
    seed000Section(reports.seed000),
    growthSection(reports.growth),
    foundationSection(reports.foundation),
    STATIC_TAIL,
  ].join('\n');
}
