import sqlite3InitModule, { type Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import type { SqlDriver } from '../core/search/driver';
import { createWasmDriver } from '../sqlite/wasm-driver';
import type { DatabaseState } from './protocol';

/** The Web Lock held by the tab whose worker has the database; the pool's files can be open in one tab only. */
const DATABASE_LOCK = 'context-compiler-database';
const POOL = { name: 'context-compiler-pool', directory: '.context-compiler-pool', initialCapacity: 6 } as const;
const DATABASE_FILE = '/workspace.sqlite3';

export interface WorkspaceDatabase {
  readonly driver: SqlDriver;
  readonly state: DatabaseState;
  /** A fresh database in memory, from the same SQLite module: the fallback when the one on disk fails later. */
  readonly openInMemory: () => SqlDriver;
}

/**
 * How long to wait for the lock: a worker the page restarts after losing one finds the lock still held for a
 * moment while the browser tears the old worker down; another tab holds it for as long as it is open.
 */
const LOCK_WAIT_MS = 2_000;

/** Holds `name` for as long as this worker lives; false when another tab still holds it after LOCK_WAIT_MS. */
function holdLock(name: string): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    navigator.locks
      .request(name, { signal: AbortSignal.timeout(LOCK_WAIT_MS) }, () => {
        resolve(true);
        return new Promise<never>(() => undefined);
      })
      .catch(() => resolve(false));
  });
}

const inMemory = (sqlite3: Sqlite3Static, state: DatabaseState): WorkspaceDatabase => ({ driver: createWasmDriver(sqlite3), state, openInMemory: () => createWasmDriver(sqlite3) });

/**
 * Opens the workspace database in the Origin Private File System with sqlite-wasm's `opfs-sahpool` VFS
 * (no COOP/COEP headers needed), or says why it falls back to a database in memory: another tab holds the
 * pool, the browser has no OPFS sync access handles, or storage was refused.
 */
export async function openWorkspaceDatabase(): Promise<WorkspaceDatabase> {
  const sqlite3 = await sqlite3InitModule();
  if (typeof navigator.storage?.getDirectory !== 'function' || !('FileSystemSyncAccessHandle' in globalThis) || typeof navigator.locks?.request !== 'function') {
    return inMemory(sqlite3, { kind: 'memory', reason: 'unsupported', saves: true, message: 'This browser cannot keep the workspace database on disk (no Origin Private File System access from workers): every reload reads, parses and indexes the loaded files again, which is slower.' });
  }
  if (!(await holdLock(DATABASE_LOCK))) {
    return inMemory(sqlite3, { kind: 'memory', reason: 'other-tab', saves: false, message: 'This workspace is open in another tab, which holds its database. This tab works on a copy in memory, slower to load, and saves nothing: close the other tab and reload to work on the saved workspace here.' });
  }
  try {
    const pool = await sqlite3.installOpfsSAHPoolVfs({ ...POOL, preserveOnInitFailure: true });
    const db = new pool.OpfsSAHPoolDb(DATABASE_FILE);
    // Loads commit a slice at a time. A journal truncated rather than deleted, and no flush at each commit: a
    // crashed tab loses nothing the OS was handed (only a crash of the machine could), and the database holds
    // nothing that cannot be rebuilt from the files saved in IndexedDB. A 32 MB page cache for 100,000 rows' indexes.
    // SQLite's default 4 KB pages: 64 KB pages saved a little on a 10,000-record load (one noisy run) but make every
    // small commit (a toggle, a scenario switch) write and journal sixteen times the bytes.
    db.exec('PRAGMA journal_mode = TRUNCATE; PRAGMA synchronous = OFF; PRAGMA cache_size = -32768;');
    return { driver: createWasmDriver(sqlite3, db), state: { kind: 'opfs' }, openInMemory: () => createWasmDriver(sqlite3) };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return inMemory(sqlite3, { kind: 'memory', reason: 'failed', saves: true, message: `The workspace database could not be opened on disk (${detail}): every reload reads, parses and indexes the loaded files again, which is slower.` });
  }
}
