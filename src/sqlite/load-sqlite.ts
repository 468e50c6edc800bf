import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import type { SqlDriver } from '../adapters/sqlite/driver';
import { createWasmDriver } from './wasm-driver';

/** Loads SQLite WASM and opens a fresh in-memory database. Both composition roots call this. */
export async function openInMemoryDatabase(): Promise<SqlDriver> {
  const sqlite3 = await sqlite3InitModule();
  return createWasmDriver(sqlite3);
}
