import { z } from 'zod';
import { ATTESTATIONS, GATE_ORDER } from '../result';
import { isFactId, isReasonCode, type FactId, type ReasonCode } from '../reasons';
import { contractSchema } from './contract';

const hex64 = z.string().regex(/^[0-9a-f]{64}$/, '64 lowercase hex digits');
const reasonCode = z
  .string()
  .refine((value): value is ReasonCode => isReasonCode(value), 'a reason code from the catalogue');
const factId = z.string().refine((value): value is FactId => isFactId(value), 'a fact id from the catalogue');
const factArgs = z.record(z.string(), z.union([z.string(), z.number(), z.array(z.string())]));

const rankingSchema = z.discriminatedUnion('mode', [
  z.strictObject({
    mode: z.literal('bm25'),
    statistics: z.literal('admitted'),
    documents: z.int().min(0),
    tokens: z.int().min(0),
    terms: z.array(z.strictObject({ term: z.string(), documents: z.int().min(0) })),
    weights: z.strictObject({ title: z.literal(2), text: z.literal(1) }),
  }),
  z.strictObject({ mode: z.literal('declared') }),
]);

/** A saved receipt, as downloaded from the app or written by the CLI. Strict, like every input. */
export const receiptSchema = z.strictObject({
  receiptId: hex64,
  schemaVersion: z.string(),
  engineVersion: z.string(),
  attestation: z.enum(ATTESTATIONS),
  outcome: z.enum(['packet', 'fail_closed']),
  contract: contractSchema,
  contractFingerprint: hex64,
  recordSetDigest: hex64,
  packetFingerprint: hex64.nullable(),
  controls: z.array(z.string()),
  lateChanges: z.array(z.string()),
  ranking: rankingSchema,
  ranked: z.array(z.strictObject({ id: z.string(), rank: z.int().min(1), score: z.number() })),
  executedBy: z.strictObject({ adapter: z.string(), adapterVersion: z.string(), planDigest: z.string() }),
  tokensUsed: z.int(),
  selected: z.array(z.string()),
  evidence: z.array(
    z.strictObject({
      proposition: z.string(),
      state: z.enum(['supported', 'contradicted', 'unknown']),
      records: z.array(z.string()),
    }),
  ),
  decisionBlockedBy: z.array(z.string()),
  failure: z
    .strictObject({ pass: z.string(), code: reasonCode, recordId: z.string().nullable(), fact: factId, args: factArgs })
    .nullable(),
  trace: z.array(
    z.strictObject({
      id: z.string(),
      fingerprint: hex64,
      decision: z.enum(['selected', 'excluded']),
      code: reasonCode,
      fact: factId,
      args: factArgs,
      gates: z.array(z.enum(GATE_ORDER)),
      tokens: z.int(),
      required: z.boolean(),
    }),
  ),
  omitted: z
    .strictObject({ admittedDigest: hex64, rows: z.record(reasonCode, z.int().min(1)), withheld: z.int().min(0) })
    .nullable(),
});
