import type { Database } from './schema';

/** What a watcher does around each statement a database runs, however its rows are read. */
export interface StatementWatch {
  /** Told of each statement before it runs. */
  readonly before?: (text: string, values: readonly unknown[]) => void;
  /** The rows the caller gets in place of all those the statement returned. */
  readonly rows?: (text: string, rows: Record<string, unknown>[]) => Record<string, unknown>[];
  /** Runs once the statement has returned all its rows. */
  readonly after?: (text: string) => Promise<void>;
}

/**
 * The database with `watch` around every statement, read whole (`query`) or a page at a time (`queryPages`): what the
 * suites and the tests use to see, count, lose or rewrite what a compile is sent.
 */
export function watchStatements(database: Database, watch: StatementWatch): Database {
  return {
    schema: database.schema,
    copyFrom: (statement, rows) => database.copyFrom(statement, rows),
    async query<R extends object>(text: string, values: readonly unknown[] = []) {
      watch.before?.(text, values);
      const result = await database.query<Record<string, unknown>>(text, values);
      const rows = watch.rows === undefined ? result.rows : watch.rows(text, result.rows);
      await watch.after?.(text);
      return { rows: rows as R[] };
    },
    async queryPages<R extends object>(
      text: string,
      values: readonly unknown[],
      size: number,
      take: (rows: R[]) => void,
    ) {
      watch.before?.(text, values);
      const { rows } = watch;
      if (rows === undefined) await database.queryPages(text, values, size, take);
      else {
        const all: Record<string, unknown>[] = [];
        await database.queryPages<Record<string, unknown>>(text, values, size, (page) => {
          for (const row of page) all.push(row);
        });
        const given = rows(text, all) as R[];
        for (let at = 0; at < given.length; at += size) take(given.slice(at, at + size));
        if (given.length % size === 0) take([]);
      }
      await watch.after?.(text);
    },
  };
}
