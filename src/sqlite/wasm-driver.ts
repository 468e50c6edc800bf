import type { Database, Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import type { SqlDriver, SqlStatement, SqlValue } from '../core/search/driver';

/** SQLITE_LIMIT_VARIABLE_NUMBER, read from the build rather than assumed. */
const SQLITE_LIMIT_VARIABLE_NUMBER = 9;

/**
 * The one SqlDriver, over @sqlite.org/sqlite-wasm's oo1 API. The CLI uses it with an in-memory database,
 * the app's worker with its database in OPFS (or in memory when OPFS is unavailable): Node and the browser
 * run the same SQLite and the same FTS5.
 */
export function createWasmDriver(sqlite3: Sqlite3Static, db: Database = new sqlite3.oo1.DB(':memory:', 'c')): SqlDriver {
  const maxParameters = sqlite3.capi.sqlite3_limit(db.pointer ?? 0, SQLITE_LIMIT_VARIABLE_NUMBER, -1);
  db.exec('PRAGMA temp_store = MEMORY;');

  const prepare = (sql: string): SqlStatement => {
    const statement = db.prepare(sql);
    return {
      run(params) {
        if (params && params.length > 0) statement.bind(params as SqlValue[]);
        statement.step();
        statement.reset(true);
      },
      all(params) {
        if (params && params.length > 0) statement.bind(params as SqlValue[]);
        const rows: SqlValue[][] = [];
        while (statement.step()) rows.push(statement.get([]) as SqlValue[]);
        statement.reset(true);
        return rows;
      },
      finalize() {
        statement.finalize();
      },
    };
  };

  return {
    maxParameters,
    exec(sql) {
      db.exec(sql);
    },
    prepare,
    all(sql, params) {
      const statement = prepare(sql);
      try {
        return statement.all(params);
      } finally {
        statement.finalize();
      }
    },
    transaction(work) {
      return db.transaction(() => work());
    },
  };
}
