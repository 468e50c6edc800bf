import { sha256InNode } from '../../lib/node-sha256';
import { resolve } from 'node:path';
import type { MessageWords } from '../../core/messages';
import type { ParseArgsConfig } from 'node:util';
import { connect, describeDatabase, type Connection } from '../../adapters/postgres/connect';
import { deleteRecords, loadRecordLines, type LoadMode } from '../../adapters/postgres/load-records';
import { createUnicodeTokeniser } from '../../adapters/postgres/unicode61';
import { compileError, ok, type Result } from '../../core/errors';
import { EXIT, type CliIo, type ExitCode } from '../command';
import { databaseErrorExit, databaseFailure, databaseOptionSpec } from '../database';
import { defineCommand } from '../define-command';
import { openRecordsFile } from '../read-file';
import { reportError } from '../render';

const options = {
  ...databaseOptionSpec,
  records: { type: 'string' },
  upsert: { type: 'string' },
  delete: { type: 'boolean', default: false },
  quiet: { type: 'boolean', default: false },
} as const satisfies ParseArgsConfig['options'];

/** The ids `--delete` takes; any other command line takes none (the body says so). */
const anyPositionals = (given: readonly string[]): Result<readonly string[], MessageWords> => ok(given);

export const loadCommand = defineCommand({
  name: 'load',
  summary:
    'validate a records file and load it into PostgreSQL, writing only what changed (creates or migrates ' +
    'the schema; loading it again writes nothing)',
  usage: `usage: context-compiler load --database postgres://… --records FILE.jsonl [--schema NAME]
       context-compiler load --database postgres://… --upsert FILE.jsonl [--schema NAME]
       context-compiler load --database postgres://… --delete ID… [--schema NAME]
options:
  --database TARGET    the PostgreSQL server and database: postgres://user:password@host:port/database,
                       host=… port=… dbname=… user=… (libpq's key=value form), or env: DATABASE_URL,
                       else the PG* variables and ~/.pgpass. sslmode: disable, require, verify-ca, verify-full
  --records FILE.jsonl the database then holds exactly this file's records. Read as it streams, in bounded memory;
                       a line the database holds byte for byte is not read again, and an unchanged record is not
                       written; a bad line is named with its file, line and field
  --upsert FILE.jsonl  adds this file's records, replacing those with the same ids; no other record is touched
  --delete ID…         deletes the records with these ids, and no other
  --schema NAME        the schema to hold them (default context_compiler)
  --quiet              no progress line (it is shown only when stderr is a terminal)
Each is one transaction: a refused file or a failure writes nothing. A load that changes a record counts the
database's snapshot up by one; the summary names it.
exit: 0 loaded · 1 invalid input, usage, or the database refused the load (nothing written) · 5 the database
      could not be reached`,
  options,
  positionals: anyPositionals,
  async run({ values, positionals, usageError }, io) {
    const given = [values.records, values.upsert, values.delete ? '--delete' : undefined].filter(
      (value) => value !== undefined,
    );
    if (values.database === undefined || given.length !== 1) return usageError('GIVE_LOAD_OPTIONS');
    if (values.delete && positionals.length === 0) return usageError('GIVE_IDS_TO_DELETE');
    if (!values.delete && positionals.length > 0)
      return usageError('UNEXPECTED_ARGUMENT', { argument: positionals[0] ?? '' });
    const target = { url: values.database, schema: values.schema };
    if (values.delete)
      return withDatabase(io, target, async (database) => deleteIds(io, target, database, positionals));
    const file = values.records ?? values.upsert ?? '';
    return loadFile(
      io,
      target,
      file,
      values.records === undefined ? 'upsert' : 'replace',
      values.quiet ? undefined : io.progress,
    );
  },
});

interface Target {
  readonly url: string;
  readonly schema: string;
}

async function withDatabase(
  io: CliIo,
  target: Target,
  work: (database: Connection) => Promise<ExitCode>,
): Promise<ExitCode> {
  const opened = await connect(target.url, target.schema);
  if (!opened.ok) {
    reportError(io, opened.error);
    return databaseErrorExit(opened.error);
  }
  try {
    return await work(opened.value);
  } finally {
    await opened.value.end();
  }
}

const where = (target: Target) => `${describeDatabase(target.url)} (schema ${target.schema}`;
const count = (value: number) => value.toLocaleString('en');

async function loadFile(
  io: CliIo,
  target: Target,
  file: string,
  mode: LoadMode,
  progress: ((text: string | null) => void) | undefined,
): Promise<ExitCode> {
  const source = await openRecordsFile(resolve(io.cwd, file), file);
  if (!source.ok) {
    reportError(io, source.error);
    return EXIT.invalid;
  }
  return withDatabase(io, target, async (database) => {
    try {
      const tokeniser = createUnicodeTokeniser();
      const onProgress = (lines: number, written: number) => {
        const fraction = source.value.fraction();
        progress?.(
          `loading ${file}: ${fraction === null ? '' : `${Math.floor(fraction * 100)}% `}(${count(lines)} lines read, ${count(written)} records written)`,
        );
      };
      const report = await loadRecordLines(sha256InNode, database, file, source.value.chunks, tokeniser, {
        mode,
        onProgress,
      });
      progress?.(null);
      if (!report.ok) {
        reportError(io, report.error);
        return EXIT.invalid;
      }
      const { layout, inserted, updated, deleted, unchanged, snapshot } = report.value;
      const verb = mode === 'replace' ? 'loaded' : 'upserted';
      const removed = mode === 'replace' ? `, ${deleted} deleted` : '';
      io.stdout(
        `${verb} ${file} into ${where(target)}, ${layout}): ${inserted} inserted, ${updated} ` +
          `updated${removed}, ${unchanged} unchanged; snapshot ${snapshot}\n`,
      );
      return EXIT.ok;
    } catch (error) {
      progress?.(null);
      const unreadable = source.value.failure();
      const failure = unreadable ?? databaseFailure(target.url, error);
      reportError(io, compileError({ ...failure }, 'LOAD_ROLLED_BACK', { problem: failure.message }));
      return EXIT.invalid;
    }
  });
}

async function deleteIds(io: CliIo, target: Target, database: Connection, ids: readonly string[]): Promise<ExitCode> {
  try {
    const report = await deleteRecords(database, ids);
    if (!report.ok) {
      reportError(io, report.error);
      return EXIT.invalid;
    }
    const { deleted, absent, snapshot } = report.value;
    const missing = absent.length === 0 ? '' : `; not found: ${absent.join(', ')}`;
    io.stdout(
      `deleted ${deleted} record${deleted === 1 ? '' : 's'} from ${where(target)})${missing}; snapshot ${snapshot}\n`,
    );
    return EXIT.ok;
  } catch (error) {
    const failure = databaseFailure(target.url, error);
    reportError(io, compileError({ ...failure }, 'DELETION_ROLLED_BACK', { problem: failure.message }));
    return EXIT.invalid;
  }
}
