import { resolve } from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import { connect, describeDatabase } from '../../adapters/postgres/connect';
import { loadRecordSet } from '../../adapters/postgres/load';
import { createTokeniser } from '../../adapters/postgres/tokens';
import { openInMemoryDatabase } from '../../sqlite/load-sqlite';
import { EXIT } from '../command';
import { databaseErrorExit, databaseFailure, databaseOptionSpec } from '../database';
import { defineCommand } from '../define-command';
import { noPositionals } from '../options';
import { unreadableRecordsError } from '../../core/passes/validate';
import { streamRecordsFile } from '../read-file';
import { reportError } from '../render';

const options = {
  ...databaseOptionSpec,
  records: { type: 'string' },
  quiet: { type: 'boolean', default: false },
} as const satisfies ParseArgsConfig['options'];

export const loadCommand = defineCommand({
  name: 'load',
  summary: 'validate a records file and load it into PostgreSQL (creates or migrates the schema; loading it again changes nothing)',
  usage: `usage: context-compiler load --database postgres://… --records FILE.jsonl [--schema NAME]
options:
  --database TARGET    the PostgreSQL server and database: postgres://user:password@host:port/database,
                       host=… port=… dbname=… user=… (libpq's key=value form), or env: DATABASE_URL,
                       else the PG* variables and ~/.pgpass. sslmode: disable, require, verify-ca, verify-full
  --records FILE.jsonl the records, validated line by line as the app validates them; a bad line is named with its field
  --schema NAME        the schema to hold them (default context_compiler)
  --quiet              no progress line (it is shown only when stderr is a terminal)
The database then holds exactly this file's records, written in one transaction: nothing is half-written.
exit: 0 loaded · 1 invalid input, usage, or the database refused the load (nothing written) · 5 the database
      could not be reached`,
  options,
  positionals: noPositionals,
  async run({ values, usageError }, io) {
    if (values.database === undefined || values.records === undefined) return usageError('give --database and --records');
    const progress = values.quiet ? undefined : io.progress;
    const recordSet = await streamRecordsFile(resolve(io.cwd, values.records), values.records, progress);
    progress?.(null);
    if (!recordSet.ok) {
      reportError(io, recordSet.error);
      return EXIT.invalid;
    }
    // A database holds records to compile for anyone: a line it could not read is refused here, by the one who loads.
    const unreadable = unreadableRecordsError(recordSet.value);
    if (unreadable !== null) {
      reportError(io, unreadable);
      return EXIT.invalid;
    }
    const opened = await connect(values.database, values.schema);
    if (!opened.ok) {
      reportError(io, opened.error);
      return databaseErrorExit(opened.error);
    }
    const database = opened.value;
    try {
      const tokeniser = createTokeniser(await openInMemoryDatabase());
      const report = await loadRecordSet(database, values.records, recordSet.value, tokeniser, (done, total) =>
        progress?.(`writing records: ${done.toLocaleString('en')} / ${total.toLocaleString('en')}`),
      );
      progress?.(null);
      if (!report.ok) {
        reportError(io, report.error);
        return EXIT.invalid;
      }
      const { layout, inserted, updated, deleted, unchanged } = report.value;
      io.stdout(
        `loaded ${values.records} into ${describeDatabase(values.database)} (schema ${values.schema}, ${layout}): ${inserted} inserted, ${updated} updated, ${deleted} deleted, ${unchanged} unchanged\n`,
      );
      return EXIT.ok;
    } catch (error) {
      reportError(io, { ...databaseFailure(values.database, error), message: `${databaseFailure(values.database, error).message}; the load was rolled back, nothing was written` });
      return EXIT.invalid;
    } finally {
      await database.end();
    }
  },
});
