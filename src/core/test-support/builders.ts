import { sha256 } from './sha256';
import type { Contract, ContractInput } from '../format/contract';
import type { SourceRecord } from '../format/record';
import { SAMPLE_AS_OF, sampleContract, sampleRecord, type RecordOverrides } from '../format/sample-inputs';
import type { CompileError, Result } from '../errors';
import { lowerAdmission } from '../../adapters/sqlite/compiler';
import type { LoweredAdmission } from '../../adapters/sqlite/record-index-api';
import { resolve, type Resolution } from '../phases/2-resolve/resolve';
import { buildAdmissionPlan, planDigest } from '../phases/4-admit/admission-plan';
import { createRecordSet, unreadableRecordsError, type RecordSet } from '../phases/1-validate/validate';

export const AS_OF = SAMPLE_AS_OF;
export type { RecordOverrides };
export type ContractOverrides = Partial<ContractInput>;

/** A valid record that passes every gate of `buildContract()`. */
export const buildRecord = (overrides: RecordOverrides = {}) => sampleRecord(sha256, overrides);
export const buildContract = sampleContract;

export function buildRecordSet(records: readonly SourceRecord[]): RecordSet {
  return createRecordSet(sha256, records);
}

/** Resolves and unwraps; a test that needs the resolve error calls `resolve` itself. */
export function resolveOrThrow(contract: Contract, records: readonly SourceRecord[]): Resolution {
  return valueOf(resolve(contract, buildRecordSet(records)));
}

/** The error of a result that a test expects to fail; throws with the value otherwise. */
export function errorOf<T>(result: Result<T, CompileError>): CompileError {
  if (result.ok) throw new Error('expected an error, got a value');
  return result.error;
}

/** A records file's unreadable lines and duplicate ids as the strict reading refuses them; throws when it has none. */
export function unreadableOf(result: Result<RecordSet, CompileError>): CompileError {
  const error = unreadableRecordsError(valueOf(result));
  if (error === null) throw new Error('expected unreadable records, got none');
  return error;
}

export function valueOf<T>(result: Result<T, CompileError>): T {
  if (!result.ok) throw new Error(`expected a value, got ${result.error.code}: ${result.error.message}`);
  return result.value;
}

/** The SQLite lowering of a resolution's plan, as the SQLite adapter makes it. */
export function lowerResolved(resolution: Resolution, maxParameters: number): Result<LoweredAdmission, CompileError> {
  const plan = buildAdmissionPlan(resolution.contract, resolution.brokenLinks);
  return lowerAdmission(plan, planDigest(sha256, plan), maxParameters);
}
