import { z } from 'zod';
import { idSchema, nameSchema } from './identifier';
import { instantSchema, LIFECYCLE_STATES } from './record';

export const PRINCIPAL_KINDS = ['human', 'agent', 'service'] as const;

export const principalSchema = z.strictObject({
  id: nameSchema,
  kind: z.enum(PRINCIPAL_KINDS),
  roles: z.array(nameSchema).min(1),
});

export const identitySchema = z.strictObject({
  id: nameSchema,
  aliases: z.array(nameSchema).default([]),
});

export const propositionSchema = z.strictObject({
  id: nameSchema,
  description: z.string().default(''),
  /** Evidence classes that may establish this proposition; nothing else counts, however similar. */
  acceptedClasses: z.array(nameSchema).min(1),
  /** A gap in a blocking proposition blocks the decision (the packet says so); it never blocks compilation. */
  blocking: z.boolean().default(true),
});

export const RANKING_MODES = ['bm25', 'declared'] as const;

export const contractSchema = z.strictObject({
  task: z.string().min(1),
  query: z.string(),
  asOf: instantSchema,
  /** Delegation order: the human first, then each agent or service acting for them. */
  principals: z.array(principalSchema).min(1),
  purpose: nameSchema,
  project: nameSchema,
  scopes: z.array(nameSchema).min(1),
  /** The identity this task is about (canonical id or alias); null when the task has no single subject. */
  subject: nameSchema.nullable().default(null),
  identities: z.array(identitySchema).default([]),
  allowedSourceClasses: z.array(nameSchema).min(1),
  allowedAuthorityClasses: z.array(nameSchema).min(1),
  acceptedReviewStates: z.array(nameSchema).min(1),
  forbiddenLifecycle: z.array(z.enum(LIFECYCLE_STATES)).default([]),
  forbiddenSensitivity: z.array(nameSchema).default([]),
  denyLabels: z.array(nameSchema).default([]),
  requiredRecords: z.array(idSchema).default([]),
  requiredPropositions: z.array(propositionSchema).default([]),
  /** Admit only records that are accepted evidence for some required proposition (seed 000's strict mode). */
  typedEvidenceOnly: z.boolean().default(false),
  tokenBudget: z.int().min(0).max(100_000_000),
  naiveTopK: z.int().min(1).max(10_000),
  ranking: z.enum(RANKING_MODES).default('bm25'),
});

export type ContractInput = z.input<typeof contractSchema>;
export type Contract = z.output<typeof contractSchema>;
export type RankingMode = (typeof RANKING_MODES)[number];
