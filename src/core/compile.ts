import { ok, type CompileError, type Result } from './errors';
import { createMemo, type TableStats } from './memo';
import { admit } from './passes/admit';
import { walkBudget } from './passes/plan';
import { finishCompile, prepareCompile, type CompileRequest } from './compile-stages';
import { settleDuplicates } from './passes/settle-duplicates';
import { candidatesThrough } from './plan/adapter';
import { createSqliteAdapter } from './search/sqlite-adapter';
import type { RecordSet } from './passes/validate';
import type { BaselinePacket, Baselines, CompileOutcome } from './result';
import type { SqlDriver } from './search/driver';
import { rankCorpus, rankDeclared, type Ranking } from './search/rank';
import { createRecordIndex, type SliceProgress, type SyncReport } from './search/record-index';
import { compareStrings } from './canonical';
import type { GateVerdict } from './passes/gates';

export type { CompileRequest };

type Progress = (done: number, total: number) => void;

export interface Compiler {
  /**
   * Compiles one contract against one record set. Validation happened when the inputs were parsed.
   * An error means the inputs are unusable; a fail-closed outcome means they were read and refused.
   * Needs only the records' rows and the admitted set's text: never the whole-corpus text index.
   */
  compile(request: CompileRequest): Result<CompileOutcome, CompileError>;
  /** Writes the records' rows (what admission reads) ahead of compiling, with progress; compile does it too. */
  index(recordSet: RecordSet, onProgress?: Progress): SyncReport;
  /** Indexes every record's text for the baselines, with progress; `baselines` does it too when needed. */
  indexCorpus(recordSet: RecordSet, onProgress?: Progress): void;
  /** `index` a slice of records per step, so the caller can yield between steps and stop (a cancelled load). */
  indexSteps(recordSet: RecordSet, slice: number): Generator<SliceProgress, SyncReport>;
  /**
   * `indexCorpus` a slice per step for the records last indexed or compiled, so the whole-corpus index can
   * be built in the background between calls; true once it is complete, false if a sliced `index` interrupted it.
   */
  indexCorpusSteps(slice: number): Generator<SliceProgress, boolean>;
  /**
   * The naive and post-filter packets for a compiled request: relevance-only top-k with whole-corpus
   * statistics, before and after the legality filter. They are what the compiler is compared with,
   * never an input to it.
   */
  baselines(request: CompileRequest, outcome: CompileOutcome): Baselines;
  /** What the memo reused and computed in the last compilation, per table. */
  memoStats(): ReadonlyMap<string, TableStats>;
}

/**
 * One compiler per database. It reads top to bottom through the passes; every pass is a plain function
 * of its inputs. The compiler owns the one memo layer (src/core/memo.ts), through which the passes'
 * per-record work is reused when its inputs are unchanged, and the record index (the SQL side).
 * Every output is the one a fresh compiler would produce (src/core/incremental.test.ts).
 */
export function createCompiler(driver: SqlDriver): Compiler {
  const index = createRecordIndex(driver);
  const compileMemo = createMemo();
  const baselineMemo = createMemo();

  const adapter = createSqliteAdapter(index, driver);

  const compileOnce = (given: CompileRequest): Result<CompileOutcome, CompileError> => {
    const settled = settleDuplicates(given.contract, given.recordSet);
    if (!settled.ok) return settled;
    const request = settled.value === given.recordSet ? given : { ...given, recordSet: settled.value };
    const { contract, recordSet } = request;
    const memo = compileMemo;
    index.sync(recordSet);

    const prepared = prepareCompile(request, memo);
    if (!prepared.ok) return prepared;
    const candidates = candidatesThrough(adapter, prepared.value.plan, prepared.value.digest);
    if (!candidates.ok) return candidates;
    const admission = admit(prepared.value.resolution, candidates.value.candidates, memo);
    if (!admission.ok) return admission;

    let ranking: Ranking;
    if (contract.ranking === 'bm25') {
      index.syncAdmittedText(recordSet);
      ranking = memo.cell('rank:admitted', [contract.query, index.admittedTextGeneration], ([query]) => index.rankAdmitted(query));
    } else {
      // Declared scores are the admitted records' own: the same records, the same ranking object, so the plan's admitted part is reused.
      const admitted = admission.value.admitted.map((position) => (admission.value.verdicts[position] as GateVerdict).resolved.checked);
      ranking = memo.cell('rank:declared', admitted, (records) => rankDeclared(records));
    }
    return ok(finishCompile(request, prepared.value, admission.value, candidates.value.admission, ranking, memo));
  };

  return {
    index: (recordSet, onProgress) => index.sync(recordSet, onProgress),
    indexCorpus(recordSet, onProgress) {
      index.sync(recordSet);
      index.syncCorpusText(recordSet, onProgress);
    },
    indexSteps: (recordSet, slice) => index.syncSteps(recordSet, slice),
    indexCorpusSteps: (slice) => index.corpusTextSteps(slice),
    compile: (request) => compileMemo.revision(() => compileOnce(request)),
    baselines(request, outcome) {
      const { contract, recordSet } = request;
      index.sync(recordSet);
      index.syncCorpusText(recordSet);
      return baselineMemo.revision(() => {
        const top = baselineMemo.cell(
          'rank:corpus',
          [contract.query, contract.ranking, contract.naiveTopK, index.corpusTextGeneration, contract.ranking === 'declared' ? recordSet : null],
          ([query, ranking, naiveTopK]) => rankCorpus(driver, query, ranking, naiveTopK).map((row) => row.id),
        );
        const tokensOf = (id: string) => recordSet.byId.get(id)?.record.tokens ?? 0;
        const required = [...new Set(contract.requiredRecords)].sort(compareStrings);
        const describe = (kind: BaselinePacket['kind'], ids: readonly string[]): BaselinePacket => {
          const { selected, used } = walkBudget(ids, tokensOf, contract.tokenBudget);
          const chosen = new Set(selected);
          return {
            kind,
            ranked: ids.length,
            selected,
            tokensUsed: used,
            tokenBudget: contract.tokenBudget,
            illegal: selected.filter((id) => !outcome.admitted.has(id)),
            requiredMissed: required.filter((id) => !chosen.has(id)),
          };
        };
        return {
          naive: describe('naive', top),
          postFilter: describe(
            'post-filter',
            top.filter((id) => outcome.admitted.has(id)),
          ),
        };
      });
    },
    memoStats: () => compileMemo.stats(),
  };
}
