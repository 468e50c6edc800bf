import 'fake-indexeddb/auto';
import { createStore, del, get, set } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import type { SavedWorkspace } from './protocol';
import { createIndexedDbStorage } from './workspace-storage';

let stores = 0;
const freshStore = () => createStore(`storage-test-${(stores += 1)}`, 'workspace');

const loads: SavedWorkspace['loads'] = [{ baseKey: 'retry-policy', files: [{ name: 'records.jsonl', blob: new Blob(['{"id":"a"}\n']) }] }];
const workspace = (controls: string[]): SavedWorkspace => ({ version: 1, loads, contractEdits: {}, selection: { scenarioKey: 'loaded', controls, lateChanges: [] } });

describe('createIndexedDbStorage', () => {
  it('reads back what it wrote, files included', async () => {
    const storage = createIndexedDbStorage(freshStore());
    await storage.write(workspace(['c1']));
    const read = (await storage.read()) as SavedWorkspace;
    expect(read.selection.controls).toEqual(['c1']);
    expect(read.loads[0]?.files[0]?.name).toBe('records.jsonl');
  });

  it('writes the files again only when the list of loads changes', async () => {
    const store = freshStore();
    const storage = createIndexedDbStorage(store);
    await storage.write(workspace([]));
    await del('loads', store);
    // A toggle: same loads, new selection. Had the files been written again, the key would be back.
    await storage.write(workspace(['c1']));
    expect(await get('loads', store)).toBeUndefined();
    await storage.write({ ...workspace(['c1']), loads: [...loads] });
    expect(await get('loads', store)).toHaveLength(1);
  });

  it('still reads a workspace saved with its files inside, as before the split', async () => {
    const store = freshStore();
    await set('workspace', workspace(['legacy']), store);
    const read = (await createIndexedDbStorage(store).read()) as SavedWorkspace;
    expect(read.selection.controls).toEqual(['legacy']);
    expect(read.loads).toHaveLength(1);
  });

  it('forgets everything on clear', async () => {
    const storage = createIndexedDbStorage(freshStore());
    await storage.write(workspace([]));
    await storage.clear();
    expect(await storage.read()).toBeUndefined();
  });
});
