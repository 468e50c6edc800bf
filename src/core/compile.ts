import type { Contract } from './format/contract';
import { err, ok, type CompileError, type Result } from './errors';
import { admit } from './passes/admit';
import { attest, renderPacket } from './passes/attest';
import { plan } from './passes/plan';
import { resolve } from './passes/resolve';
import { typeCheck } from './passes/type-check';
import type { RecordSet } from './passes/validate';
import type { CompileOutcome, Packet } from './result';
import type { SqlDriver } from './search/driver';
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

export function createCompiler(driver: SqlDriver): Compiler {
  const recordIndex = createRecordIndex(driver);
  return {
    index: (recordSet, onProgress) => recordIndex.sync(recordSet.records, onProgress),
    compile(request) {
      const { contract, recordSet } = request;
      recordIndex.sync(recordSet.records);

      const resolution = resolve(contract, recordSet);
      if (!resolution.ok) return resolution;

      const typed = typeCheck(resolution.value);
      const missingRequired = !typed.ok && typed.error.code === 'REQUIRED_NOT_FOUND' ? typed.error : null;
      if (!typed.ok && !missingRequired) return typed;

      const admission = admit(resolution.value, driver);
      if (!admission.ok) return admission;

      const planned = plan(resolution.value, admission.value, driver, missingRequired);
      if (planned.failure?.code === 'ADMISSION_DIVERGENCE') return err(planned.failure);

      const selected = planned.trace.filter((row) => row.decision === 'selected').length;
      const counts = { candidates: planned.trace.length, admitted: admission.value.admitted.size, selected, excluded: planned.trace.length - selected };
      const attested = (packet: Packet | null) => ({
        trace: planned.trace,
        baselines: planned.baselines,
        counts,
        receipt: attest({ contract, records: recordSet.records, plan: planned, packet, controls: request.controls ?? [], lateChanges: request.lateChanges ?? [] }),
      });
      if (planned.failure) return ok({ status: 'fail_closed', failure: planned.failure, ...attested(null) });
      const packet = renderPacket(contract, planned);
      return ok({ status: 'packet', packet, evidence: planned.evidence, decisionBlockedBy: planned.decisionBlockedBy, ...attested(packet) });
    },
  };
}
