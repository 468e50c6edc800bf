import { compileError, err, ok, type CompileError, type Result } from '../../core/errors';
import { LIFECYCLE_STATES, REVIEW_STATES } from '../../core/format/record';
import { formatInstant } from '../../core/format/time';
import { endsChunk } from '../../core/tree-digest';
import type { CheckedRecord } from '../../core/phases/1-validate/validate';
import type { AdmittedRow } from '../../core/answered-admission';
import type { RankedRow } from '../../core/phases/5-rank/ranking';

/** A record's gate columns as a row of the narrow table, with its declared tokens and relevance. */
interface ViewRow {
  readonly id: string;
  readonly fingerprint: string;
  readonly project: string;
  readonly scope: string;
  readonly subject: string | null;
  readonly known_at: number;
  readonly valid_from: number;
  readonly valid_to: number | null;
  readonly lifecycle: (typeof LIFECYCLE_STATES)[number];
  readonly source_class: string;
  readonly authority_class: string;
  readonly review_state: (typeof REVIEW_STATES)[number];
  readonly provenance_ok: boolean;
  readonly sensitivity: string;
  readonly evidence_class: string | null;
  readonly roles: string[];
  readonly purposes: string[];
  readonly labels: string[];
  readonly claims: string[];
  readonly supersedes: string[];
  readonly tokens: number;
  readonly relevance: number | null;
}

const TEXT_COLUMNS = [
  'id',
  'fingerprint',
  'project',
  'scope',
  'source_class',
  'authority_class',
  'sensitivity',
] as const;
const LIST_COLUMNS = ['roles', 'purposes', 'labels', 'claims', 'supersedes'] as const;
const LIFECYCLES: ReadonlySet<unknown> = new Set(LIFECYCLE_STATES);
const REVIEWS: ReadonlySet<unknown> = new Set(REVIEW_STATES);

/** A bigint column as the driver hands it (a string of digits) as a number, or null when it is none. */
function wholeNumber(value: unknown): number | null {
  const number = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) ? number : null;
}

const isText = (value: unknown): value is string => typeof value === 'string';
const isList = (value: unknown): value is string[] => Array.isArray(value) && value.every(isText);

/**
 * A row checked at the boundary, column by column: the row, or the column that is not what the layout holds. Not a zod
 * parse per admitted row: without generated code its parsers cost more than the rest of reading a row (DECISIONS.md).
 */
function readViewRow(row: Record<string, unknown>): ViewRow | string {
  for (const column of TEXT_COLUMNS) if (!isText(row[column])) return column;
  for (const column of LIST_COLUMNS) if (!isList(row[column])) return column;
  for (const column of ['subject', 'evidence_class'] as const)
    if (row[column] !== null && !isText(row[column])) return column;
  if (!LIFECYCLES.has(row.lifecycle)) return 'lifecycle';
  if (!REVIEWS.has(row.review_state)) return 'review_state';
  if (typeof row.provenance_ok !== 'boolean') return 'provenance_ok';
  if (row.relevance !== null && typeof row.relevance !== 'number') return 'relevance';
  const knownAt = wholeNumber(row.known_at);
  const validFrom = wholeNumber(row.valid_from);
  const validTo = row.valid_to === null ? null : wholeNumber(row.valid_to);
  const tokens = wholeNumber(row.tokens);
  if (knownAt === null) return 'known_at';
  if (validFrom === null) return 'valid_from';
  if (validTo === null && row.valid_to !== null) return 'valid_to';
  if (tokens === null) return 'tokens';
  // The lists copied to their length: the driver's arrays grow by pushing and keep room for more elements than they
  // hold, which every admitted record's view would keep alive.
  const exact = (list: string[]) => list.slice();
  return {
    ...(row as unknown as ViewRow),
    known_at: knownAt,
    valid_from: validFrom,
    valid_to: validTo,
    tokens,
    roles: exact(row.roles as string[]),
    purposes: exact(row.purposes as string[]),
    labels: exact(row.labels as string[]),
    claims: exact(row.claims as string[]),
    supersedes: exact(row.supersedes as string[]),
  };
}

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

export function viewsOf(rows: readonly Record<string, unknown>[]): Result<CheckedRecord[], CompileError> {
  const views: CheckedRecord[] = [];
  for (const row of rows) {
    const read = readViewRow(row);
    if (typeof read === 'string')
      return err(
        compileError({ pass: 'admit', code: 'ADAPTER_MISMATCH' }, 'ADAPTER_ROW_UNREADABLE', {
          adapter: 'postgresql',
          column: read,
        }),
      );
    views.push(viewOf(read));
  }
  return ok(views);
}

/** The admitted rows of one answer, or why they are not all there. */
export type AdmittedRows =
  | { readonly complete: true; readonly rows: AdmittedRow[]; readonly ranked: RankedRow[] }
  | { readonly complete: false; readonly problem: string };
