import type { Database, Sqlite3Static } from '@sqlite.org/sqlite-wasm';

/** Where images are kept: the OPFS pool's files in the app, any VFS's files in a test. */
export interface ImageFiles {
  names(): readonly string[];
  open(name: string): Database;
  unlink(name: string): void;
}

export interface ImageProgress {
  /** Pages copied, of `total`. */
  readonly done: number;
  readonly total: number;
  /** The image's size once complete. */
  readonly bytes: number;
}

/**
 * Copies of the workspace database, which the compiler uses in memory, kept on disk so that a reload does
 * not parse and index again. Each save writes a new numbered image and deletes the older ones only once it
 * is complete, so a tab closed in the middle of a save leaves the previous image as it was.
 */
export interface DatabaseImages {
  /** Copies the newest complete image into `target`; false when there is none. Older and partial images are deleted. */
  restoreInto(target: Database): boolean;
  /** Copies `source` into a new image, `pagesPerStep` pages per step, and returns its size in bytes. */
  saveSteps(source: Database, pagesPerStep: number): Generator<ImageProgress, number>;
  /** Deletes every image. */
  clear(): void;
}

/** The image on disk of the database the compiler works on in memory, as the session sees it. */
export interface DiskImage {
  /** Writes the database as it is now to disk, `pagesPerStep` pages per step; the previous image stays until it is complete. */
  saveSteps(pagesPerStep: number): Generator<ImageProgress, number>;
  /** Deletes the image: the next reload starts from the files saved in IndexedDB, if any. */
  clear(): void;
}

const IMAGE_NAME = /^\/workspace-(\d+)\.sqlite3$/;
/** The database an earlier version kept in OPFS and wrote in place: complete whenever it opens, read once, then replaced. */
const IN_PLACE_NAME = '/workspace.sqlite3';
/**
 * Set in an image's header once its copy has completed. The copy starts with page 1, which carries the
 * source's user_version, so the database in memory always has 0 there.
 */
const COMPLETE = 1;

const imageName = (generation: number) => `/workspace-${generation}.sqlite3`;
const generationOf = (name: string): number | null => {
  const match = IMAGE_NAME.exec(name);
  return match ? Number(match[1]) : null;
};

export function createDatabaseImages(sqlite3: Sqlite3Static, files: ImageFiles): DatabaseImages {
  const { capi } = sqlite3;

  const fail = (db: Database, doing: string): never => {
    throw new Error(`${doing}: ${capi.sqlite3_errmsg(db.pointer ?? 0)}`);
  };

  /**
   * Copies every page of `from` into `to`, a slice per step. A commit to `from` between steps (an in-memory
   * database) starts the copy again from the first page, so the image is always one consistent state.
   */
  function* copySteps(from: Database, to: Database, pagesPerStep: number): Generator<ImageProgress, void> {
    const pageSize = Number(from.selectValue('PRAGMA page_size'));
    const backup = capi.sqlite3_backup_init(to.pointer ?? 0, 'main', from.pointer ?? 0, 'main');
    if (!backup) fail(to, 'the database copy could not start');
    let finished = false;
    try {
      for (;;) {
        const code = capi.sqlite3_backup_step(backup, pagesPerStep);
        if (code === capi.SQLITE_DONE) break;
        if (code !== capi.SQLITE_OK && code !== capi.SQLITE_BUSY && code !== capi.SQLITE_LOCKED) {
          finished = true;
          capi.sqlite3_backup_finish(backup);
          throw new Error(`the database copy failed: ${capi.sqlite3_js_rc_str(code) ?? code}`);
        }
        const total = capi.sqlite3_backup_pagecount(backup);
        yield { done: total - capi.sqlite3_backup_remaining(backup), total, bytes: total * pageSize };
      }
    } finally {
      if (!finished) capi.sqlite3_backup_finish(backup);
    }
  }

  const userVersion = (db: Database) => Number(db.selectValue('PRAGMA user_version'));

  /** The complete images on disk, newest first; the partial ones are deleted. */
  const completeImages = (): string[] => {
    const found = files.names().flatMap((name) => {
      const generation = generationOf(name);
      return generation === null ? (name === IN_PLACE_NAME ? [{ name, generation: 0 }] : []) : [{ name, generation }];
    });
    found.sort((a, b) => b.generation - a.generation);
    const complete: string[] = [];
    for (const { name } of found) {
      let whole = name === IN_PLACE_NAME;
      if (!whole) {
        const db = files.open(name);
        try {
          whole = userVersion(db) === COMPLETE;
        } catch {
          // Not even a database header yet (SQLITE_NOTADB): the copy stopped before its first page.
        } finally {
          db.close();
        }
      }
      if (whole) complete.push(name);
      else files.unlink(name);
    }
    return complete;
  };

  return {
    restoreInto(target) {
      const [newest, ...older] = completeImages();
      for (const name of older) files.unlink(name);
      if (newest === undefined) return false;
      const image = files.open(newest);
      try {
        for (const _ of copySteps(image, target, -1)) {
          // One step copies every page.
        }
      } finally {
        image.close();
      }
      target.exec('PRAGMA user_version = 0');
      return true;
    },

    *saveSteps(source, pagesPerStep) {
      const existing = files.names().flatMap((name) => (generationOf(name) !== null || name === IN_PLACE_NAME ? [name] : []));
      const generation = existing.reduce((newest, name) => Math.max(newest, generationOf(name) ?? 0), 0) + 1;
      const name = imageName(generation);
      let complete = false;
      const image = files.open(name);
      try {
        // A new file nobody reads until it is marked complete: no journal and no flush are needed to keep it safe.
        // The source's page size, so that pages are copied as they are.
        image.exec(`PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = ${Number(source.selectValue('PRAGMA page_size'))};`);
        yield* copySteps(source, image, pagesPerStep);
        image.exec(`PRAGMA user_version = ${COMPLETE}`);
        const bytes = Number(image.selectValue('PRAGMA page_count')) * Number(image.selectValue('PRAGMA page_size'));
        complete = true;
        return bytes;
      } finally {
        image.close();
        if (complete) for (const older of existing) files.unlink(older);
        else files.unlink(name);
      }
    },

    clear() {
      for (const name of files.names()) if (generationOf(name) !== null || name === IN_PLACE_NAME) files.unlink(name);
    },
  };
}
