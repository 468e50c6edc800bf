import type { Compiler, CompileRequest } from '../../core/compile';
import { drill, type ReceiptVerdict } from '../../core/drill';
import { err, ok, type CompileError, type Result } from '../../core/errors';
import type { CompileOutcome, Receipt } from '../../core/result';
import type { PostgresAdapterOptions } from './adapter';
import { compileRecords, inRecordSnapshot } from './compile';
import type { Database } from './schema';
import type { Tokeniser } from './tokens';

/** The inputs a database compile takes besides its records: the contract and the labels the receipt records. */
export type DatabaseInputs = Omit<CompileRequest, 'recordSet'>;

const sameList = (a: readonly string[] = [], b: readonly string[] = []) => a.length === b.length && a.every((item, index) => item === b[index]);

/**
 * The drill's compiler, answering from compiles already run in the database: the core's drill is
 * synchronous and the database is not, so what it may ask for is compiled first, in one snapshot.
 * A request not compiled there is one the drill cannot reperform (it says so), never a compile elsewhere.
 */
function answering(answers: readonly (readonly [CompileRequest, Result<CompileOutcome, CompileError>])[]): Pick<Compiler, 'compile'> {
  return {
    compile: (request) =>
      answers.find(
        ([asked]) => asked.contract === request.contract && asked.recordSet === request.recordSet && sameList(asked.controls, request.controls) && sameList(asked.lateChanges, request.lateChanges),
      )?.[1] ?? err({ pass: 'validate', code: 'INVALID_INPUT', message: 'not compiled in the database' }),
  };
}

/**
 * The receipt check and fire drill against the records in the database: may work continue on `prior`,
 * given the current inputs? The same verdict as the core's drill, with every compile it needs run by the
 * PostgreSQL adapter over one snapshot: the current inputs, then (unless they reproduce the receipt
 * byte for byte) the receipt's own contract, controls and late changes over the same records.
 */
export async function drillInDatabase(
  client: Database,
  current: DatabaseInputs,
  prior: Receipt,
  declaredChanges: readonly string[],
  tokeniser: Tokeniser,
  options: PostgresAdapterOptions = {},
): Promise<Result<ReceiptVerdict, CompileError>> {
  return inRecordSnapshot(client, options, async (recordSet) => {
    const answers: (readonly [CompileRequest, Result<CompileOutcome, CompileError>])[] = [];
    const run = async (request: CompileRequest) => {
      const compiled = await compileRecords(client, request, tokeniser, options);
      answers.push([request, compiled.ok ? ok(compiled.value.outcome) : compiled]);
      return compiled;
    };
    const now = await run({ ...current, recordSet });
    if (!now.ok || now.value.outcome.receipt.receiptId !== prior.receiptId) await run({ contract: prior.contract, recordSet, controls: prior.controls, lateChanges: prior.lateChanges });
    return ok(drill(answering(answers), { ...current, recordSet, priorReceipt: prior, declaredChanges }));
  });
}
