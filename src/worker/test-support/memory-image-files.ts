import type { Database, Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import type { ImageFiles } from '../database-image';

/**
 * Image files in SQLite's `memdb` VFS, for tests in Node where there is no OPFS: a memdb database named with
 * a leading slash is shared by every connection that opens it, and lives while one does, so each file keeps
 * one connection open until it is unlinked.
 */
export function memoryImageFiles(sqlite3: Sqlite3Static): ImageFiles & { readonly open: (name: string) => Database } {
  const kept = new Map<string, Database>();
  const open = (name: string) => new sqlite3.oo1.DB(`file:${name}?vfs=memdb`, 'c');
  return {
    names: () => [...kept.keys()],
    open(name) {
      if (!kept.has(name)) kept.set(name, open(name));
      return open(name);
    },
    unlink(name) {
      kept.get(name)?.close();
      kept.delete(name);
    },
  };
}
