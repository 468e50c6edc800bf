import { clear, createStore, get, set, type UseStore } from 'idb-keyval';
import type { SavedWorkspace } from './protocol';

/** Where the workspace survives a reload. The worker reads it back through a schema: it is a boundary. */
export interface WorkspaceStorage {
  read(): Promise<unknown>;
  write(workspace: SavedWorkspace): Promise<void>;
  clear(): Promise<void>;
}

const WORKSPACE_KEY = 'workspace';

/** IndexedDB through idb-keyval: it stores the dropped files as Blobs, so large files are not copied into strings. */
export function createIndexedDbStorage(store: UseStore = createStore('context-compiler', 'workspace')): WorkspaceStorage {
  return {
    read: () => get(WORKSPACE_KEY, store),
    write: (workspace) => set(WORKSPACE_KEY, workspace, store),
    clear: () => clear(store),
  };
}

/** Explains a storage failure in words a user can act on. */
export function storageFailureMessage(error: unknown): string {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'QuotaExceededError') return 'Browser storage is full: loaded files and edits will not survive a reload. Free some space or reset.';
  if (typeof indexedDB === 'undefined') return 'Browser storage (IndexedDB) is unavailable here: loaded files and edits will not survive a reload.';
  return `Browser storage failed (${error instanceof Error ? error.message : String(error)}): loaded files and edits will not survive a reload.`;
}
