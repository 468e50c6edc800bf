import type { Sha256 } from '../../core/hash';
import { walkBudget } from '../../core/budget';
import { compareStrings } from '../../core/canonical';
import { createCompiler, type BaselineSource, type Compiler, type KeyRules } from '../../core/compile';
import type { RecordSet } from '../../core/phases/1-validate/validate';
import type { BaselinePacket } from '../../core/result';
import type { SqlDriver } from './driver';
import { rankCorpus } from './fts5-rank';
import type { SliceProgress, SyncReport } from './record-index-api';
import { createSqliteStore } from './sqlite-adapter';

type Progress = (done: number, total: number) => void;

/**
 * The core's compiler over a SQLite store, with what only SQLite offers: indexing ahead of a compile, and the
 * whole-corpus baselines.
 */
export interface SqliteCompiler extends Compiler, BaselineSource {
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
}

/**
 * One compiler per database: the core's one pipeline over this database's store. Baselines read `corpus_text`,
 * which a compile never touches; the last whole-corpus ranking is kept while what it read is unchanged (a
 * declared ranking reads the records' own scores, so it is ranked again every time). `keys` is for tests only
 * (`createCompiler`).
 */
export function createSqliteCompiler(sha256: Sha256, driver: SqlDriver, keys?: KeyRules): SqliteCompiler {
  const store = createSqliteStore(driver);
  const { index } = store;
  const compiler = createCompiler(sha256, store, keys);
  let lastCorpusRank: { readonly key: string; readonly ids: readonly string[] } | null = null;
  return {
    compile: (request) => compiler.compile(request),
    memoStats: () => compiler.memoStats(),
    sha256,
    index: (recordSet, onProgress) => index.sync(recordSet, onProgress),
    indexCorpus(recordSet, onProgress) {
      index.sync(recordSet);
      index.syncCorpusText(recordSet, onProgress);
    },
    indexSteps: (recordSet, slice) => index.syncSteps(recordSet, slice),
    indexCorpusSteps: (slice) => index.corpusTextSteps(slice),
    baselines(request, outcome) {
      const { contract, recordSet } = request;
      index.sync(recordSet);
      index.syncCorpusText(recordSet);
      const key = JSON.stringify([contract.query, contract.ranking, contract.naiveTopK, index.corpusTextGeneration]);
      const top =
        lastCorpusRank !== null && lastCorpusRank.key === key && contract.ranking !== 'declared'
          ? lastCorpusRank.ids
          : rankCorpus(driver, contract.query, contract.ranking, contract.naiveTopK).map((row) => row.id);
      lastCorpusRank = { key, ids: top };
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
    },
  };
}
