import { sha256InNode } from '../lib/node-sha256';
import { resolve } from 'node:path';
import {
  compileInDatabase,
  createDatabaseCompiler,
  type DatabaseCompile,
} from '../adapters/postgres/compile-in-database';
import { connect, describeDatabase, type Connection } from '../adapters/postgres/connect';
import { drillInDatabase } from '../adapters/postgres/drill-in-database';
import { LOADS_CHANNEL } from '../adapters/postgres/schema';
import { type Tokeniser } from '../adapters/postgres/tokens';
import { createUnicodeTokeniser } from '../adapters/postgres/unicode61';
import type { ReceiptVerdict } from '../core/drill';
import type { Contract } from '../core/format/contract';
import type { Attestation, CompileOutcome, Receipt } from '../core/result';
import { compileError, err, ok, type CompileError, type Result } from '../core/errors';
import { placeContractIssues } from '../core/format/input-issues';
import { parseContractJson } from '../core/phases/1-validate/validate';
import { EXIT, type CliIo, type ExitCode } from './command';
import { readDocument } from './read-file';
import { reportError } from './render';
import { reasonOf, wordMessage } from '../core/messages';

/** The options every command that reaches a database takes. */
export const databaseOptionSpec = {
  database: { type: 'string' },
  schema: { type: 'string', default: 'context_compiler' },
} as const;

/** The exit code of a database command's error: unreachable, a refusal in admission (no packet), or unusable input. */
export function databaseErrorExit(error: CompileError): ExitCode {
  if (error.code === 'DATABASE_UNREACHABLE') return EXIT.databaseUnreachable;
  return error.pass === 'admit' ? EXIT.failClosed : EXIT.invalid;
}

/** Why a database command stopped on an error it did not expect: one line, no stack trace, no password. */
export function databaseFailure(url: string, error: unknown): CompileError {
  return compileError({ pass: 'admit', code: 'ADAPTER_INCOMPLETE' }, 'DATABASE_FAILED', {
    database: describeDatabase(url),
    reason: reasonOf(error),
  });
}

/** The contract from its file, then a connection: what every database command but `load` starts with. */
async function openWithContract<T>(
  url: string,
  schema: string,
  contractPath: string,
  cwd: string,
  work: (database: Connection, contract: Contract, tokeniser: Tokeniser) => Promise<Result<T, CompileError>>,
): Promise<Result<T, CompileError>> {
  const text = await readDocument(resolve(cwd, contractPath), contractPath);
  if (!text.ok) return text;
  const contract = parseContractJson(contractPath, text.value);
  if (!contract.ok) return contract;
  const opened = await connect(url, schema);
  if (!opened.ok) return opened;
  const database = opened.value;
  try {
    const done = await work(database, contract.value, createUnicodeTokeniser());
    return done.ok ? done : err(placeContractIssues(done.error, contractPath, text.value));
  } catch (error) {
    return err(databaseFailure(url, error));
  } finally {
    await database.end();
  }
}

/**
 * `compile --database URL --contract FILE`: the contract from its file, the records and the admission from the
 * database.
 */
export async function compileContractInDatabase(
  url: string,
  schema: string,
  contractPath: string,
  cwd: string,
  attestation: Attestation,
): Promise<Result<DatabaseCompile, CompileError>> {
  return openWithContract(url, schema, contractPath, cwd, async (database, contract, tokeniser) =>
    compileInDatabase(sha256InNode, database, contract, tokeniser, {}, attestation),
  );
}

/** One compile of a watch, and whether it used the last compile's answer again. */
export interface WatchedCompile {
  readonly compiled: Result<DatabaseCompile, CompileError>;
  readonly answerKept: boolean;
}

/**
 * `compile --database URL --contract FILE --watch`: compiles, then again each time a load commits a change to the
 * schema (every load notifies LOADS_CHANNEL), until `untilStopped` settles. One compiler lives across the compiles, so
 * after a change that no admitted record sees a compile recounts instead of answering in full
 * (compile-in-database.ts). Compiles never overlap, and `each` has finished with one before the next starts: loads
 * heard meanwhile give one more. It ends in an error
 * only when the connection is lost; a compile's own error goes to `each` like its outcome.
 */
export async function watchContractInDatabase(
  url: string,
  schema: string,
  contractPath: string,
  cwd: string,
  attestation: Attestation,
  each: (watched: WatchedCompile) => Promise<void>,
  untilStopped: () => Promise<void>,
): Promise<Result<void, CompileError>> {
  return openWithContract(url, schema, contractPath, cwd, async (database, contract, tokeniser) => {
    const compiler = createDatabaseCompiler(sha256InNode, database, tokeniser);
    let heard = false;
    let lost = false;
    let stopping = false;
    let wake: () => void = () => undefined;
    await database.listen(
      LOADS_CHANNEL,
      (payload) => {
        if (payload !== database.schema) return;
        heard = true;
        wake();
      },
      () => {
        lost = true;
        wake();
      },
    );
    void untilStopped().then(() => {
      stopping = true;
      wake();
    });
    for (let first = true; ; first = false) {
      if (!first && !heard && !lost && !stopping) await new Promise<void>((resolve) => (wake = resolve));
      if (stopping) return ok(undefined);
      if (lost) return err(databaseFailure(url, new Error(wordMessage('CONNECTION_ENDED'))));
      heard = false;
      const compiled = await compiler.compile(contract, attestation);
      const kept = compiler.memoStats().get('answered-draft');
      await each({ compiled, answerKept: attestation === 'candidates' && (kept?.reused ?? 0) > 0 });
    }
  });
}

/**
 * `drill --database URL --contract FILE --receipt FILE`: the receipt judged against the contract and the database's
 * records.
 */
export async function drillContractInDatabase(
  url: string,
  schema: string,
  contractPath: string,
  receipt: Receipt,
  cwd: string,
): Promise<Result<ReceiptVerdict, CompileError>> {
  return openWithContract(url, schema, contractPath, cwd, async (database, contract, tokeniser) =>
    drillInDatabase(sha256InNode, database, { contract }, receipt, [], tokeniser),
  );
}

/** What a database compile decided of the records it did not list: how many, admitted, and without a row per reason. */
export function answerLine({ counts, receipt }: CompileOutcome): string {
  const counted = Object.entries(receipt.omitted?.rows ?? {}).map(
    ([code, count]) => `${code} ${count.toLocaleString('en')}`,
  );
  const rows = `${receipt.trace.length.toLocaleString('en')} with a row in the receipt`;
  return `${counts.candidates.toLocaleString('en')} records, ${counts.admitted.toLocaleString('en')} admitted; ${rows}${counted.length === 0 ? '' : `; the others counted: ${counted.join(', ')}`}\n`;
}

export function adapterLine({ name, version, predicateDigest }: DatabaseCompile['adapter']): string {
  return `admitted by the ${name} adapter ${version}; it echoed plan ${predicateDigest}, and the reference evaluator agreed on every record\n`;
}

/**
 * Runs `work` on a connection to the scratch schema `schema` (the self-checks and the conformance suite write
 * there, never where `load` writes), and drops that schema afterwards whatever happened. A failure to connect or
 * of the database itself is reported on stderr, naming the server without its password: exit 1.
 */
export async function inScratchSchema(
  url: string,
  schema: string,
  io: CliIo,
  work: (database: Connection) => Promise<ExitCode>,
): Promise<ExitCode> {
  const opened = await connect(url, schema);
  if (!opened.ok) {
    reportError(io, opened.error);
    return databaseErrorExit(opened.error);
  }
  const database = opened.value;
  try {
    return await work(database);
  } catch (error) {
    reportError(io, databaseFailure(url, error));
    return EXIT.invalid;
  } finally {
    await database.query(`DROP SCHEMA IF EXISTS ${database.schema} CASCADE`).catch(() => undefined);
    await database.end();
  }
}
