import type { Sha256 } from '../../core/fingerprints';
import { createCompiler, type Compiler, type CompileRequest } from '../../core/compile';
import type { TableStats } from '../../core/memo';
import { compileError, err, ok, type CompileError, type Result } from '../../core/errors';
import type { Contract } from '../../core/format/contract';
import {
  createJsonlRecordReader,
  recordSetOf,
  unreadableRecordsError,
  type CheckedRecord,
  type RecordSet,
} from '../../core/phases/1-validate/validate';
import type { Attestation, CompileOutcome } from '../../core/result';
import type { AdmissionPlan } from '../../core/phases/4-admit/admission-plan';
import type { Store } from '../../core/store';
import {
  createPostgresAdapter,
  DEFAULT_STATEMENT_TIMEOUT_MS,
  describeFailure,
  isDatabaseError,
  type PostgresAdapterOptions,
} from './postgres-adapter';
import { answerPlan, type PlanAnswer } from './answer';
import { createKeptAnswers, createPlanAnswering, type KeptAnswers } from './answering';
import { storedBrokenLinks, type BrokenLink } from './broken-links';
import { rankInDatabase } from './rank-in-database';
import { storedRecordSetDigest } from './record-set-digest';
import { requireLayout, type Database } from './schema';
import { checkShardSnapshots, type ShardTables } from './shard-snapshots';
import type { Tokeniser } from './tokens';

/** The name records read back from the database are validated under (and any problem with them names). */
export const DATABASE_RECORDS = 'database records';

/** Records per page read back: a page's documents are a few megabytes, so a million records never sit in one result. */
export const RECORD_PAGE = 2_000;

/**
 * The records as loaded, read back in their file's order a page at a time through a cursor (in the caller's
 * transaction, so every page is of one snapshot), and validated again exactly as a records file is: a row
 * changed behind the adapter's back is caught here, and a fingerprint that does not match its row too.
 */
export async function readRecordSet(
  sha256: Sha256,
  client: Database,
  pageSize: number = RECORD_PAGE,
): Promise<Result<RecordSet, CompileError>> {
  await client.query(
    `DECLARE records_read NO SCROLL CURSOR FOR SELECT d.document, r.fingerprint FROM ` +
      `${client.schema}.records r JOIN ${client.schema}.documents d ON d.id = r.id ORDER BY r.id`,
  );
  const pages = async function* () {
    for (;;) {
      const { rows } = await client.query<StoredRecord>(`FETCH FORWARD ${pageSize} FROM records_read`);
      yield rows;
      if (rows.length < pageSize) break;
    }
  };
  const read = await validateStoredRecords(sha256, pages());
  await client.query('CLOSE records_read');
  return read;
}

/**
 * The records with these ids as loaded, validated again as `readRecordSet` validates every record (an id the database
 * lacks is left out).
 */
export async function readRecordsById(
  sha256: Sha256,
  client: Database,
  ids: readonly string[],
): Promise<Result<RecordSet, CompileError>> {
  const { rows } = await client.query<StoredRecord>(
    `SELECT d.document, r.fingerprint FROM ${client.schema}.records r JOIN ${client.schema}.documents d ` +
      `ON d.id = r.id WHERE r.id = ANY($1::text[]) ORDER BY r.id`,
    [ids],
  );
  return validateStoredRecords(sha256, [rows]);
}

/**
 * The records with these ids, whole, validated from their documents alone: their fingerprints are computed
 * again and not compared here, so the caller can hold them to the rows it admitted (an id the database lacks is left
 * out).
 */
export async function readDocumentsById(
  sha256: Sha256,
  client: Database,
  ids: readonly string[],
): Promise<Result<readonly CheckedRecord[], CompileError>> {
  const { rows } = await client.query<{ document: string }>(
    `SELECT document FROM ${client.schema}.documents WHERE id = ANY($1::text[]) ORDER BY id`,
    [ids],
  );
  const reader = createJsonlRecordReader(sha256, DATABASE_RECORDS);
  for (const row of rows) reader.push(`${row.document}\n`);
  const recordSet = reader.finish();
  if (!recordSet.ok) return recordSet;
  const unreadable = unreadableRecordsError(recordSet.value);
  return unreadable === null ? ok(recordSet.value.checked) : err(unreadable);
}

export interface StoredRecord {
  readonly document: string;
  readonly fingerprint: string;
}

/**
 * Validates stored records exactly as a records file is: a row changed behind the adapter's back is caught here, and a
 * fingerprint that does not match its row too.
 */
export async function validateStoredRecords(
  sha256: Sha256,
  pages: AsyncIterable<readonly StoredRecord[]> | Iterable<readonly StoredRecord[]>,
): Promise<Result<RecordSet, CompileError>> {
  const reader = createJsonlRecordReader(sha256, DATABASE_RECORDS);
  const fingerprints: string[] = [];
  for await (const rows of pages) {
    for (const row of rows) {
      reader.push(`${row.document}\n`);
      fingerprints.push(row.fingerprint);
    }
  }
  const recordSet = reader.finish();
  if (!recordSet.ok) return recordSet;
  const unreadable = unreadableRecordsError(recordSet.value);
  if (unreadable !== null) return err(unreadable);
  const mismatch = recordSet.value.checked.findIndex((item, position) => item.fingerprint !== fingerprints[position]);
  if (mismatch >= 0) {
    const id = recordSet.value.checked[mismatch]?.record.id ?? '';
    return err(
      compileError({ pass: 'validate', code: 'INVALID_INPUT', recordId: id }, 'DATABASE_RECORD_CHANGED', {
        table: DATABASE_RECORDS,
        record: id,
      }),
    );
  }
  return ok(recordSet.value);
}

export interface DatabaseCompile {
  readonly outcome: CompileOutcome;
  /** The contract and the records read back: what was compiled. */
  readonly request: CompileRequest;
  readonly adapter: { readonly name: string; readonly version: string; readonly predicateDigest: string };
}

/** The record set a compile that reads no record hands the core: the store answers for its records. */
export const NO_RECORDS: RecordSet = recordSetOf([]);

/**
 * Compiles a contract against the records a `load` wrote, in one snapshot (REPEATABLE READ, JIT off), with the
 * core's one pipeline over the PostgreSQL store. A `candidates` compile (the default) reads no refused record:
 * the database answers the plan (admission, counts per reason, statistics, digests) and the core checks the
 * admitted rows and the records that enter the packet (src/core/answered-admission.ts). A `full` compile, a
 * row per record, reads every record back and judges each in the reference evaluator.
 */
export async function compileInDatabase(
  sha256: Sha256,
  client: Database,
  contract: Contract,
  tokeniser: Tokeniser,
  options: PostgresAdapterOptions = {},
  attestation: Attestation = 'candidates',
): Promise<Result<DatabaseCompile, CompileError>> {
  return createDatabaseCompiler(sha256, client, tokeniser, options).compile(contract, attestation);
}

/** Compiles over one database connection, one compile at a time, keeping what a later compile can use again. */
export interface DatabaseCompiler {
  compile(contract: Contract, attestation?: Attestation): Promise<Result<DatabaseCompile, CompileError>>;
  /** What the core's memo reused and computed in the last `candidates` compile. */
  memoStats(): ReadonlyMap<string, TableStats>;
}

/**
 * A compiler that lives across compiles of the records a `load` wrote, each in a snapshot of its own (as
 * `compileInDatabase`). It keeps its last answers: when loads since changed no admitted record, a recompile recounts
 * admission in the database, with no query term's hits, and the core's memo finds the checks of the same admitted
 * set done (answering.ts, answered-admission.ts); only the refused counts and the record-set digest are new.
 */
export function createDatabaseCompiler(
  sha256: Sha256,
  client: Database,
  tokeniser: Tokeniser,
  options: PostgresAdapterOptions = {},
): DatabaseCompiler {
  const kept = createKeptAnswers();
  let shards: ShardTables = null;
  let compiler: { readonly store: PostgresStore; readonly core: Compiler } | null = null;
  const compileCandidates = (contract: Contract) =>
    inSnapshot(client, options, async (found) => {
      shards = found;
      if (compiler === null) {
        const store = await createPostgresStore(sha256, client, tokeniser, () => shards, options, kept);
        if (!store.ok) return store;
        compiler = { store: store.value, core: createCompiler(sha256, store.value) };
      }
      return compileWith(compiler.store, compiler.core, { contract, recordSet: NO_RECORDS, attestation: 'candidates' });
    });
  return {
    compile: (contract, attestation = 'candidates') =>
      attestation === 'candidates'
        ? compileCandidates(contract)
        : inRecordSnapshot(sha256, client, options, async (recordSet, found) =>
            compileRecords(sha256, client, { contract, recordSet, attestation }, tokeniser, found, options),
          ),
    memoStats: () => compiler?.core.memoStats() ?? new Map(),
  };
}

/**
 * Runs `work` over the records a `load` wrote, read back in one REPEATABLE READ snapshot that every
 * statement of `work` sees too, under the statement timeout. A database error ends it in ADAPTER_INCOMPLETE.
 */
export async function inRecordSnapshot<T>(
  sha256: Sha256,
  client: Database,
  options: PostgresAdapterOptions,
  work: (recordSet: RecordSet, shards: ShardTables) => Promise<Result<T, CompileError>>,
): Promise<Result<T, CompileError>> {
  return inSnapshot(client, options, async (shards) => {
    const recordSet = await readRecordSet(sha256, client);
    return recordSet.ok ? work(recordSet.value, shards) : recordSet;
  });
}

/**
 * Runs `work` in one REPEATABLE READ snapshot of the records a `load` wrote (every statement sees the same
 * records), JIT off, under the statement timeout; it commits only when `work` succeeds. A database error
 * ends it in ADAPTER_INCOMPLETE: whatever had been read is dropped with the transaction. `work` is told where the
 * records are (one server, or a coordinator's shards), as the snapshot check found it.
 */
export async function inSnapshot<T>(
  client: Database,
  options: PostgresAdapterOptions,
  work: (shards: ShardTables) => Promise<Result<T, CompileError>>,
): Promise<Result<T, CompileError>> {
  const layout = await requireLayout(client);
  if (!layout.ok) return layout;
  const timeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    // Every statement, not only admission: reading the records back can wait on a lock too. Compiling a
    // statement's expressions costs more than running these statements saves (PostgreSQL 15 turns JIT on).
    await client.query("SELECT set_config('statement_timeout', $1, true), set_config('jit', 'off', true)", [
      String(timeoutMs),
    ]);
    // Through a coordinator, every shard must be at one snapshot before anything is read from any of them.
    const agreed = await checkShardSnapshots(client);
    const result = agreed.ok ? await work(agreed.value) : agreed;
    await client.query(result.ok ? 'COMMIT' : 'ROLLBACK');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    if (!isDatabaseError(error)) throw error;
    return err(
      compileError({ pass: 'admit', code: 'ADAPTER_INCOMPLETE' }, 'ADAPTER_NO_ANSWER', {
        adapter: 'postgresql',
        problem: describeFailure(error, timeoutMs),
      }),
    );
  }
}

/**
 * The PostgreSQL store: the core's `Store`, and what the database answers beside it without reading the
 * corpus back (each in the caller's snapshot, `inSnapshot`).
 */
export interface PostgresStore extends Store {
  /**
   * Admission, the admitted set's bm25 statistics, the refused counts per reason, the top `top` candidates and the
   * admitted set's digest: one statement.
   */
  answerPlan(
    plan: AdmissionPlan,
    digest: string,
    query: string,
    top: number,
  ): Promise<Result<PlanAnswer, CompileError>>;
  /**
   * The records whose own supersession links are broken, as the last load found them: what an admission plan's
   * broken-link clause lists.
   */
  brokenSupersessions(): Promise<ReadonlyMap<string, BrokenLink>>;
  /** The records with these ids, whole and validated again (fingerprints compared): what enters a packet. */
  recordsById(ids: readonly string[]): Promise<Result<RecordSet, CompileError>>;
  /**
   * The digest of every record (the receipt's `recordSetDigest`), from the chunks the loads keep: no record is read.
   */
  recordSetDigest(): Promise<string>;
}

/**
 * The PostgreSQL store over the records read back in the caller's snapshot: admission and bm25 run in the
 * database, as one statement each; its capabilities are what the server's probes show.
 */
export async function createPostgresStore(
  sha256: Sha256,
  client: Database,
  tokeniser: Tokeniser,
  shards: () => ShardTables,
  options: PostgresAdapterOptions = {},
  kept?: KeptAnswers,
): Promise<Result<PostgresStore, CompileError>> {
  const adapter = await createPostgresAdapter(client, options);
  if (!adapter.ok) return adapter;
  const { name, adapterVersion, version, capabilities, operators } = adapter.value;
  return ok({
    name,
    adapterVersion,
    version,
    capabilities,
    operators,
    admit: (plan, digest) => adapter.value.admit(plan, digest),
    // A full compile's caller hands over the records `inRecordSnapshot` read back in this snapshot; a candidates
    // compile asks `answers`.
    recordsToCompile: async (recordSet) => ok(recordSet),
    // Nothing to bring up to date: the database ranks the ids it is given, so the ids name what it ranks.
    holdAdmitted: async (admitted) => admitted,
    rankAdmitted: (query, admitted) => rankInDatabase(client, query, admitted, tokeniser),
    answerPlan: (plan, digest, query, top) => answerPlan(client, plan, digest, query, tokeniser, top),
    brokenSupersessions: () => storedBrokenLinks(client),
    recordsById: (ids) => readRecordsById(sha256, client, ids),
    recordSetDigest: () => storedRecordSetDigest(client),
    answers: createPlanAnswering(client, tokeniser, shards, (ids) => readDocumentsById(sha256, client, ids), kept),
  });
}

/** The core's compiler over the PostgreSQL store of a snapshot that `inRecordSnapshot` opened. */
export async function compilerInSnapshot(
  sha256: Sha256,
  client: Database,
  tokeniser: Tokeniser,
  shards: ShardTables,
  options: PostgresAdapterOptions = {},
): Promise<Result<Compiler, CompileError>> {
  const store = await createPostgresStore(sha256, client, tokeniser, () => shards, options);
  return store.ok ? ok(createCompiler(sha256, store.value)) : store;
}

/** One compile of records read back inside `inRecordSnapshot`: the core's pipeline over the PostgreSQL store. */
export async function compileRecords(
  sha256: Sha256,
  client: Database,
  request: CompileRequest,
  tokeniser: Tokeniser,
  shards: ShardTables,
  options: PostgresAdapterOptions = {},
): Promise<Result<DatabaseCompile, CompileError>> {
  const store = await createPostgresStore(sha256, client, tokeniser, () => shards, options);
  return store.ok ? compileWith(store.value, createCompiler(sha256, store.value), request) : store;
}

async function compileWith(
  store: PostgresStore,
  compiler: Compiler,
  request: CompileRequest,
): Promise<Result<DatabaseCompile, CompileError>> {
  const outcome = await compiler.compile(request);
  if (!outcome.ok) return outcome;
  const { executedBy } = outcome.value.receipt;
  return ok({
    outcome: outcome.value,
    request,
    adapter: { name: store.name, version: store.version, predicateDigest: executedBy.planDigest },
  });
}
