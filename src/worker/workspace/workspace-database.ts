import sqlite3InitModule, { type Database } from '@sqlite.org/sqlite-wasm';
import type { SqlDriver } from '../../adapters/sqlite/driver';
import { createWasmDriver } from '../../sqlite/wasm-driver';
import { createDatabaseImages, type DatabaseImages, type DiskImage } from './database-image';
import type { DatabaseState } from '../protocol';
import { reasonOf, wordMessage } from '../../core/messages';

/** The Web Lock held by the tab whose worker has the database; the pool's files can be open in one tab only. */
const DATABASE_LOCK = 'context-compiler-database';
const POOL = { name: 'context-compiler-pool', directory: '.context-compiler-pool', initialCapacity: 6 } as const;
/**
 * Bytes of the image read and written per task, so a toggle waits little for its turn; a larger chunk also grows
 * the wasm heap by its buffer for good (docs/DECISIONS.md).
 */
const IMAGE_CHUNK_BYTES = 2 * 1024 * 1024;

export interface WorkspaceDatabase {
  /** Always a database in memory: indexing through the OPFS VFS page by page is far slower (docs/DECISIONS.md). */
  readonly driver: SqlDriver;
  readonly state: DatabaseState;
  /** Null when the database cannot be kept on disk (see `state`). */
  readonly image: DiskImage | null;
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

/**
 * Opens the workspace database in memory, restored from its image in the Origin Private File System (kept
 * with sqlite-wasm's `opfs-sahpool` VFS, which needs no COOP/COEP headers), or says why it cannot be kept
 * on disk: another tab holds the pool, the browser has no OPFS sync access handles, or storage was refused.
 */
export async function openWorkspaceDatabase(): Promise<WorkspaceDatabase> {
  const sqlite3 = await sqlite3InitModule();
  /** A database in memory holding the newest image, or empty when there is none or it cannot be read. */
  const restoredFrom = (images: DatabaseImages): Database => {
    const db = new sqlite3.oo1.DB(':memory:', 'c');
    try {
      const start = performance.now();
      // A worker-side marker: the reload test and the benchmark read how long the image took to read.
      if (images.restoreInto(db)) performance.measure('cc:restore-image', { start, end: performance.now() });
      return db;
    } catch {
      // An image that cannot be read is only a copy: the workspace's files, saved in IndexedDB, are read again instead.
      db.close();
      images.clear();
      return new sqlite3.oo1.DB(':memory:', 'c');
    }
  };
  const inMemory = (state: DatabaseState): WorkspaceDatabase => ({
    driver: createWasmDriver(sqlite3),
    state,
    image: null,
  });
  if (
    typeof navigator.storage?.getDirectory !== 'function' ||
    !('FileSystemSyncAccessHandle' in globalThis) ||
    typeof navigator.locks?.request !== 'function'
  ) {
    return inMemory({
      kind: 'memory',
      reason: 'unsupported',
      saves: true,
      message: wordMessage('DATABASE_NO_OPFS'),
    });
  }
  if (!(await holdLock(DATABASE_LOCK))) {
    return inMemory({
      kind: 'memory',
      reason: 'other-tab',
      saves: false,
      message: wordMessage('DATABASE_OTHER_TAB'),
    });
  }
  try {
    const pool = await sqlite3.installOpfsSAHPoolVfs({ ...POOL, preserveOnInitFailure: true });
    const images = createDatabaseImages(sqlite3, {
      names: () => pool.getFileNames(),
      read: (name) => pool.exportFile(name),
      write: async (name, nextChunk) => void (await pool.importDb(name, nextChunk)),
      unlink: (name) => void pool.unlink(name),
    });
    const restored = restoredFrom(images);
    // Deleted rows are overwritten, not left in free pages: an image saved after a reset or a removal holds nothing of
    // them.
    restored.exec('PRAGMA secure_delete = ON;');
    // The database lives in the wasm heap, which CDP's heap figures count unreliably: the benchmark reads its size
    // here.
    const markWasmMemory = () => performance.mark('cc:wasm-memory', { detail: sqlite3.wasm.heap8u().byteLength });
    markWasmMemory();
    const save = async (between: () => Promise<void>) => {
      const bytes = await images.save(restored, IMAGE_CHUNK_BYTES, between);
      markWasmMemory();
      return bytes;
    };
    return {
      driver: createWasmDriver(sqlite3, restored),
      state: { kind: 'opfs' },
      image: { save, clear: () => images.clear() },
    };
  } catch (error) {
    return inMemory({
      kind: 'memory',
      reason: 'failed',
      saves: true,
      message: wordMessage('DATABASE_NOT_KEPT', { reason: reasonOf(error) }),
    });
  }
}
