import { contractSchema, type Contract, type ContractInput } from './contract';
import { recordSchema, type RecordInput, type SourceRecord } from './record';
import { contentHashOf, type Sha256 } from '../fingerprints';

/** The as-of instant of the sample contract; sample records are in force and known by then. */
export const SAMPLE_AS_OF = '2026-08-30T12:00:00Z';

export type RecordOverrides = Partial<Omit<RecordInput, 'access'>> & {
  readonly access?: Partial<RecordInput['access']>;
};

/**
 * A valid record that passes every gate of `sampleContract()`: what the tests and the conformance suite
 * vary one field at a time. The content hash is computed from the final text unless the overrides set
 * provenance themselves.
 */
export function sampleRecord(sha256: Sha256, overrides: RecordOverrides = {}): SourceRecord {
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
    provenance: { origin: `crm/${id}`, contentHash: contentHashOf(sha256, text) },
    sensitivity: 'internal',
    ...overrides,
    access: { roles: ['agent'], purposes: ['support'], labels: [], ...overrides.access },
  };
  return recordSchema.parse(input);
}

/** A valid contract under which `sampleRecord()` passes every gate. */
export function sampleContract(overrides: Partial<ContractInput> = {}): Contract {
  const input: ContractInput = {
    task: 'Answer the refund question',
    query: 'refund policy',
    asOf: SAMPLE_AS_OF,
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
