import type { SqlDriver } from '../../adapters/sqlite/driver';
import { openInMemoryDatabase } from '../../sqlite/load-sqlite';

let shared: Promise<SqlDriver> | null = null;

/** One in-memory database per test file: loading the WASM build is the slow part, not the queries. */
export function sharedDriver(): Promise<SqlDriver> {
  shared ??= openInMemoryDatabase();
  return shared;
}

export function freshDriver(): Promise<SqlDriver> {
  return openInMemoryDatabase();
}
