import type { Sha256 } from '../../core/fingerprints';
import { ok, type CompileError, type Result } from '../../core/errors';
import type { AdmissionPlan } from '../../core/phases/4-admit/admission-plan';
import type { RecordSet } from '../../core/phases/1-validate/validate';
import { lowerVerdict } from './answer';
import { readRecordsById } from './compile-in-database';
import type { Lowering } from './lower';
import type { Database } from './schema';

/**
 * One record as the database holds it and the verdict its statement gives it: null when admitted, else the reason code.
 */
export interface StoredVerdict {
  readonly id: string;
  readonly code: string | null;
  readonly document: string;
  readonly fingerprint: string;
}

/** Records per page an audit reads: a page's documents are a few megabytes. */
export const AUDIT_PAGE = 2_000;

/**
 * Every record with the verdict the database gives it for `plan`, a page at a time in id order (keyset
 * pages, each its own statement, all in the caller's snapshot): what an audit compares with the reference
 * evaluator. Memory holds one page.
 */
export async function* storedVerdicts(
  client: Database,
  plan: AdmissionPlan,
  pageSize: number = AUDIT_PAGE,
): AsyncGenerator<readonly StoredVerdict[], Result<void, CompileError>> {
  const into: Lowering = { schema: client.schema, values: [], ctes: [], joins: [] };
  const lowered = lowerVerdict(plan, into);
  if (!lowered.ok) return lowered;
  const after = `$${into.values.length + 1}::text`;
  const limit = `$${into.values.length + 2}::integer`;
  const text = `${into.ctes.length === 0 ? '' : `WITH ${into.ctes.join(',\n')}\n`}SELECT r.id, ${lowered.value.verdict} AS code, d.document, r.fingerprint
FROM ${client.schema}.records r ${into.joins.join(' ')} LEFT JOIN ${client.schema}.supersession_breaks b ON b.id = r.id JOIN ${client.schema}.documents d ON d.id = r.id
WHERE ${after} IS NULL OR r.id > ${after} ORDER BY r.id LIMIT ${limit}`;
  let last: string | null = null;
  for (;;) {
    const page: { readonly rows: StoredVerdict[] } = await client.query<StoredVerdict>(text, [
      ...into.values,
      last,
      pageSize,
    ]);
    const { rows } = page;
    if (rows.length > 0) yield rows;
    if (rows.length < pageSize) return ok(undefined);
    last = (rows[rows.length - 1] as StoredVerdict).id;
  }
}

/**
 * The records supersession reads: those that supersede something and every target of theirs the database
 * holds, whole and validated. Resolving them alone gives every record's successor in force and broken links
 * as resolving the whole corpus does (a record outside them has neither), in O(successors) memory.
 */
export async function supersessionRecords(sha256: Sha256, client: Database): Promise<Result<RecordSet, CompileError>> {
  const { rows } = await client.query<{ id: string }>(
    `SELECT s.id FROM ${client.schema}.records s WHERE cardinality(s.supersedes) > 0
     UNION SELECT t.id FROM ${client.schema}.records s CROSS JOIN LATERAL unnest(s.supersedes) AS t(id) WHERE cardinality(s.supersedes) > 0`,
  );
  return readRecordsById(
    sha256,
    client,
    rows.map((row) => row.id),
  );
}
