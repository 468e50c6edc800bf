import type { RecordSet } from '../../core/phases/1-validate/validate';
import { reasonOf, wordMessage } from '../../core/messages';
import type { CorpusIndex } from './corpus-index';
import { ImageNotSaved, type DiskImage } from './database-image';
import { backgroundTask } from '../next-task';
import type { DatabaseState, SavedLoad } from '../protocol';
import { databaseFullMessage } from './quota';
import type { RecordStore } from './record-store';
import { withDatabase, type Workspace } from './workspace';

/**
 * Records stored per step of the background store. Storing is not waited for by anyone, so its steps are short
 * enough not to delay a toggle (docs/DECISIONS.md).
 */
export const STORE_SLICE = 250;

const IMAGE_NOT_SAVED: DatabaseState = {
  kind: 'memory',
  reason: 'failed',
  saves: true,
  message: wordMessage('DATABASE_NOT_SAVED'),
};

export const IN_MEMORY_DATABASE: DatabaseState = {
  kind: 'memory',
  reason: 'unsupported',
  saves: true,
  message: wordMessage('DATABASE_IN_MEMORY'),
};

/** A reset while the image was being saved: the save stops and leaves nothing. */
class SaveStopped extends Error {}

export interface BackgroundSavesDeps {
  readonly records: RecordStore | null;
  readonly image: DiskImage | null;
  readonly corpus: CorpusIndex;
  /** Where the database's state and notice are kept (the workspace value), and the page told of a change. */
  readonly workspace: Pick<Workspace, 'value' | 'update' | 'notify'>;
  readonly estimateStorage?: () => Promise<{ readonly quota?: number; readonly usage?: number }>;
}

export type BackgroundSaves = ReturnType<typeof createBackgroundSaves>;

/**
 * What survives a reload besides IndexedDB: loads' validated records in the record store, and the database's image
 * on disk, both written in the background one after the other, after the packet is on screen and giving way to
 * the whole-corpus index. A write that fails leaves the previous image; the user is told that a reload will read
 * the files again, and how much space a full disk lacked.
 */
export function createBackgroundSaves({
  records,
  image: disk,
  corpus,
  workspace,
  estimateStorage,
}: BackgroundSavesDeps) {
  let image = disk;
  /** The database's state or notice changed: the page is told. */
  const changed = (database: DatabaseState, notice: string | null): void => {
    workspace.update((value) => withDatabase(value, database, notice));
    workspace.notify();
  };
  /** Whether `load` is still in the workspace: a store of a load that left it is given up. */
  const holds = (load: SavedLoad): boolean => workspace.value().loads.includes(load);
  /** The background stores of loads' records and saves of the image, one after the other. */
  let storing: Promise<void> = Promise.resolve();
  /** A save was asked for and no copy has started since. */
  let imageWanted = false;
  let resets = 0;

  /** Writes the database to its image on disk, a chunk per task. */
  const saveImage = async (): Promise<void> => {
    // The whole-corpus index, which commits a slice per task, goes first: one image then holds both.
    await corpus.idle();
    const target = image;
    if (!target) return;
    // This copy takes in every change so far: a save asked for meanwhile has nothing more to write.
    imageWanted = false;
    const start = performance.now();
    const resetsBefore = resets;
    try {
      const bytes = await target.save(async () => {
        await backgroundTask();
        // A reset deletes what is on disk: a save begun before it must not write the old workspace back.
        if (resets !== resetsBefore) throw new SaveStopped();
      });
      performance.measure('cc:save-image', { start, end: performance.now(), detail: { bytes } });
    } catch (error) {
      const failure = error instanceof ImageNotSaved ? error : new ImageNotSaved(0, error);
      if (failure.reason instanceof SaveStopped) return;
      image = null;
      changed(IMAGE_NOT_SAVED, await databaseFullMessage(failure.reason, failure.bytes, estimateStorage));
    }
  };

  const saveImageInBackground = (): void => {
    if (!image || imageWanted) return;
    imageWanted = true;
    storing = storing.then(async () => {
      await backgroundTask();
      if (imageWanted) await saveImage();
    });
  };
  // An index completed by building some of it is the slowest part to build again: the image takes it in.
  corpus.onBuilt(saveImageInBackground);

  return {
    clearNotice(): void {
      workspace.update((value) => withDatabase(value, value.database, null));
    },
    /** Whether the record store keeps loads' records (a load then gets an id in it). */
    storesRecords: (): boolean => records !== null,

    /**
     * Keeps the validated records of a load's records files in the workspace database under the load's id, a
     * slice per task, then saves the database's image: nothing waits for it, and a reload reads a file again only
     * if its records were not stored in full. Given up when the load leaves the workspace (reset, a share link).
     */
    storeInBackground(load: SavedLoad, recordFiles: ReadonlyMap<string, RecordSet>): void {
      const store = records;
      const id = load.stored;
      // Without an image (it could not be saved) the stored records would never reach a reload.
      if (!store || !image || id === undefined || recordFiles.size === 0) return;
      storing = storing.then(async () => {
        await backgroundTask();
        const start = performance.now();
        try {
          for (const [file, recordSet] of recordFiles) {
            // The store keeps records, not the lines that were not records: such a file is read again at a reload.
            if (recordSet.unreadable.length > 0 || recordSet.duplicates.length > 0) continue;
            for (const _ of store.writeSteps(id, file, recordSet, STORE_SLICE)) {
              await backgroundTask();
              // The whole-corpus index goes first: the baseline columns are on screen waiting for it, while the
              // stored records matter only at the next reload.
              await corpus.idle();
              if (!holds(load)) {
                store.remove(id);
                return;
              }
            }
          }
        } catch (error) {
          store.remove(id);
          const notice = wordMessage('RECORDS_NOT_KEPT', { reason: reasonOf(error) });
          changed(workspace.value().database, notice);
          return;
        }
        await saveImage();
        // A worker-side marker: the reload test and the benchmark wait for it before reloading.
        performance.measure('cc:store-records', { start, end: performance.now() });
      });
    },

    /**
     * Keeps only the stored loads a saved workspace names (a save that failed, a load cancelled in a crash leave
     * others).
     */
    retain(ids: readonly string[]): void {
      records?.retain(ids);
    },
    /** The stored records of a load, or null when it has none stored. */
    read(id: string): ReadonlyMap<string, RecordSet> | null {
      return records?.read(id) ?? null;
    },

    /** Deletes the stored records and every image; a save under way stops and writes nothing. */
    clear(): void {
      resets += 1;
      imageWanted = false;
      records?.clear();
      image?.clear();
    },
  };
}
