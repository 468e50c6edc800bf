import { promisifyRequest, type UseStore } from 'idb-keyval';
import type { RememberedResult, SavedWorkspace } from '../protocol';
import { reasonOf, wordMessage } from '../../core/messages';

/** Where the result a page last showed is kept for the next boot (remembered-result.ts). */
export interface ResultMemory {
  readRemembered(): Promise<unknown>;
  writeRemembered(entry: RememberedEntry): Promise<void>;
}

export interface RememberedEntry {
  readonly key: string;
  readonly result: RememberedResult;
}

/** What storage held at start. `filesMissing`: the workspace entry was there but its files were not. */
export type StoredWorkspace = { readonly workspace: unknown; readonly filesMissing: boolean } | undefined;

/** Where the workspace survives a reload. The worker reads it back through a schema: it is a boundary. */
export interface WorkspaceStorage {
  read(): Promise<StoredWorkspace>;
  write(workspace: SavedWorkspace): Promise<void>;
  clear(): Promise<void>;
  /** `listener` hears when what was saved disappears while the page is open (site data cleared). */
  watch(listener: () => void): void;
}

/** Storage did not answer in time; it is then left alone for the rest of the session. */
export class StorageTimeoutError extends Error {
  constructor(readonly seconds: number) {
    super(`browser storage did not answer within ${seconds} seconds`);
    this.name = 'StorageTimeoutError';
  }
}

/** What this page saved is gone: someone cleared the site's data while the page was open. */
export class StorageClearedError extends Error {
  constructor() {
    super('the saved workspace was removed from browser storage while the page was open');
    this.name = 'StorageClearedError';
  }
}

const WORKSPACE_KEY = 'workspace';
/** The dropped files live under their own key: a toggle saves the selection, not a large file again. */
const LOADS_KEY = 'loads';
/** The result last shown, for the next boot (remembered-result.ts); a reset clears it with the rest. */
const REMEMBERED_KEY = 'remembered';
const STORE_NAME = 'workspace';
/** How often, and how far apart, storage is looked at again after the browser closed the connection. */
const CLOSE_CHECKS = 10;
const CLOSE_CHECK_INTERVAL_MS = 200;

export interface IndexedDbStorageOptions {
  readonly databaseName?: string;
  /** How long one open or transaction may take before storage is taken for unresponsive. */
  readonly timeoutMs?: number;
  /** The factory to open with; the worker's own by default, read only when first needed. */
  readonly factory?: () => IDBFactory;
}

/**
 * IndexedDB, opened on first use (a browser that refuses it must not stop the worker from loading).
 * Files are stored as Blobs, so large files are not copied into strings, and written only when the
 * list of loads changes. Three faults are told apart: storage refused (the error is passed on), storage
 * that never answers (StorageTimeoutError after `timeoutMs`, then every later call fails at once), and
 * saved data that vanished (the connection is closed by the browser, or the files entry is missing
 * when the workspace entry is about to be written on its own): StorageClearedError and `watch`.
 * A workspace saved before the split (files inside the workspace entry) is still read.
 */
export function createIndexedDbStorage({
  databaseName = 'context-compiler',
  timeoutMs = 5_000,
  factory = () => indexedDB,
}: IndexedDbStorageOptions = {}): WorkspaceStorage & ResultMemory {
  let connection: Promise<IDBDatabase> | null = null;
  let unresponsive: StorageTimeoutError | null = null;
  // The loads array last written, and whether a files entry should now exist in storage.
  let writtenLoads: SavedWorkspace['loads'] | null = null;
  let filesSaved = false;
  let listener: () => void = () => undefined;

  const timed = <T>(work: Promise<T>): Promise<T> => {
    if (unresponsive) return Promise.reject(unresponsive);
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        unresponsive = new StorageTimeoutError(timeoutMs / 1000);
        reject(unresponsive);
      }, timeoutMs);
      work.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  };

  let checking = false;
  /** After the browser closed the connection: were the saved entries taken with it? */
  const checkAfterClose = async () => {
    if (!filesSaved || checking) return;
    checking = true;
    try {
      for (let attempt = 0; attempt < CLOSE_CHECKS; attempt += 1) {
        try {
          const remaining = await useStore('readonly', (store) => promisifyRequest(store.count(LOADS_KEY)));
          if (remaining === 0) {
            filesSaved = false;
            writtenLoads = null;
            listener();
          }
          return;
        } catch {
          // The browser closes the connection before it deletes, so a reopened one can be closed too: look again
          // shortly.
          await new Promise((resolve) => setTimeout(resolve, CLOSE_CHECK_INTERVAL_MS));
        }
      }
      // Storage that cannot be checked will fail the next write, which says so.
    } finally {
      checking = false;
    }
  };

  const open = (): Promise<IDBDatabase> => {
    if (connection) return connection;
    const opening = new Promise<IDBDatabase>((resolve, reject) => {
      // Throws where storage is refused (some private modes): that is a rejection, not a crash.
      const request = factory().open(databaseName);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE_NAME);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    connection = opening;
    opening.then(
      (db) => {
        // Fired only when the browser closes the connection itself: site data cleared, disk gone.
        db.onclose = () => {
          connection = null;
          void checkAfterClose();
        };
        // Someone deletes the database (developer tools, another tab): step aside, then see what is left.
        db.onversionchange = () => {
          db.close();
          connection = null;
          void checkAfterClose();
        };
      },
      () => {
        connection = null;
      },
    );
    return opening;
  };

  const useStore: UseStore = (mode, callback) =>
    timed(open().then((db) => callback(db.transaction(STORE_NAME, mode).objectStore(STORE_NAME))));

  return {
    async read() {
      const [workspace, loads] = await useStore('readonly', (store) =>
        Promise.all([promisifyRequest(store.get(WORKSPACE_KEY)), promisifyRequest(store.get(LOADS_KEY))]),
      );
      filesSaved = loads !== undefined;
      if (workspace === undefined) return undefined;
      const inside = workspace !== null && typeof workspace === 'object' && 'loads' in workspace;
      if (loads === undefined || inside) return { workspace, filesMissing: loads === undefined && !inside };
      return { workspace: { ...workspace, loads }, filesMissing: false };
    },
    async write({ loads, ...rest }) {
      const newFiles = loads !== writtenLoads;
      await useStore('readwrite', async (store) => {
        // Writing the selection alone over a store whose files were deleted would save a workspace without them.
        if (filesSaved && (await promisifyRequest(store.count(LOADS_KEY))) === 0) {
          filesSaved = false;
          writtenLoads = null;
          throw new StorageClearedError();
        }
        if (newFiles) store.put(loads, LOADS_KEY);
        store.put(rest, WORKSPACE_KEY);
        await promisifyRequest(store.transaction);
      });
      writtenLoads = loads;
      filesSaved = true;
    },
    async clear() {
      await useStore('readwrite', (store) => {
        store.clear();
        return promisifyRequest(store.transaction);
      });
      writtenLoads = null;
      filesSaved = false;
    },
    watch(next) {
      listener = next;
    },
    readRemembered: () => useStore('readonly', (store) => promisifyRequest(store.get(REMEMBERED_KEY))),
    async writeRemembered(entry) {
      await useStore('readwrite', (store) => {
        store.put(entry, REMEMBERED_KEY);
        return promisifyRequest(store.transaction);
      });
    },
  };
}

/** Explains a storage failure in words a user can act on. */
export function storageFailureMessage(error: unknown): string {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'QuotaExceededError') return wordMessage('STORAGE_FULL');
  if (error instanceof StorageTimeoutError) return wordMessage('STORAGE_TIMED_OUT', { seconds: error.seconds });
  if (typeof indexedDB === 'undefined' || name === 'SecurityError') return wordMessage('STORAGE_NOT_ALLOWED');
  return wordMessage('STORAGE_FAILED', { reason: reasonOf(error) });
}

/** What the user is told when saved data vanished while the page was open. */
export const STORAGE_CLEARED_MESSAGE = wordMessage('STORAGE_CLEARED');
