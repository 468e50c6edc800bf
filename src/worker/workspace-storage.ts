import { clear, createStore, get, set, type UseStore } from 'idb-keyval';
import type { SavedWorkspace } from './protocol';

/** Where the workspace survives a reload. The worker reads it back through a schema: it is a boundary. */
export interface WorkspaceStorage {
  read(): Promise<unknown>;
  write(workspace: SavedWorkspace): Promise<void>;
  clear(): Promise<void>;
}

const WORKSPACE_KEY = 'workspace';
/** The dropped files live under their own key: a toggle saves the selection, not a 177 MB file again. */
const LOADS_KEY = 'loads';

/**
 * IndexedDB through idb-keyval: it stores the dropped files as Blobs, so large files are not copied into
 * strings. The files are written only when the list of loads changes. A workspace saved before the split
 * (files inside the workspace entry) is still read.
 */
export function createIndexedDbStorage(store: UseStore = createStore('context-compiler', 'workspace')): WorkspaceStorage {
  let writtenLoads: SavedWorkspace['loads'] | null = null;
  return {
    async read() {
      const [workspace, loads] = await Promise.all([get<unknown>(WORKSPACE_KEY, store), get<unknown>(LOADS_KEY, store)]);
      if (workspace === null || typeof workspace !== 'object' || loads === undefined) return workspace;
      return { ...workspace, loads };
    },
    async write({ loads, ...rest }) {
      if (loads !== writtenLoads) {
        await set(LOADS_KEY, loads, store);
        writtenLoads = loads;
      }
      await set(WORKSPACE_KEY, rest, store);
    },
    async clear() {
      writtenLoads = null;
      await clear(store);
    },
  };
}

/** Explains a storage failure in words a user can act on. */
export function storageFailureMessage(error: unknown): string {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'QuotaExceededError') return 'Browser storage is full: loaded files and edits will not survive a reload. Free some space or reset.';
  if (typeof indexedDB === 'undefined') return 'Browser storage (IndexedDB) is unavailable here: loaded files and edits will not survive a reload.';
  return `Browser storage failed (${error instanceof Error ? error.message : String(error)}): loaded files and edits will not survive a reload.`;
}
