import type { Sha256 } from '../../core/fingerprints';
import { walkBudget } from '../../core/budget';
import { compareStrings } from '../../core/canonical';
import { createCompiler, type BaselineSource, type Compiler, type KeyRules } from '../../core/compile';
import { ok } from '../../core/errors';
import type { RecordSet } from '../../core/phases/1-validate/validate';
import { ALL_CAPABILITIES } from '../../core/phases/4-admit/adapter';
import { PLAN_OPERATORS } from '../../core/phases/4-admit/admission-plan';
import type { BaselinePacket } from '../../core/result';
import type { Store } from '../../core/store';
import type { SqlDriver } from './driver';
import { rankCorpus } from './fts5-rank';
import { lowerAdmission } from './lower-admission';
import { createRecordIndex } from './record-index';
import type { RecordIndex, SliceProgress, SyncReport } from './record-index-api';

type Progress = (done: number, total: number) => void;

/** Changes whenever the SQLite lowering changes what it sends: named with the adapter wherever it is reported. */
export const SQLITE_ADAPTER_VERSION = '2';

/** The SQLite store, and the record index it keeps (the worker indexes ahead of compiling, a slice at a time). */
export interface SqliteStore extends Store {
  readonly index: RecordIndex;
}

/**
 * The built-in store: the records' rows and text indexes in the worker's or the CLI's SQLite (the build is
 * injected), the plan lowered to one parameterised statement over them, bm25 over the admitted set's own
 * text table. Columns compare with SQLite's BINARY collation and are stored as given, so it keeps every capability.
 * Every answer is computed in the call: a compile over it runs within one task.
 */
export function createSqliteStore(driver: SqlDriver, index: RecordIndex = createRecordIndex(driver)): SqliteStore {
  let version: string | null = null;
  return {
    name: 'sqlite',
    adapterVersion: SQLITE_ADAPTER_VERSION,
    get version() {
      version ??= `${SQLITE_ADAPTER_VERSION} (SQLite ${String(driver.all('SELECT sqlite_version()')[0]?.[0] ?? '?')})`;
      return version;
    },
    capabilities: new Set(ALL_CAPABILITIES),
    operators: new Set(PLAN_OPERATORS),
    index,
    async recordsToCompile(recordSet) {
      index.sync(recordSet);
      return ok(recordSet);
    },
    async admit(plan, digest) {
      const lowered = lowerAdmission(plan, digest, driver.maxParameters);
      if (!lowered.ok) return lowered;
      return ok({ status: 'complete', candidates: index.admit(lowered.value), predicateDigest: lowered.value.digest });
    },
    async holdAdmitted(_admitted, recordSet) {
      // admitted_text follows the rows the index's last admission wrote; its generation changes with its rows.
      index.syncAdmittedText(recordSet);
      return index.admittedTextGeneration;
    },
    rankAdmitted: async (query) => index.rankAdmitted(query),
  };
}

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
