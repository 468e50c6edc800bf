import type { CompileRequest } from '../core/compile';
import type { SqliteCompiler } from '../adapters/sqlite/compiler';
import { err, ok, type CompileError, type Result } from '../core/errors';
import type { Contract } from '../core/format/contract';
import type { SourceRecord } from '../core/format/record';
import type { CompileOutcome } from '../core/result';
import type { SqlDriver } from '../adapters/sqlite/driver';
import { walkBudget } from '../core/budget';
import { rankCorpus } from '../adapters/sqlite/fts5-rank';

export const STRATEGIES = ['naive', 'post-filter', 'post-filter-overfetch', 'compiled'] as const;
export type StrategyId = (typeof STRATEGIES)[number];

/** What one retrieval order handed to the model, and what it had in hand before the budget cut. */
export interface StrategyRun {
  readonly strategy: StrategyId;
  /** Records the strategy meant to pass, in order, before the token budget was applied. */
  readonly considered: readonly string[];
  /** Records that fit the budget: what the model would see. */
  readonly passed: readonly string[];
}

export interface StrategyMetrics {
  readonly strategy: StrategyId;
  readonly label: string;
  readonly itemsPassed: number;
  /** Passed records outside the compiler's admitted set (not authorised, not applicable, or not accepted evidence). */
  readonly unsafePassed: number;
  /**
   * Share of required propositions that some passed record mentions, whatever its class or legality (seed 000's
   * coverage); null when the contract requires none.
   */
  readonly coverageMentioned: number | null;
  /**
   * Share of required propositions backed by a passed, admitted record of an accepted evidence class; null when the
   * contract requires none.
   */
  readonly coverageSupported: number | null;
  /**
   * Legal relevant records among the first k passed, over min(k, number of legal relevant records); null when there are
   * none.
   */
  readonly recallAtK: number | null;
  /**
   * Required propositions whose legal evidence the strategy had in hand but lost to the budget, with no other accepted
   * evidence passed.
   */
  readonly displacedCitations: number;
  /** The contract's required records this strategy did not pass, in the contract's order. */
  readonly requiredMissed: readonly string[];
  readonly tokensUsed: number;
}

export interface ComparisonSettings {
  /** Top-k of the relevance baselines (the contract's naiveTopK unless overridden). */
  readonly k: number;
  /** The post-filter baseline with over-fetch retrieves k × this many before filtering. */
  readonly overFetch: number;
}

export interface Comparison {
  readonly status: CompileOutcome['status'];
  readonly receiptId: string;
  readonly ranking: Contract['ranking'];
  readonly k: number;
  readonly overFetch: number;
  readonly tokenBudget: number;
  readonly candidates: number;
  readonly admitted: number;
  readonly legalRelevant: number;
  readonly requiredPropositions: number;
  readonly rows: readonly StrategyMetrics[];
}

export const STRATEGY_LABELS: Readonly<Record<StrategyId, string>> = {
  naive: 'plain top-k',
  'post-filter': 'post-filter top-k',
  'post-filter-overfetch': 'post-filter top-k, over-fetch',
  compiled: 'compiled (admit first)',
};

/** Required propositions this record is accepted evidence for, under the contract's classes. */
function acceptedPropositions(contract: Contract, record: SourceRecord | undefined): string[] {
  const evidence = record?.evidence;
  if (!evidence) return [];
  const claims = new Set([...evidence.supports, ...evidence.contradicts]);
  return contract.requiredPropositions
    .filter((p) => claims.has(p.id) && p.acceptedClasses.includes(evidence.class))
    .map((p) => p.id);
}

function mentionedPropositions(record: SourceRecord | undefined): string[] {
  const evidence = record?.evidence;
  return evidence ? [...evidence.supports, ...evidence.contradicts] : [];
}

/**
 * Runs the four retrieval orders over the record set the compiler has just indexed, whole corpus
 * included (`indexCorpus`). The baselines rank the whole corpus with its own statistics (no
 * admission); the compiled order is the compiler's own packet.
 */
export function runStrategies(
  driver: SqlDriver,
  request: CompileRequest,
  outcome: CompileOutcome,
  settings: ComparisonSettings,
  admitted: ReadonlySet<string>,
): StrategyRun[] {
  const { contract, recordSet } = request;
  const tokensOf = (id: string) => recordSet.byId.get(id)?.record.tokens ?? 0;
  const budgeted = (strategy: StrategyId, considered: string[]): StrategyRun => ({
    strategy,
    considered,
    passed: walkBudget(considered, tokensOf, contract.tokenBudget).selected,
  });

  const topK = rankCorpus(driver, contract.query, contract.ranking, settings.k).map((row) => row.id);
  const overFetched = rankCorpus(driver, contract.query, contract.ranking, settings.k * settings.overFetch).map(
    (row) => row.id,
  );

  const compiledPassed = outcome.status === 'packet' ? outcome.packet.entries.map((entry) => entry.id) : [];
  const compiledDisplaced = outcome.status === 'packet' ? outcome.evidence.flatMap((slot) => slot.displaced) : [];
  return [
    budgeted('naive', topK),
    budgeted(
      'post-filter',
      topK.filter((id) => admitted.has(id)),
    ),
    budgeted('post-filter-overfetch', overFetched.filter((id) => admitted.has(id)).slice(0, settings.k)),
    {
      strategy: 'compiled',
      considered: [...new Set([...compiledPassed, ...compiledDisplaced])],
      passed: compiledPassed,
    },
  ];
}

export interface MetricContext {
  readonly contract: Contract;
  readonly byId: ReadonlyMap<string, SourceRecord>;
  readonly admitted: ReadonlySet<string>;
  /** Admitted records that are accepted evidence for some required proposition. */
  readonly legalRelevant: ReadonlySet<string>;
  readonly k: number;
}

export function createMetricContext(request: CompileRequest, outcome: CompileOutcome, k: number): MetricContext {
  const { contract, recordSet } = request;
  const admitted = outcome.admitted;
  const byId = new Map(recordSet.records.map((record) => [record.id, record]));
  const legalRelevant = new Set([...admitted].filter((id) => acceptedPropositions(contract, byId.get(id)).length > 0));
  return { contract, byId, admitted, legalRelevant, k };
}

export function measureStrategy(context: MetricContext, run: StrategyRun): StrategyMetrics {
  const { contract, byId, admitted, legalRelevant, k } = context;
  const required = contract.requiredPropositions.map((p) => p.id);
  // With no required proposition there is nothing to cover: not 100 %, which an empty packet would also score.
  const share = (covered: ReadonlySet<string>) =>
    required.length === 0 ? null : required.filter((id) => covered.has(id)).length / required.length;
  const legalEvidenceOf = (ids: readonly string[]) =>
    new Set(ids.filter((id) => admitted.has(id)).flatMap((id) => acceptedPropositions(contract, byId.get(id))));

  const mentioned = new Set(run.passed.flatMap((id) => mentionedPropositions(byId.get(id))));
  const supported = legalEvidenceOf(run.passed);
  const inHand = legalEvidenceOf(run.considered);
  const firstK = run.passed.slice(0, k);
  return {
    strategy: run.strategy,
    label: STRATEGY_LABELS[run.strategy],
    itemsPassed: run.passed.length,
    unsafePassed: run.passed.filter((id) => !admitted.has(id)).length,
    coverageMentioned: share(mentioned),
    coverageSupported: share(supported),
    recallAtK:
      legalRelevant.size === 0
        ? null
        : firstK.filter((id) => legalRelevant.has(id)).length / Math.min(k, legalRelevant.size),
    displacedCitations: [...inHand].filter((id) => !supported.has(id)).length,
    requiredMissed: contract.requiredRecords.filter((id) => !run.passed.includes(id)),
    tokensUsed: run.passed.reduce((sum, id) => sum + (byId.get(id)?.tokens ?? 0), 0),
  };
}

export interface MeasuredComparison {
  readonly comparison: Comparison;
  /** Kept out of the report (it can hold thousands of ids) but available to callers that check ground truth. */
  readonly context: MetricContext;
}

/**
 * Compiles one request and measures the compiled packet against the relevance-only baselines.
 * The compiler must own `driver` (created with it), so the ranking queries see the same index.
 */
export async function measureComparison(
  compiler: SqliteCompiler,
  driver: SqlDriver,
  request: CompileRequest,
  overrides: Partial<ComparisonSettings> = {},
): Promise<Result<MeasuredComparison, CompileError>> {
  const compiled = await compiler.compile(request);
  if (!compiled.ok) return err(compiled.error);
  const outcome = compiled.value;
  compiler.indexCorpus(request.recordSet);
  const settings: ComparisonSettings = {
    k: overrides.k ?? request.contract.naiveTopK,
    overFetch: overrides.overFetch ?? 5,
  };
  const context = createMetricContext(request, outcome, settings.k);
  const rows = runStrategies(driver, request, outcome, settings, context.admitted).map((run) =>
    measureStrategy(context, run),
  );
  const comparison: Comparison = {
    status: outcome.status,
    receiptId: outcome.receipt.receiptId,
    ranking: request.contract.ranking,
    k: settings.k,
    overFetch: settings.overFetch,
    tokenBudget: request.contract.tokenBudget,
    candidates: outcome.counts.candidates,
    admitted: context.admitted.size,
    legalRelevant: context.legalRelevant.size,
    requiredPropositions: request.contract.requiredPropositions.length,
    rows,
  };
  return ok({ comparison, context });
}
