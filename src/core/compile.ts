import type { Contract } from './format/contract';
import { ok, type CompileError, type Result } from './errors';
import { admit, createSqlAdmission, type AdmissionResult } from './passes/admit';
import { attest, createAttestMemory, renderPacket } from './passes/attest';
import { plan, type Plan } from './passes/plan';
import { resolve, type Resolution } from './passes/resolve';
import { typeCheck } from './passes/type-check';
import type { RecordSet } from './passes/validate';
import type { CompileOutcome, Packet } from './result';
import type { SqlDriver } from './search/driver';
import { rankRecords, type RankedRow } from './search/rank';
import { createRecordIndex, type SyncReport } from './search/record-index';

export interface CompileRequest {
  readonly contract: Contract;
  readonly recordSet: RecordSet;
  /** Ids of the scenario controls already applied to the contract and records (recorded in the receipt). */
  readonly controls?: readonly string[];
  /** Ids of declared late changes already applied (recorded in the receipt, checked by the fire drill). */
  readonly lateChanges?: readonly string[];
}

export interface Compiler {
  /**
   * Compiles one contract against one record set. Validation happened when the inputs were parsed;
   * the index is brought to the record set first, re-indexing only records whose objects changed.
   * An error means the inputs are unusable; a fail-closed outcome means they were read and refused.
   */
  compile(request: CompileRequest): Result<CompileOutcome, CompileError>;
  /** Indexes a record set ahead of compiling (the app does this while showing progress). */
  index(recordSet: RecordSet, onProgress?: (done: number, total: number) => void): SyncReport;
}

/**
 * One compiler per database. Between compilations it keeps what the last one derived (resolved
 * records, verdicts, the SQL-admitted ids, the full ranking, digest chunks) and reuses each piece only
 * where its inputs are unchanged, so a toggle or a repeated compile costs what changed, not the corpus.
 * Every output is the one a fresh compiler would produce (src/core/incremental.test.ts).
 */
export function createCompiler(driver: SqlDriver): Compiler {
  const recordIndex = createRecordIndex(driver);
  const sql = createSqlAdmission(driver);
  const memory = createAttestMemory();
  let lastResolution: Resolution | undefined;
  let lastRanking: { key: string; rows: readonly RankedRow[] } | null = null;
  let lastPlan: { resolution: Resolution; admission: AdmissionResult; plan: Plan } | undefined;

  const sync = (recordSet: RecordSet, onProgress?: (done: number, total: number) => void): SyncReport => {
    const report = recordIndex.sync(recordSet.records, onProgress);
    sql.touch(report.touched);
    return report;
  };
  const fullRanking = (contract: Contract): readonly RankedRow[] => {
    const key = `${recordIndex.rankingGeneration}\u0000${contract.ranking}\u0000${contract.query}`;
    if (lastRanking?.key !== key) lastRanking = { key, rows: rankRecords(driver, contract.query, contract.ranking, null) };
    return lastRanking.rows;
  };

  return {
    index: sync,
    compile(request) {
      const { contract, recordSet } = request;
      sync(recordSet);

      const resolution = resolve(contract, recordSet, lastResolution);
      if (!resolution.ok) return resolution;
      lastResolution = resolution.value;

      const typed = typeCheck(resolution.value);
      const missingRequired = !typed.ok && typed.error.code === 'REQUIRED_NOT_FOUND' ? typed.error : null;
      if (!typed.ok && !missingRequired) return typed;

      const admission = admit(resolution.value, driver, { sql, previous: lastPlan ?? null });
      if (!admission.ok) return admission;

      const planned = plan(resolution.value, admission.value, fullRanking(contract), missingRequired, lastPlan);
      lastPlan = { resolution: resolution.value, admission: admission.value, plan: planned };
      const selected = planned.selected.length;
      const counts = { candidates: planned.trace.length, admitted: admission.value.admitted.size, selected, excluded: planned.trace.length - selected };
      const records = resolution.value.sourceRecords;
      const attested = (packet: Packet | null) => ({
        trace: planned.trace,
        baselines: planned.baselines,
        counts,
        receipt: attest({ contract, records, memory, plan: planned, packet, controls: request.controls ?? [], lateChanges: request.lateChanges ?? [] }),
      });
      if (planned.failure) return ok({ status: 'fail_closed', failure: planned.failure, ...attested(null) });
      const packet = renderPacket(contract, planned);
      return ok({ status: 'packet', packet, evidence: planned.evidence, decisionBlockedBy: planned.decisionBlockedBy, ...attested(packet) });
    },
  };
}
