import { compileError, err, ok, type CompileError, type Result } from '../../core/errors';
import { PLAN_OPERATORS } from '../../core/phases/4-admit/admission-plan';
import { ALL_CAPABILITIES, type AdmissionAnswer, type Capability } from '../../core/phases/4-admit/adapter';
import type { AdmittingStore } from '../../core/phases/4-admit/adapter';
import { lowerPlan } from './lower';
import type { Database } from './schema';

/** Changes whenever the PostgreSQL lowering changes what it sends. */
export const POSTGRES_ADAPTER_VERSION = '1';

/** The oldest server the lowering is written for (MATERIALIZED CTEs, shortest-exact float output). */
const MINIMUM_SERVER = 150000;

export interface CapabilityProbe {
  readonly capability: Capability;
  readonly kept: boolean;
  /** What the server answered, in words. */
  readonly evidence: string;
}

/**
 * Each capability, asked of the server itself rather than assumed: a probe statement whose answer shows
 * whether the lowering's comparisons keep the semantics (the columns are COLLATE "C", bigint instants and
 * list arrays by construction; these check the server does what that construction relies on).
 */
export async function probeCapabilities(client: Database): Promise<CapabilityProbe[]> {
  const { rows } = await client.query<Record<string, boolean | string>>(`SELECT
    current_setting('server_encoding') AS encoding,
    ('a' COLLATE "C" = 'A') AS case_folded, ('é' COLLATE "C" = 'e') AS accent_folded, ('b' COLLATE "C" < 'a') AS misordered,
    (U&'\\00E9' COLLATE "C" = U&'\\0065\\0301') AS normalised,
    (1775000000123::bigint <= 1775000000123::bigint AND NOT 1775000000124::bigint <= 1775000000123::bigint) AS instants_exact,
    (NOT ('x' = ANY ('{}'::text[])) AND NOT ('{x}'::text[] && '{}'::text[]) AND NOT EXISTS (SELECT 1 FROM unnest('{}'::text[]))) AS empty_is_empty,
    (NULL::text IS NULL AND (NULL::text = 'null') IS NULL) AS null_is_null`);
  const row = rows[0] ?? {};
  const utf8 = row.encoding === 'UTF8';
  return [
    {
      capability: 'binary-collation',
      kept: utf8 && row.case_folded === false && row.accent_folded === false && row.misordered === false,
      evidence: `COLLATE "C" on every text column and comparison; 'a' = 'A' is ${String(row.case_folded)}, 'é' = 'e' is ${String(row.accent_folded)} (server encoding ${String(row.encoding)})`,
    },
    {
      capability: 'no-normalisation',
      kept: utf8 && row.normalised === false,
      evidence: `NFC é = NFD é is ${String(row.normalised)}: strings are stored and compared as given`,
    },
    {
      capability: 'utc-millisecond-instants',
      kept: row.instants_exact === true,
      evidence:
        'instants are bigint epoch milliseconds, compared as integers (no timestamp type, no time zone), ' +
        'both ends inclusive',
    },
    {
      capability: 'empty-lists',
      kept: row.empty_is_empty === true,
      evidence:
        "a record's lists are text[] arrays ('{}' when empty, never null); an empty set in the plan binds '{}', which no list holds or overlaps",
    },
    {
      capability: 'null-subjects',
      kept: row.null_is_null === true,
      evidence: 'a missing subject is SQL NULL, never the text "null"; the identity clause tests IS NULL first',
    },
  ];
}

/** How long one statement may run unless the caller says otherwise. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 120_000;

/**
 * An error from the server or the connection to it (pg's errors carry a SQLSTATE; a dropped socket says so), not a bug
 * here.
 */
export function isDatabaseError(error: unknown): boolean {
  return (
    sqlState(error) !== '' ||
    (error instanceof Error && /connection|ECONNRESET|EPIPE|terminated|timeout/i.test(error.message))
  );
}

/** The pg error's SQLSTATE, when it has one. */
function sqlState(error: unknown): string {
  return error !== null && typeof error === 'object' && 'code' in error ? String(error.code) : '';
}

/** What went wrong, in words: a timeout and a lost connection are said as such. */
export function describeFailure(error: unknown, timeoutMs: number): string {
  const code = sqlState(error);
  const message = error instanceof Error ? error.message : String(error);
  if (code === '57014')
    return `the statement was cancelled (statement_timeout ${timeoutMs} ms, or a cancel request): ${message}`;
  if (
    code.startsWith('08') ||
    code === '57P01' ||
    code === '57P02' ||
    code === '57P03' ||
    /connection|ECONNRESET|EPIPE|terminated/i.test(message)
  ) {
    return `the connection to the server was lost before the answer was complete: ${message}`;
  }
  return `the server refused the statement (${code === '' ? 'no SQLSTATE' : code}): ${message}`;
}

export interface PostgresAdapterOptions {
  /** Longest the admission statement may run; past it the answer is incomplete. */
  readonly statementTimeoutMs?: number;
}

/**
 * The PostgreSQL adapter: one parameterised statement per plan (lower.ts), run in the caller's transaction.
 * Its capabilities are what the server's probes show; a server older than 15 is refused.
 */
export async function createPostgresAdapter(
  client: Database,
  options: PostgresAdapterOptions = {},
): Promise<Result<AdmittingStore & { readonly probes: readonly CapabilityProbe[] }, CompileError>> {
  const timeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const { rows } = await client.query<{ version: string; number: string }>(
    "SELECT current_setting('server_version') AS version, current_setting('server_version_num') AS number",
  );
  const server = rows[0];
  if (server === undefined || Number(server.number) < MINIMUM_SERVER) {
    return err(
      compileError({ pass: 'admit', code: 'ADAPTER_INCAPABLE' }, 'SERVER_TOO_OLD', {
        version: server?.version ?? null,
      }),
    );
  }
  const probes = await probeCapabilities(client);
  const capabilities = new Set(
    ALL_CAPABILITIES.filter((capability) => probes.some((probe) => probe.capability === capability && probe.kept)),
  );
  return ok({
    name: 'postgresql',
    adapterVersion: POSTGRES_ADAPTER_VERSION,
    version: `${POSTGRES_ADAPTER_VERSION} (PostgreSQL ${server.version})`,
    capabilities,
    operators: new Set(PLAN_OPERATORS),
    probes,
    async admit(plan, digest): Promise<Result<AdmissionAnswer, CompileError>> {
      const statement = lowerPlan(plan, digest, client.schema);
      if (!statement.ok) return statement;
      let answer: { rows: { digest: string; total: string; id: string | null }[] };
      try {
        await client.query("SELECT set_config('statement_timeout', $1, true), set_config('jit', 'off', true)", [
          String(timeoutMs),
        ]);
        answer = await client.query(statement.value.text, statement.value.values);
      } catch (error) {
        return ok({ status: 'incomplete', problem: describeFailure(error, timeoutMs), predicateDigest: null });
      }
      return ok(answerOf(answer.rows));
    },
  });
}

/**
 * The candidates of the statement's rows, complete only when they are as many as every row says there are and all echo
 * one digest.
 */
export function answerOf(
  rows: readonly { digest: string; total: string | number; id: string | null }[],
): AdmissionAnswer {
  const first = rows[0];
  if (first === undefined)
    return {
      status: 'incomplete',
      problem: 'the statement returned no row (every answer has at least one)',
      predicateDigest: null,
    };
  const total = Number(first.total);
  const candidates = new Set<string>();
  for (const row of rows) {
    if (row.digest !== first.digest || Number(row.total) !== total)
      return {
        status: 'incomplete',
        problem: 'the rows of one answer disagree on the plan or the count',
        predicateDigest: null,
      };
    if (row.id !== null) candidates.add(row.id);
  }
  if (candidates.size !== total)
    return {
      status: 'incomplete',
      problem: `${candidates.size} of the ${total} admitted records arrived (a partial result)`,
      predicateDigest: first.digest,
    };
  return { status: 'complete', candidates, predicateDigest: first.digest };
}
