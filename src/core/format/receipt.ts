import { z } from 'zod';
import { isReasonCode } from '../reasons';
import { RANKING_MODES } from './contract';

const hex64 = z.string().regex(/^[0-9a-f]{64}$/, '64 lowercase hex digits');
const reasonCode = z.string().refine(isReasonCode, 'a reason code from the catalogue');

/** A saved receipt, as downloaded from the app or written by the CLI. Strict, like every input. */
export const receiptSchema = z.strictObject({
  receiptId: hex64,
  schemaVersion: z.string(),
  engineVersion: z.string(),
  outcome: z.enum(['packet', 'fail_closed']),
  task: z.string(),
  asOf: z.string(),
  ranking: z.enum(RANKING_MODES),
  contractFingerprint: hex64,
  recordSetDigest: hex64,
  packetFingerprint: hex64.nullable(),
  controls: z.array(z.string()),
  lateChanges: z.array(z.string()),
  tokenBudget: z.int(),
  tokensUsed: z.int(),
  selected: z.array(z.string()),
  evidence: z.array(z.strictObject({ proposition: z.string(), state: z.enum(['supported', 'contradicted', 'unknown']), records: z.array(z.string()) })),
  decisionBlockedBy: z.array(z.string()),
  failure: z.strictObject({ pass: z.string(), code: reasonCode, recordId: z.string().nullable(), fact: z.string() }).nullable(),
  trace: z.array(
    z.strictObject({
      id: z.string(),
      decision: z.enum(['selected', 'excluded']),
      code: reasonCode,
      fact: z.string(),
      tokens: z.int(),
      required: z.boolean(),
      score: z.number().nullable(),
    }),
  ),
});
