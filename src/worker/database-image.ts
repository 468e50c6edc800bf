import type { Database, Sqlite3Static } from '@sqlite.org/sqlite-wasm';

/** Where images are kept: the OPFS pool's files in the app, a Map in a test. */
export interface ImageFiles {
  names(): readonly string[];
  /** The whole file, in one read. */
  read(name: string): Uint8Array;
  /** Writes a file chunk by chunk; its name exists only once every chunk is written (the pool's `importDb`). */
  write(name: string, nextChunk: () => Promise<Uint8Array | undefined>): Promise<void>;
  unlink(name: string): void;
}

/** The image on disk of the database the compiler works on in memory, as the session sees it. */
export interface DiskImage {
  /**
   * Writes the database as it is now to disk as a new image and returns its size; `between` is awaited before
   * each chunk, and a throw there stops the save. The previous image stays until the new one is complete.
   */
  save(between: () => Promise<void>): Promise<number>;
  /** Deletes every image: the next reload starts from the files saved in IndexedDB, if any. */
  clear(): void;
}

/** A save that failed while writing, with the size the image needed. */
export class ImageNotSaved extends Error {
  constructor(
    readonly bytes: number,
    readonly reason: unknown,
  ) {
    super(reason instanceof Error ? reason.message : String(reason));
    this.name = 'ImageNotSaved';
  }
}

export interface DatabaseImages {
  /** Copies the newest image into `target`, an empty database in memory; false when there is none. Older images are deleted. */
  restoreInto(target: Database): boolean;
  /** Writes `source` as it is now to a new image, `chunkBytes` at a time (see `DiskImage.save`). */
  save(source: Database, chunkBytes: number, between: () => Promise<void>): Promise<number>;
  clear(): void;
}

const IMAGE_NAME = /^\/workspace-(\d+)\.sqlite3$/;
/**
 * The database an earlier version kept in the pool and wrote in place, with its journal. It is not read (a tab
 * closed mid-commit would leave it needing its journal): the saved files are read once instead.
 */
const IN_PLACE_NAMES = new Set(['/workspace.sqlite3', '/workspace.sqlite3-journal']);

const imageName = (generation: number) => `/workspace-${generation}.sqlite3`;
const generationOf = (name: string): number | null => {
  const match = IMAGE_NAME.exec(name);
  return match ? Number(match[1]) : null;
};

/**
 * Copies of the workspace database, which the compiler uses in memory, kept on disk so that a reload does not
 * parse and index again. A save serializes the database in one call (one consistent state, whatever commits
 * come while it is written) and writes it to a new numbered file whose name appears only when every chunk is
 * written, so a tab closed in the middle of a save leaves the previous image as it was.
 */
export function createDatabaseImages(sqlite3: Sqlite3Static, files: ImageFiles): DatabaseImages {
  const { capi, wasm } = sqlite3;

  const images = (): { name: string; generation: number }[] =>
    files
      .names()
      .flatMap((name) => {
        const generation = generationOf(name);
        return generation === null ? [] : [{ name, generation }];
      })
      .sort((a, b) => b.generation - a.generation);

  const dropInPlace = () => {
    for (const name of files.names()) if (IN_PLACE_NAMES.has(name)) files.unlink(name);
  };

  return {
    restoreInto(target) {
      dropInPlace();
      const [newest, ...older] = images();
      for (const { name } of older) files.unlink(name);
      if (newest === undefined) return false;
      const bytes = files.read(newest.name);
      // The image is opened in place as a read-only database in memory, then copied page by page into the target.
      const image = new sqlite3.oo1.DB(':memory:', 'c');
      try {
        const pointer = wasm.allocFromTypedArray(bytes);
        const code = capi.sqlite3_deserialize(image.pointer ?? 0, 'main', pointer, bytes.byteLength, bytes.byteLength, capi.SQLITE_DESERIALIZE_FREEONCLOSE | capi.SQLITE_DESERIALIZE_READONLY);
        if (code !== capi.SQLITE_OK) throw new Error(`the saved database could not be opened: ${capi.sqlite3_js_rc_str(code)}`);
        target.exec(`PRAGMA page_size = ${Number(image.selectValue('PRAGMA page_size'))}`);
        const backup = capi.sqlite3_backup_init(target.pointer ?? 0, 'main', image.pointer ?? 0, 'main');
        if (!backup) throw new Error(`the saved database could not be copied: ${capi.sqlite3_errmsg(target.pointer ?? 0)}`);
        const stepped = capi.sqlite3_backup_step(backup, -1);
        const finished = capi.sqlite3_backup_finish(backup);
        if (stepped !== capi.SQLITE_DONE || finished !== capi.SQLITE_OK) throw new Error(`the saved database could not be copied: ${capi.sqlite3_js_rc_str(stepped === capi.SQLITE_DONE ? finished : stepped)}`);
      } finally {
        image.close();
      }
      return true;
    },

    async save(source, chunkBytes, between) {
      const existing = images();
      const name = imageName((existing[0]?.generation ?? 0) + 1);
      const bytes = capi.sqlite3_js_db_export(source);
      let offset = 0;
      try {
        await files.write(name, async () => {
          if (offset >= bytes.byteLength) return undefined;
          await between();
          const chunk = bytes.subarray(offset, offset + chunkBytes);
          offset += chunk.byteLength;
          return chunk;
        });
      } catch (error) {
        throw new ImageNotSaved(bytes.byteLength, error);
      }
      for (const older of existing) files.unlink(older.name);
      dropInPlace();
      return bytes.byteLength;
    },

    clear() {
      dropInPlace();
      for (const { name } of images()) files.unlink(name);
    },
  };
}
