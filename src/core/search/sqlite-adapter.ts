import { ok } from '../errors';
import { lowerAdmission } from '../passes/lower-admission';
import { PLAN_OPERATORS } from '../plan/admission-plan';
import { ALL_CAPABILITIES, type AdmissionAdapter } from '../plan/adapter';
import type { SqlDriver } from './driver';
import type { RecordIndex } from './record-index';

/** Changes whenever the SQLite lowering changes what it sends: named with the adapter wherever it is reported. */
export const SQLITE_ADAPTER_VERSION = '2';

/**
 * The built-in adapter: the plan lowered to one parameterised statement over the record index, in the
 * worker's or the CLI's SQLite. It lives in the core because it is pure: the SQLite build is injected.
 * Columns compare with SQLite's BINARY collation and are stored as given, so it keeps every capability.
 */
export function createSqliteAdapter(index: RecordIndex, driver: SqlDriver): AdmissionAdapter {
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
    admit(plan, digest) {
      const lowered = lowerAdmission(plan, digest, driver.maxParameters);
      if (!lowered.ok) return lowered;
      return ok({ status: 'complete', candidates: index.admit(lowered.value), predicateDigest: lowered.value.digest });
    },
  };
}
