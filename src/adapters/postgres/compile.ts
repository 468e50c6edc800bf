import { createCompiler, type Compiler, type CompileRequest } from '../../core/compile';
import { err, ok, type CompileError, type Result } from '../../core/errors';
import type { Contract } from '../../core/format/contract';
import { createJsonlRecordReader, unreadableRecordsError, type RecordSet } from '../../core/phases/1-validate/validate';
import type { Attestation, CompileOutcome } from '../../core/result';
import type { Store } from '../../core/store';
import { createPostgresAdapter, DEFAULT_STATEMENT_TIMEOUT_MS, describeFailure, isDatabaseError, type PostgresAdapterOptions } from './adapter';
import { rankInDatabase } from './rank';
import { LAYOUT, layoutOf, type Database } from './schema';
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
export async function readRecordSet(client: Database, pageSize: number = RECORD_PAGE): Promise<Result<RecordSet, CompileError>> {
  await client.query(`DECLARE records_read NO SCROLL CURSOR FOR SELECT document, fingerprint FROM ${client.schema}.records ORDER BY id`);
  const reader = createJsonlRecordReader(DATABASE_RECORDS);
  const fingerprints: string[] = [];
  for (;;) {
    const { rows } = await client.query<{ document: string; fingerprint: string }>(`FETCH FORWARD ${pageSize} FROM records_read`);
    for (const row of rows) {
      reader.push(`${row.document}\n`);
      fingerprints.push(row.fingerprint);
    }
    if (rows.length < pageSize) break;
  }
  await client.query('CLOSE records_read');
  const recordSet = reader.finish();
  if (!recordSet.ok) return recordSet;
  const unreadable = unreadableRecordsError(recordSet.value);
  if (unreadable !== null) return err(unreadable);
  const mismatch = recordSet.value.checked.findIndex((item, position) => item.fingerprint !== fingerprints[position]);
  if (mismatch >= 0) {
    const id = recordSet.value.checked[mismatch]?.record.id ?? '';
    return err({
      pass: 'validate',
      code: 'INVALID_INPUT',
      recordId: id,
      message: `${DATABASE_RECORDS}: record ${id} no longer matches the fingerprint it was loaded with; load the records file again`,
    });
  }
  return ok(recordSet.value);
}

export interface DatabaseCompile {
  readonly outcome: CompileOutcome;
  /** The contract and the records read back: what was compiled. */
  readonly request: CompileRequest;
  readonly adapter: { readonly name: string; readonly version: string; readonly predicateDigest: string };
}

/**
 * Compiles a contract against the records a `load` wrote: one snapshot (REPEATABLE READ) for reading the
 * records back, admitting and ranking. Admission runs in the database as one statement; every candidate is
 * checked by the reference evaluator (`admit`), which also decides every record the database did not
 * return; bm25 runs in the database over the agreed admitted set; the budget and the receipt are the core's.
 */
export async function compileInDatabase(
  client: Database,
  contract: Contract,
  tokeniser: Tokeniser,
  options: PostgresAdapterOptions = {},
  attestation: Attestation = 'full',
): Promise<Result<DatabaseCompile, CompileError>> {
  return inRecordSnapshot(client, options, async (recordSet) => compileRecords(client, { contract, recordSet, attestation }, tokeniser, options));
}

/**
 * Runs `work` over the records a `load` wrote, read back in one REPEATABLE READ snapshot that every
 * statement of `work` sees too, under the statement timeout. A database error ends it in ADAPTER_INCOMPLETE.
 */
export async function inRecordSnapshot<T>(client: Database, options: PostgresAdapterOptions, work: (recordSet: RecordSet) => Promise<Result<T, CompileError>>): Promise<Result<T, CompileError>> {
  const layout = await layoutOf(client);
  if (layout !== LAYOUT) {
    const message =
      layout === null
        ? 'the database holds no records: run `context-compiler load --database URL --records FILE.jsonl` first'
        : `the database's records were loaded by another version (layout ${layout}, this is ${LAYOUT}): load them again`;
    return err({ pass: 'validate', code: 'INVALID_INPUT', message });
  }
  const timeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    // Every statement of the compile, not only admission: reading the records back can wait on a lock too.
    await client.query("SELECT set_config('statement_timeout', $1, true)", [String(timeoutMs)]);
    const recordSet = await readRecordSet(client);
    const result = recordSet.ok ? await work(recordSet.value) : recordSet;
    await client.query(result.ok ? 'COMMIT' : 'ROLLBACK');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    if (!isDatabaseError(error)) throw error;
    // Whatever had been read is dropped with the transaction: no packet from part of an answer.
    return err({ pass: 'admit', code: 'ADAPTER_INCOMPLETE', message: `The postgresql adapter returned no complete answer: ${describeFailure(error, timeoutMs)}. No candidate is used.` });
  }
}

/**
 * The PostgreSQL store over the records read back in the caller's snapshot: admission and bm25 run in the
 * database, as one statement each; its capabilities are what the server's probes show.
 */
export async function createPostgresStore(client: Database, tokeniser: Tokeniser, options: PostgresAdapterOptions = {}): Promise<Result<Store, CompileError>> {
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
    // The caller hands over the records `inRecordSnapshot` read back in this snapshot: every record, for now.
    recordsToCompile: async (recordSet) => ok(recordSet),
    // Nothing to bring up to date: the database ranks the ids it is given, so the ids name what it ranks.
    holdAdmitted: async (admitted) => admitted,
    rankAdmitted: (query, admitted) => rankInDatabase(client, query, admitted, tokeniser),
  });
}

/** The core's compiler over the PostgreSQL store of a snapshot that `inRecordSnapshot` opened. */
export async function compilerInSnapshot(client: Database, tokeniser: Tokeniser, options: PostgresAdapterOptions = {}): Promise<Result<Compiler, CompileError>> {
  const store = await createPostgresStore(client, tokeniser, options);
  return store.ok ? ok(createCompiler(store.value)) : store;
}

/** One compile of records read back inside `inRecordSnapshot`: the core's pipeline over the PostgreSQL store. */
export async function compileRecords(client: Database, request: CompileRequest, tokeniser: Tokeniser, options: PostgresAdapterOptions = {}): Promise<Result<DatabaseCompile, CompileError>> {
  const store = await createPostgresStore(client, tokeniser, options);
  if (!store.ok) return store;
  const outcome = await createCompiler(store.value).compile(request);
  if (!outcome.ok) return outcome;
  const { executedBy } = outcome.value.receipt;
  return ok({ outcome: outcome.value, request, adapter: { name: store.value.name, version: store.value.version, predicateDigest: executedBy.planDigest } });
}
