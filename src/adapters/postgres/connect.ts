import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { compileError, err, ok, type CompileError, type Result } from '../../core/errors';
import { connectionTarget } from './connection-target';
import { copyPieces } from './copy-pieces';
import { layoutTypes } from './array-parsers';
import { DEFAULT_SCHEMA, quoteIdentifier, type Database } from './schema';
import { reasonOf } from '../../core/messages';

/** How `--database`'s value is printed: the server it names, never a password. */
export function describeDatabase(
  given: string,
  environment: Readonly<Record<string, string | undefined>> = process.env,
): string {
  const target = connectionTarget(given, environment);
  return target.ok ? target.shown : '(an unreadable connection string)';
}

export interface Connection extends Database {
  end(): Promise<void>;
  /**
   * LISTENs on `channel`: `heard` is called with each notification's payload, and `lost` once if the connection ends
   * other than by `end`.
   */
  listen(channel: string, heard: (payload: string) => void, lost: () => void): Promise<void>;
}

/**
 * Opens one connection to what `--database` names (connection-target.ts; `env` reads DATABASE_URL from
 * `environment`); a refusal is a plain error that names the server (never its password), not a stack trace.
 */
export async function connect(
  given: string,
  schema: string = DEFAULT_SCHEMA,
  environment: Readonly<Record<string, string | undefined>> = process.env,
): Promise<Result<Connection, CompileError>> {
  const target = connectionTarget(given, environment);
  if (!target.ok)
    return err(
      compileError({ pass: 'validate', code: 'INVALID_INPUT' }, 'DATABASE_OPTION', { problem: target.problem }),
    );
  // Loaded here, not with the module: a command that never opens a connection does not pay for the driver.
  const [{ default: pg }, { from: copyFrom }] = await Promise.all([import('pg'), import('pg-copy-streams')]);
  const client = new pg.Client({ ...target.config, types: layoutTypes(pg.types) });
  // A connection the server drops emits 'error' outside any query; the query that was running fails on its own.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    return err(
      compileError({ pass: 'admit', code: 'DATABASE_UNREACHABLE' }, 'CANNOT_CONNECT', {
        target: target.shown,
        reason: reasonOf(error),
      }),
    );
  }
  // Statements run one at a time in the order they are asked for, as the server would take them: a caller may ask for
  // the next before the last has answered (a load looks a batch up while another is written), which the driver
  // would queue too, but with a deprecation warning on the user's terminal.
  let last: Promise<unknown> = Promise.resolve();
  let ending = false;
  const inTurn = <T>(run: () => Promise<T>): Promise<T> => {
    const result = last.then(run);
    last = result.catch(() => undefined);
    return result;
  };
  return ok({
    schema: quoteIdentifier(schema),
    query: (text, values) => inTurn(() => client.query(text, values as unknown[])),
    queryPages: <R extends object>(text: string, values: readonly unknown[], size: number, take: (rows: R[]) => void) =>
      inTurn(
        () =>
          new Promise<void>((resolve, reject) => {
            let page: R[] = [];
            // A query with a 'row' listener and no callback keeps no row: each is handed on as it is parsed.
            const query = client.query(new pg.Query<R>(text, values as unknown[]));
            query.on('row', (row: R) => {
              page.push(row);
              if (page.length >= size) {
                take(page);
                page = [];
              }
            });
            query.on('error', reject);
            query.on('end', () => {
              take(page);
              resolve();
            });
          }),
      ),
    copyFrom: (statement, rows) =>
      inTurn(() => pipeline(Readable.from(copyPieces(rows)), client.query(copyFrom(statement)))),
    async listen(channel, heard, lost) {
      client.on('notification', (message) => {
        if (message.channel === channel) heard(message.payload ?? '');
      });
      client.once('end', () => {
        if (!ending) lost();
      });
      await inTurn(() => client.query(`LISTEN ${quoteIdentifier(channel)}`));
    },
    end: async () => {
      ending = true;
      await client.end().catch(() => undefined);
    },
  });
}
