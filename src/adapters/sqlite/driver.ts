/**
 * What the core needs from SQLite. The core never imports a SQLite build: the CLI and the worker
 * inject one (both use @sqlite.org/sqlite-wasm, so Node and the browser run the same FTS5).
 */
export type SqlValue = string | number | null;

export interface SqlStatement {
  run(params?: readonly SqlValue[]): void;
  /** Rows as arrays, in column order. */
  all(params?: readonly SqlValue[]): SqlValue[][];
  finalize(): void;
}

export interface SqlDriver {
  /** One or more statements without parameters (schema, pragmas). */
  exec(sql: string): void;
  prepare(sql: string): SqlStatement;
  all(sql: string, params?: readonly SqlValue[]): SqlValue[][];
  /** Runs `work` inside one transaction; rolls back if it throws. */
  transaction<T>(work: () => T): T;
  /** SQLite's limit on bound parameters, so the lowering can refuse instead of failing at run time. */
  readonly maxParameters: number;
}
