import 'fake-indexeddb/auto';
import { createStore, del, get, set } from 'idb-keyval';
import { describe, expect, it, vi } from 'vitest';
import type { SavedWorkspace } from '../protocol';
import {
  createIndexedDbStorage,
  StorageClearedError,
  storageFailureMessage,
  StorageTimeoutError,
} from './workspace-storage';

let databases = 0;
/** A storage on a database of its own, and a second connection to look at and change it behind its back. */
function fresh(options: { timeoutMs?: number } = {}) {
  const databaseName = `storage-test-${(databases += 1)}`;
  return {
    databaseName,
    storage: createIndexedDbStorage({ databaseName, ...options }),
    store: () => createStore(databaseName, 'workspace'),
  };
}

const loads: SavedWorkspace['loads'] = [
  { baseKey: 'retry-policy', files: [{ name: 'records.jsonl', blob: new Blob(['{"id":"a"}\n']) }] },
];
const workspace = (controls: string[], files = loads): SavedWorkspace => ({
  version: 1,
  loads: files,
  contractEdits: {},
  selection: { scenarioKey: 'loaded', controls, lateChanges: [] },
});

describe('createIndexedDbStorage', () => {
  it('reads back what it wrote, files included', async () => {
    const { storage } = fresh();
    await storage.write(workspace(['c1']));
    const read = await storage.read();
    expect(read?.filesMissing).toBe(false);
    expect(read?.workspace).toMatchObject({
      selection: { controls: ['c1'] },
      loads: [{ files: [{ name: 'records.jsonl' }] }],
    });
  });

  it('writes the files again only when the list of loads changes', async () => {
    const { storage, store } = fresh();
    await storage.write(workspace([]));
    await set('loads', 'written by the test', store());
    // A toggle: same loads, new selection. Had the files been written again, the test's value would be gone.
    await storage.write(workspace(['c1']));
    expect(await get('loads', store())).toBe('written by the test');
    await storage.write(workspace(['c1'], [...loads]));
    expect(await get('loads', store())).toHaveLength(1);
  });

  it('refuses to save the selection alone once the files entry has been deleted, and leaves storage as it found it', async () => {
    const { storage, store } = fresh();
    await storage.write(workspace(['before']));
    await del('loads', store());
    await expect(storage.write(workspace(['after']))).rejects.toBeInstanceOf(StorageClearedError);
    expect(await get('workspace', store())).toMatchObject({ selection: { controls: ['before'] } });
    // Saving again on purpose writes everything.
    await storage.write(workspace(['after']));
    expect(await get('loads', store())).toHaveLength(1);
  });

  it('says the files are missing when only the workspace entry is left, instead of calling it an unknown format', async () => {
    const { storage, store } = fresh();
    const { loads: _files, ...rest } = workspace(['c1']);
    await set('workspace', rest, store());
    expect(await storage.read()).toEqual({ workspace: rest, filesMissing: true });
  });

  it('still reads a workspace saved with its files inside, as before the split', async () => {
    const { storage, store } = fresh();
    await set('workspace', workspace(['legacy']), store());
    const read = await storage.read();
    expect(read).toMatchObject({
      filesMissing: false,
      workspace: { selection: { controls: ['legacy'] }, loads: [{ baseKey: 'retry-policy' }] },
    });
  });

  it('forgets everything on clear', async () => {
    const { storage } = fresh();
    await storage.write(workspace([]));
    await storage.clear();
    expect(await storage.read()).toBeUndefined();
  });

  it('applies writes and a clear asked for without waiting in the order they were asked for (a toggle does not wait for its write)', async () => {
    const { storage } = fresh();
    await Promise.all([storage.write(workspace(['first'])), storage.write(workspace(['second'])), storage.clear()]);
    expect(await storage.read()).toBeUndefined();
    await Promise.all([storage.clear(), storage.write(workspace(['a'])), storage.write(workspace(['a', 'b']))]);
    expect((await storage.read())?.workspace).toMatchObject({ selection: { controls: ['a', 'b'] } });
  });

  it('notices the database being deleted while the page is open', async () => {
    const { databaseName, storage } = fresh();
    const cleared = vi.fn();
    storage.watch(cleared);
    await storage.write(workspace([]));
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.deleteDatabase(databaseName);
      request.onsuccess = () => resolve();
      request.onerror = () => reject(request.error);
    });
    await vi.waitFor(() => expect(cleared).toHaveBeenCalledTimes(1));
  });

  it('gives up on storage that never answers, and then fails at once', async () => {
    const silent = { open: () => ({}) } as unknown as IDBFactory;
    const storage = createIndexedDbStorage({ databaseName: 'silent', timeoutMs: 50, factory: () => silent });
    const error = await storage.read().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StorageTimeoutError);
    expect(storageFailureMessage(error)).toBe(
      'Browser storage did not answer within 0.05 seconds: working in memory only, so loaded files and edits will not survive a reload. Reload the page to try storage again.',
    );
    // The same error again, not a second wait: the session goes on in memory without stalling every toggle.
    expect(await storage.write(workspace([])).catch((caught: unknown) => caught)).toBe(error);
  });

  it('reports storage the browser refuses as a rejection, in words a user can act on', async () => {
    const refusing = {
      open: () => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    } as unknown as IDBFactory;
    const storage = createIndexedDbStorage({ databaseName: 'refused', factory: () => refusing });
    const error = await storage.read().catch((caught: unknown) => caught);
    expect(storageFailureMessage(error)).toMatch(/^Browser storage \(IndexedDB\) is not allowed here/);
  });
});
