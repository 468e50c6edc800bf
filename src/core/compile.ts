import { compileAnswered } from './answered-admission';
import { ok, type CompileError, type Result } from './errors';
import { createMemo, type TableStats } from './memo';
import { admit } from './passes/admit';
import { finishCompile, prepareCompile, type CompileRequest } from './compile-stages';
import { settleDuplicates } from './passes/settle-duplicates';
import { candidatesFrom } from './plan/adapter';
import type { Baselines, CompileOutcome } from './result';
import { rankDeclared, type Ranking } from './ranking';
import type { Store } from './store';
import type { GateVerdict } from './passes/gates';

export type { CompileRequest };

export interface Compiler {
  /**
   * Compiles one contract against one record set. Validation happened when the inputs were parsed.
   * An error means the inputs are unusable; a fail-closed outcome means they were read and refused.
   * Compiles run one at a time, in the order they were asked for: a later one is never overtaken.
   */
  compile(request: CompileRequest): Promise<Result<CompileOutcome, CompileError>>;
  /** What the memo reused and computed in the last compilation, per table. */
  memoStats(): ReadonlyMap<string, TableStats>;
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
 * of its inputs. The compiler owns the one memo layer (src/core/memo.ts), through which the passes'
 * per-record work is reused when its inputs are unchanged; the store owns the records and their indexes.
 * Every output is the one a fresh compiler would produce (src/core/incremental.test.ts).
 */
export function createCompiler(store: Store): Compiler {
  const memo = createMemo();

  const compileOnce = async (given: CompileRequest): Promise<Result<CompileOutcome, CompileError>> => {
    // A store that answers plans keeps refused records to itself; a full receipt needs their rows, so it reads them.
    if (store.answers !== undefined && given.attestation === 'candidates')
      return compileAnswered(store, store.answers, given);
    const settled = settleDuplicates(given.contract, given.recordSet);
    if (!settled.ok) return settled;
    const records = await store.recordsToCompile(settled.value);
    if (!records.ok) return records;
    const request = records.value === given.recordSet ? given : { ...given, recordSet: records.value };
    const { contract, recordSet } = request;

    const prepared = prepareCompile(request, memo);
    if (!prepared.ok) return prepared;
    const candidates = await candidatesFrom(store, prepared.value.plan, prepared.value.digest);
    if (!candidates.ok) return candidates;
    const admission = admit(prepared.value.resolution, candidates.value.candidates, memo);
    if (!admission.ok) return admission;

    let ranking: Ranking;
    if (contract.ranking === 'bm25') {
      const admittedIds = admission.value.admittedIds;
      const held = await store.holdAdmitted(admittedIds, recordSet);
      ranking = await memo.cell('rank:admitted', [contract.query, held], ([query]) =>
        store.rankAdmitted(query, admittedIds),
      );
    } else {
      // Declared scores are the admitted records' own: the same records, the same ranking object, so the plan's
      // admitted part is reused.
      const admitted = admission.value.admitted.map(
        (position) => (admission.value.verdicts[position] as GateVerdict).resolved.checked,
      );
      ranking = memo.cell('rank:declared', admitted, (checked) => rankDeclared(checked));
    }
    return ok(finishCompile(request, prepared.value, admission.value, candidates.value.admission, ranking, memo));
  };

  // Each compile waits for the one before it: one memo revision at a time, and answers in the order asked.
  let last: Promise<unknown> = Promise.resolve();
  return {
    compile(request) {
      const compiled = last.then(() => memo.revisionAsync(() => compileOnce(request)));
      last = compiled.catch(() => undefined);
      return compiled;
    },
    memoStats: () => memo.stats(),
  };
}
