import { z } from 'zod';
import { compileError, err, ok, type CompileError, type Result } from '../../core/errors';
import { LIFECYCLE_STATES, REVIEW_STATES } from '../../core/format/record';
import { formatInstant } from '../../core/format/time';
import { endsChunk } from '../../core/tree-digest';
import type { CheckedRecord } from '../../core/phases/1-validate/validate';
import type { AdmittedRow } from '../../core/answered-admission';
import type { RankedRow } from '../../core/phases/5-rank/ranking';

/**
 * A record's gate columns as a row of the narrow table, with its declared tokens and relevance: validated at the
 * boundary, then made the gate view the core judges (no title, no text).
 */
const viewRowSchema = z.object({
  id: z.string(),
  fingerprint: z.string(),
  project: z.string(),
  scope: z.string(),
  subject: z.string().nullable(),
  known_at: z.coerce.number(),
  valid_from: z.coerce.number(),
  valid_to: z.coerce.number().nullable(),
  lifecycle: z.enum(LIFECYCLE_STATES),
  source_class: z.string(),
  authority_class: z.string(),
  review_state: z.enum(REVIEW_STATES),
  provenance_ok: z.boolean(),
  sensitivity: z.string(),
  evidence_class: z.string().nullable(),
  roles: z.array(z.string()),
  purposes: z.array(z.string()),
  labels: z.array(z.string()),
  claims: z.array(z.string()),
  supersedes: z.array(z.string()),
  tokens: z.coerce.number().int(),
  relevance: z.number().nullable(),
});

type ViewRow = z.infer<typeof viewRowSchema>;

/**
 * The columns a gate view is made of, for a row `r` of the records or of a set made from them: what admission reads,
 * with the declared tokens and relevance, all in the narrow table, so no document is read for a view.
 */
export const VIEW_COLUMNS = `r.id, r.fingerprint, r.project, r.scope, r.subject, r.known_at, r.valid_from, r.valid_to, r.lifecycle, r.source_class,
  r.authority_class, r.review_state, r.provenance_ok, r.sensitivity, r.evidence_class, r.roles, r.purposes, r.labels, r.claims, r.supersedes,
  r.tokens, r.relevance`;

/**
 * The gate view of a row: the fields the gates and the plan read, as validation would have made them. The claims
 * stand as supported propositions (the gates and the plan read only which propositions a record claims); the
 * digest's chunk rule is computed here from the id, not read from the row.
 */
function viewOf(row: ViewRow): CheckedRecord {
  return {
    record: {
      id: row.id,
      title: '',
      text: '',
      tokens: row.tokens,
      project: row.project,
      scope: row.scope,
      subject: row.subject,
      knownAt: formatInstant(row.known_at),
      validFrom: formatInstant(row.valid_from),
      validTo: row.valid_to === null ? null : formatInstant(row.valid_to),
      lifecycle: row.lifecycle,
      supersedes: row.supersedes,
      sourceClass: row.source_class,
      authorityClass: row.authority_class,
      reviewState: row.review_state,
      provenance: null,
      sensitivity: row.sensitivity,
      access: { roles: row.roles, purposes: row.purposes, labels: row.labels },
      evidence:
        row.evidence_class === null ? null : { class: row.evidence_class, supports: row.claims, contradicts: [] },
      relevance: row.relevance,
    },
    fingerprint: row.fingerprint,
    provenanceVerified: row.provenance_ok,
    knownAt: row.known_at,
    validFrom: row.valid_from,
    validTo: row.valid_to,
    endsDigestChunk: endsChunk(row.id),
  };
}

export function viewsOf(rows: readonly unknown[]): Result<CheckedRecord[], CompileError> {
  const views: CheckedRecord[] = [];
  for (const row of rows) {
    const parsed = viewRowSchema.safeParse(row);
    if (!parsed.success)
      return err(
        compileError({ pass: 'admit', code: 'ADAPTER_MISMATCH' }, 'ADAPTER_ROW_UNREADABLE', {
          adapter: 'postgresql',
          problem: parsed.error.issues[0]?.message ?? null,
        }),
      );
    views.push(viewOf(parsed.data));
  }
  return ok(views);
}

/** The admitted rows of one answer, or why they are not all there. */
export type AdmittedRows =
  | { readonly complete: true; readonly rows: AdmittedRow[]; readonly ranked: RankedRow[] }
  | { readonly complete: false; readonly problem: string };
