import { z } from 'zod';
import { isReasonCode } from '../reasons';

const hex64 = z.string().regex(/^[0-9a-f]{64}$/, '64 lowercase hex digits');
const reasonCode = z.string().refine(isReasonCode, 'a reason code from the catalogue');

export const USER_VIEW_FORMAT = 'context-compiler/user-view';
export const USER_VIEW_VERSION = 2;

/**
 * What the app exports from its user view. Not a receipt: rows are withheld, so no id over them can be
 * recomputed, and it carries no digest that covers a withheld record (the receipt id and the record-set
 * digest both do) and no relevance baseline (scored over the whole corpus), so nothing the user may not
 * see can change a byte of it but the withheld count. Its own id, `userViewId`, leaves that count out.
 */
export const userViewExportSchema = z.strictObject({
  format: z.literal(USER_VIEW_FORMAT),
  version: z.literal(USER_VIEW_VERSION),
  /** A digest of what the user view shows (src/core/user-view.ts, `userViewIdOf`), never of a withheld record. */
  userViewId: hex64,
  view: z.literal('user'),
  notice: z.string(),
  outcome: z.enum(['packet', 'fail_closed']),
  task: z.string(),
  asOf: z.string(),
  contractFingerprint: hex64,
  packetFingerprint: hex64.nullable(),
  controls: z.array(z.string()),
  lateChanges: z.array(z.string()),
  tokenBudget: z.int(),
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
    .strictObject({
      code: reasonCode,
      message: z.string(),
      recordId: z.string().nullable(),
      fact: z.string().nullable(),
    })
    .nullable(),
  withheldCount: z.int(),
  withheldNotice: z.string().nullable(),
  trace: z.array(
    z.strictObject({
      id: z.string(),
      decision: z.enum(['selected', 'excluded']),
      code: reasonCode,
      fact: z.string(),
      tokens: z.int(),
      required: z.boolean(),
      score: z.number().nullable(),
      rank: z.int().nullable(),
    }),
  ),
});

export type UserViewExport = z.output<typeof userViewExportSchema>;
