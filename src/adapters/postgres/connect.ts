import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { err, ok, type CompileError, type Result } from '../../core/errors';
import { DEFAULT_SCHEMA, quoteIdentifier, type Database } from './schema';

export interface Connection extends Database {
  end(): Promise<void>;
}

/** The URL as it may be printed: without its password. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unreadable URL)';
  }
}

/** Opens one connection; a refusal is a plain error that names the server (never its password), not a stack trace. */
export async function connect(url: string, schema: string = DEFAULT_SCHEMA): Promise<Result<Connection, CompileError>> {
  if (!/^postgres(ql)?:\/\//.test(url)) return err({ pass: 'validate', code: 'INVALID_INPUT', message: `--database must be a postgres:// or postgresql:// URL, not ${redactUrl(url)}` });
  const client = new pg.Client({ connectionString: url });
  // A connection the server drops emits 'error' outside any query; the query that was running fails on its own.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    return err({ pass: 'validate', code: 'INVALID_INPUT', message: `cannot connect to ${redactUrl(url)}: ${error instanceof Error ? error.message : String(error)}` });
  }
  return ok({
    schema: quoteIdentifier(schema),
    query: async (text, values) => client.query(text, values as unknown[]),
    copyFrom: async (statement, rows) => pipeline(Readable.from(rows), client.query(copyFrom(statement))),
    end: async () => {
      await client.end().catch(() => undefined);
    },
  });
}
