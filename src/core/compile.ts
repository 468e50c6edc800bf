import { compileAnswered } from './answered-admission';
import { applyChanges, pickChanges } from './controls';
import { ok, type CompileError, type Result } from './errors';
import type { LoadedScenario } from './phases/1-validate/validate';
import type { TableStats } from './memo';
import { finishCompile, prepareCompile, type CompileRequest } from './compile-stages';
import { settleDuplicates } from './phases/1-validate/settle-duplicates';
import { candidatesFrom } from './phases/4-admit/adapter';
import type { Baselines, CompileOutcome } from './result';
import { createQueries, type KeyRules } from './queries';
import type { Ranking } from './phases/5-rank/ranking';
import type { Store } from './store';
import type { Sha256 } from './fingerprints';

export type { CompileRequest, KeyRules };

export interface ScenarioSelection {
  /** Control ids switched on. */
  readonly controls: readonly string[];
  /** Late-change ids already applied (the fire drill's recompile). */
  readonly lateChanges: readonly string[];
}

/** A loaded scenario with some controls and late changes applied, ready for `compile` or `drill`. */
export function prepareScenario(
  sha256: Sha256,
  loaded: LoadedScenario,
  selection: ScenarioSelection,
): Result<CompileRequest, CompileError> {
  const { scenario, recordSet } = loaded;
  const controls = pickChanges(scenario.controls, selection.controls, 'control');
  if (!controls.ok) return controls;
  const lateChanges = pickChanges(scenario.lateChanges, selection.lateChanges, 'late change');
  if (!lateChanges.ok) return lateChanges;
  const changed = applyChanges(sha256, scenario.contract, recordSet, [...controls.value, ...lateChanges.value]);
  if (!changed.ok) return changed;
  return ok({
    contract: changed.value.contract,
    recordSet: changed.value.recordSet,
    controls: controls.value.map((control) => control.id),
    lateChanges: lateChanges.value.map((change) => change.id),
  });
}

export interface Compiler {
  /**
   * Compiles one contract against one record set. Validation happened when the inputs were parsed.
   * An error means the inputs are unusable; a fail-closed outcome means they were read and refused.
   * Compiles run one at a time, in the order they were asked for: a later one is never overtaken.
   */
  compile(request: CompileRequest): Promise<Result<CompileOutcome, CompileError>>;
  /** What the memo reused and computed in the last compilation, per table. */
  memoStats(): ReadonlyMap<string, TableStats>;
  /** The SHA-256 it hashes with, which whatever checks its receipts (the fire drill) hashes with too. */
  readonly sha256: Sha256;
}

/**
 * The naive and post-filter packets for a compiled request: relevance-only top-k with whole-corpus
 * statistics, before and after the legality filter. They are what the compiler is compared with, never
 * an input to it, and need a whole-corpus text index, which only a store that builds one offers.
 */
export interface BaselineSource {
  baselines(request: CompileRequest, outcome: CompileOutcome): Baselines;
}

/**
 * The one pipeline, over any store. It reads top to bottom through the passes; every pass is a plain function
 * of its inputs. The compiler calls them through its queries (src/core/queries.ts), which apply the one memo,
 * keyed by content, so per-record work is reused when its inputs are unchanged; the store owns the records and
 * their indexes. Every output is the one a fresh compiler would produce (src/core/incremental.test.ts).
 * `keys` is for tests only: one that leaves an input out of a key must make that test fail.
 */
export function createCompiler(sha256: Sha256, store: Store, keys?: KeyRules): Compiler {
  const queries = createQueries(sha256, keys);

  const compileOnce = async (given: CompileRequest): Promise<Result<CompileOutcome, CompileError>> => {
    // A store that answers plans keeps refused records to itself; a full receipt needs their rows, so it reads them.
    if (store.answers !== undefined && given.attestation === 'candidates')
      return compileAnswered(sha256, store, store.answers, given, queries);
    const settled = settleDuplicates(given.contract, given.recordSet);
    if (!settled.ok) return settled;
    const records = await store.recordsToCompile(settled.value);
    if (!records.ok) return records;
    const request = records.value === given.recordSet ? given : { ...given, recordSet: records.value };
    const { contract, recordSet } = request;

    // 2 resolve, 3 type-check, then the admission plan and its digest.
    const prepared = prepareCompile(sha256, request, queries);
    if (!prepared.ok) return prepared;
    // 4 admit: the store admits the plan; the reference evaluator must agree record by record.
    const candidates = await candidatesFrom(store, prepared.value.plan, prepared.value.digest);
    if (!candidates.ok) return candidates;
    const admission = queries.admit(prepared.value.resolution, candidates.value.candidates);
    if (!admission.ok) return admission;

    // 5 rank, inside the admitted set only.
    let ranking: Ranking;
    if (contract.ranking === 'bm25') {
      const admittedIds = admission.value.admittedIds;
      await store.holdAdmitted(admittedIds, recordSet);
      ranking = await queries.rankStored(contract.query, admission.value, () =>
        store.rankAdmitted(contract.query, admittedIds),
      );
    } else {
      // Declared scores are the admitted records' own.
      ranking = queries.rankDeclared(admission.value);
    }
    // 6 plan the packet, 7 attest.
    return ok(finishCompile(request, prepared.value, admission.value, candidates.value.admission, ranking, queries));
  };

  // Each compile waits for the one before it: one memo revision at a time, and answers in the order asked.
  let last: Promise<unknown> = Promise.resolve();
  return {
    compile(request) {
      const compiled = last.then(() => queries.revision(() => compileOnce(request)));
      last = compiled.catch(() => undefined);
      return compiled;
    },
    memoStats: () => queries.stats(),
    sha256,
  };
}
