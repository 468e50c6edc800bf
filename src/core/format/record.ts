import { z } from 'zod';
import { idSchema, nameSchema } from './identifier';
import { parseInstant } from './time';

const nameListSchema = z.array(nameSchema);

export const instantSchema = z
  .string()
  .refine(
    (value) => parseInstant(value) !== null,
    'a real ISO 8601 date (2026-08-30) or date-time with offset (2026-08-30T09:00:00Z)',
  );

export const LIFECYCLE_STATES = ['draft', 'active', 'rejected', 'retired', 'generated'] as const;
export const REVIEW_STATES = ['unreviewed', 'in_review', 'reviewed', 'approved', 'rejected'] as const;

export const provenanceSchema = z.strictObject({
  /** Where the record came from: a system, a repository path, a message id. */
  origin: z.string().min(1),
  /** `sha256:<64 hex>` of the record's `text`, checked at load. */
  contentHash: z.string().regex(/^sha256:[0-9a-f]{64}$/, 'sha256:<64 lowercase hex digits>'),
});

export const accessSchema = z.strictObject({
  /** Every principal in the contract's chain must hold one of these roles. */
  roles: nameListSchema.min(1),
  /** The contract's purpose must be one of these. */
  purposes: nameListSchema.min(1),
  /** Labels a contract may deny (investigation, whistleblowing, …); deny dominates every permit. */
  labels: nameListSchema.default([]),
});

export const evidenceSchema = z.strictObject({
  /** The evidence class (facility_record, approved_waiver, email, …) checked against each proposition. */
  class: nameSchema,
  supports: nameListSchema.default([]),
  contradicts: nameListSchema.default([]),
});

export const recordSchema = z.strictObject({
  id: idSchema,
  title: z.string().min(1),
  text: z.string(),
  /** Declared token cost; the budget is accounted in these, not by a tokenizer. */
  tokens: z.int().min(0).max(10_000_000),
  /** Project or legal entity the record belongs to. */
  project: nameSchema,
  scope: nameSchema,
  /**
   * The identity the record is about: a canonical id or an alias from the contract's identity directory.
   * Required, with no default: `null` (about no single identity) passes the identity gate for every
   * subject, so a forgotten field must be refused rather than read as `null`.
   */
  subject: nameSchema.nullable(),
  /** When the record came to exist or be known; after the as-of time it is a future reveal. */
  knownAt: instantSchema,
  validFrom: instantSchema,
  validTo: instantSchema.nullable().default(null),
  lifecycle: z.enum(LIFECYCLE_STATES),
  /** Ids of records this one replaces once it is active and in force. */
  supersedes: z.array(idSchema).default([]),
  sourceClass: nameSchema,
  authorityClass: nameSchema,
  reviewState: z.enum(REVIEW_STATES),
  provenance: provenanceSchema.nullable().default(null),
  sensitivity: nameSchema,
  access: accessSchema,
  evidence: evidenceSchema.nullable().default(null),
  /** Declared relevance, used only by scenarios that rank by declared scores instead of bm25. */
  relevance: z.number().finite().nullable().default(null),
});

export type RecordInput = z.input<typeof recordSchema>;
export type SourceRecord = z.output<typeof recordSchema>;
