import type { AdmissionPlan } from '../../core/phases/4-admit/admission-plan';
import type { CompileError, Result } from '../../core/errors';
import { ok } from '../../core/errors';
import { lowerVerdict } from './answer';
import { answerLowering, bind } from './lower';
import type { Database } from './schema';

/**
 * Snapshots the log reaches back over: a compiler that kept an answer from an older snapshot recounts admission
 * instead.
 */
export const LOG_SNAPSHOTS = 64;

/** Changes one load may log: a load that changes more is cheaper to answer again than to judge change by change. */
export const LOG_RECORDS = 10_000;

/**
 * The SQL that keeps, before rows of the records `gone` are deleted, each as it was, under the snapshot the load
 * will commit (one past the layout's, which the load's lock holds still).
 */
export const keepRowsBefore = (schema: string, gone: string) =>
  `INSERT INTO ${schema}.records_before SELECT (SELECT snapshot + 1 FROM ${schema}.layout), g.* FROM ${gone} g`;

/**
 * Logs the records a load or delete wrote or removed (`load_changed`) under the snapshot it committed, drops what
 * lies more than `LOG_SNAPSHOTS` back, and moves `log_from` up to what the log still covers. A load into empty tables,
 * or one that changed more than `LOG_RECORDS` records, empties the log: no kept answer is judged across it.
 */
export async function logChanges(client: Database, snapshot: number, filled: boolean): Promise<void> {
  const { schema } = client;
  const { rows } = await client.query<{ n: number }>(
    `WITH logged AS (INSERT INTO ${schema}.record_changes SELECT DISTINCT $1::bigint, id FROM load_changed ` +
      `RETURNING 1) SELECT count(*)::integer AS n FROM logged`,
    [snapshot],
  );
  const restart = filled || (rows[0]?.n ?? 0) > LOG_RECORDS;
  const from = restart ? snapshot : snapshot - LOG_SNAPSHOTS;
  await client.query(`DELETE FROM ${schema}.record_changes WHERE snapshot <= $1`, [from]);
  await client.query(`DELETE FROM ${schema}.records_before WHERE snapshot <= $1`, [from]);
  await client.query(`UPDATE ${schema}.layout SET log_from = greatest(log_from, $1)`, [from]);
}

/**
 * What the log says of the records that changed since a kept snapshot: their verdicts' codes (marked withheld as
 * `lowerVerdict` marks them), before and now.
 */
export interface ChangedVerdicts {
  /** The codes of the changed records as they were at the kept snapshot (those that existed); null: admitted. */
  readonly before: readonly (string | null)[];
  /** Their codes now (those that exist). */
  readonly now: readonly (string | null)[];
}

/**
 * The plan's verdicts on the records that changed since snapshot `since`, as they were then and as they are now, in
 * the caller's snapshot: the rows each first change replaced (`records_before`) and the records' rows now. Null when
 * the log does not reach back to `since`, when more than `LOG_RECORDS` changed, or when a changed record has a broken
 * supersession link (its reason reads the links of other records as they are now).
 */
export async function verdictsOfChanges(
  client: Database,
  plan: AdmissionPlan,
  digest: string,
  superseded: readonly string[],
  since: number,
): Promise<Result<ChangedVerdicts | null, CompileError>> {
  const { schema } = client;
  const into = answerLowering(schema, digest, superseded);
  const lowered = lowerVerdict(plan, into);
  if (!lowered.ok) return lowered;
  const { verdict } = lowered.value;
  const after = bind(into, since, 'bigint');
  const limit = bind(into, LOG_RECORDS, 'integer');
  const { rows } = await client.query<{
    covered: boolean;
    changed: number;
    broken: boolean;
    side: string | null;
    code: string | null;
  }>(
    `WITH first AS (SELECT id, min(snapshot) AS at FROM ${schema}.record_changes
       WHERE snapshot > ${after} GROUP BY id),
     checks AS (SELECT $1::text AS plan, (SELECT log_from FROM ${schema}.layout) <= ${after} AS covered,
       (SELECT count(*)::integer FROM first) AS changed,
       EXISTS (SELECT 1 FROM ${schema}.supersession_breaks b JOIN first f ON f.id = b.id) AS broken),
     judged AS (
       SELECT 'before' AS side, ${verdict} AS code FROM ${schema}.records_before r
         JOIN first f ON f.id = r.id AND f.at = r.snapshot
         LEFT JOIN ${schema}.supersession_breaks b ON b.id = r.id
       UNION ALL
       SELECT 'now', ${verdict} FROM ${schema}.records r JOIN first f ON f.id = r.id
         LEFT JOIN ${schema}.supersession_breaks b ON b.id = r.id)
     SELECT c.plan, c.covered, c.changed, c.broken, j.side, j.code FROM checks c
       LEFT JOIN judged j ON c.covered AND c.changed <= ${limit} AND NOT c.broken`,
    into.values,
  );
  const checks = rows[0];
  if (checks === undefined || !checks.covered || checks.broken || checks.changed > LOG_RECORDS) return ok(null);
  const judged = rows.filter((row) => row.side !== null);
  return ok({
    before: judged.filter((row) => row.side === 'before').map((row) => row.code),
    now: judged.filter((row) => row.side === 'now').map((row) => row.code),
  });
}
