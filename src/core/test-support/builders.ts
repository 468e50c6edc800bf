import { contractSchema, type Contract, type ContractInput } from '../format/contract';
import { recordSchema, type RecordInput, type SourceRecord } from '../format/record';
import type { CompileError, Result } from '../errors';
import { contentHashOf } from '../hash';
import { lowerAdmission, type LoweredAdmission } from '../../adapters/sqlite/lower-admission';
import { resolve, type Resolution } from '../phases/2-resolve/resolve';
import { buildAdmissionPlan, planDigest } from '../phases/4-admit/admission-plan';
import { createRecordSet, unreadableRecordsError, type RecordSet } from '../phases/1-validate/validate';

export const AS_OF = '2026-08-30T12:00:00Z';

export type RecordOverrides = Partial<Omit<RecordInput, 'access'>> & {
  readonly access?: Partial<RecordInput['access']>;
};

/**
 * A valid record that passes every gate of `buildContract()`; the content hash is computed from the
 * final text unless the overrides set provenance themselves.
 */
export function buildRecord(overrides: RecordOverrides = {}): SourceRecord {
  const id = overrides.id ?? 'rec-1';
  const text = overrides.text ?? `Body of ${id} about refund policy.`;
  const input: RecordInput = {
    id,
    title: `Title of ${id}`,
    text,
    tokens: 10,
    project: 'atlas',
    scope: 'support',
    subject: null,
    knownAt: '2026-08-01',
    validFrom: '2026-08-01',
    lifecycle: 'active',
    sourceClass: 'ticket',
    authorityClass: 'policy',
    reviewState: 'approved',
    provenance: { origin: `crm/${id}`, contentHash: contentHashOf(text) },
    sensitivity: 'internal',
    ...overrides,
    access: { roles: ['agent'], purposes: ['support'], labels: [], ...overrides.access },
  };
  return recordSchema.parse(input);
}

export type ContractOverrides = Partial<ContractInput>;

export function buildContract(overrides: ContractOverrides = {}): Contract {
  const input: ContractInput = {
    task: 'Answer the refund question',
    query: 'refund policy',
    asOf: AS_OF,
    principals: [{ id: 'dana', kind: 'human', roles: ['agent'] }],
    purpose: 'support',
    project: 'atlas',
    scopes: ['support'],
    allowedSourceClasses: ['ticket'],
    allowedAuthorityClasses: ['policy'],
    acceptedReviewStates: ['approved'],
    tokenBudget: 1_000,
    naiveTopK: 10,
    ...overrides,
  };
  return contractSchema.parse(input);
}

export function buildRecordSet(records: readonly SourceRecord[]): RecordSet {
  return createRecordSet(records);
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
  return lowerAdmission(plan, planDigest(plan), maxParameters);
}
