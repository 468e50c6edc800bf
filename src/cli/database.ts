import { resolve } from 'node:path';
import { compileInDatabase, type DatabaseCompile } from '../adapters/postgres/compile';
import { connect, redactUrl } from '../adapters/postgres/connect';
import { createTokeniser } from '../adapters/postgres/tokens';
import { err, type CompileError, type Result } from '../core/errors';
import { placeContractIssues } from '../core/format/input-issues';
import { parseContractJson } from '../core/passes/validate';
import { openInMemoryDatabase } from '../sqlite/load-sqlite';
import { readDocument } from './read-file';

/** The options every command that reaches a database takes. */
export const databaseOptionSpec = {
  database: { type: 'string' },
  schema: { type: 'string', default: 'context_compiler' },
} as const;

/** Why a database command stopped on an error it did not expect: one line, no stack trace, no password. */
export function databaseFailure(url: string, error: unknown): CompileError {
  return { pass: 'admit', code: 'ADAPTER_INCOMPLETE', message: `the database ${redactUrl(url)} failed: ${error instanceof Error ? error.message : String(error)}` };
}

/** `compile --database URL --contract FILE`: the contract from its file, the records and the admission from the database. */
export async function compileContractInDatabase(url: string, schema: string, contractPath: string, cwd: string): Promise<Result<DatabaseCompile, CompileError>> {
  const text = await readDocument(resolve(cwd, contractPath), contractPath);
  if (!text.ok) return text;
  const contract = parseContractJson(contractPath, text.value);
  if (!contract.ok) return contract;
  const opened = await connect(url, schema);
  if (!opened.ok) return opened;
  const database = opened.value;
  try {
    const compiled = await compileInDatabase(database, contract.value, createTokeniser(await openInMemoryDatabase()));
    return compiled.ok ? compiled : err(placeContractIssues(compiled.error, contractPath, text.value));
  } catch (error) {
    return err(databaseFailure(url, error));
  } finally {
    await database.end();
  }
}

export function adapterLine({ name, version, predicateDigest }: DatabaseCompile['adapter']): string {
  return `admitted by the ${name} adapter ${version}; it echoed plan ${predicateDigest}, and the reference evaluator agreed on every record\n`;
}
