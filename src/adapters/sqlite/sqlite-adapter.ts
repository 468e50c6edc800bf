import { ok } from '../../core/errors';
import { PLAN_OPERATORS } from '../../core/phases/4-admit/admission-plan';
import { ALL_CAPABILITIES } from '../../core/phases/4-admit/adapter';
import type { Store } from '../../core/store';
import { lowerAdmission } from './lower-admission';
import type { SqlDriver } from './driver';
import { createRecordIndex } from './record-index';
import type { RecordIndex } from './record-index-api';

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
