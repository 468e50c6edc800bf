import type { Sha256 } from '../../core/fingerprints';
import type { CompileRequest } from '../../core/compile';
import { drill, type ReceiptVerdict } from '../../core/drill';
import { ok, type CompileError, type Result } from '../../core/errors';
import type { RecordSet } from '../../core/phases/1-validate/validate';
import type { Receipt } from '../../core/result';
import type { PostgresAdapterOptions } from './postgres-adapter';
import { compilerInSnapshot, inRecordSnapshot, inSnapshot, NO_RECORDS } from './compile-in-database';
import type { Database } from './schema';
import type { ShardTables } from './shard-snapshots';
import type { Tokeniser } from './tokens';

/** The inputs a database compile takes besides its records: the contract and the labels the receipt records. */
export type DatabaseInputs = Omit<CompileRequest, 'recordSet'>;

/**
 * The receipt check and fire drill against the records in the database: may work continue on `prior`,
 * given the current inputs? The same verdict as the core's drill, with every compile it needs run by the
 * PostgreSQL store over one snapshot: the core's drill over the core's compiler on that store.
 */
export async function drillInDatabase(
  sha256: Sha256,
  client: Database,
  current: DatabaseInputs,
  prior: Receipt,
  declaredChanges: readonly string[],
  tokeniser: Tokeniser,
  options: PostgresAdapterOptions = {},
): Promise<Result<ReceiptVerdict, CompileError>> {
  const drillOver = async (
    recordSet: RecordSet,
    shards: ShardTables,
  ): Promise<Result<ReceiptVerdict, CompileError>> => {
    const compiler = await compilerInSnapshot(sha256, client, tokeniser, shards, options);
    if (!compiler.ok) return compiler;
    return ok(await drill(compiler.value, { ...current, recordSet, priorReceipt: prior, declaredChanges }));
  };
  // A candidates receipt is compiled again as it attests, from the database's answer: no record is read back for it.
  return prior.attestation === 'candidates'
    ? inSnapshot(client, options, (shards) => drillOver(NO_RECORDS, shards))
    : inRecordSnapshot(sha256, client, options, drillOver);
}
