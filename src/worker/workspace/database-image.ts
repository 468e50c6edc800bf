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
  /**
   * Opens the newest image as `target`'s main database (`target` is a new, empty one in memory); false when there
   * is none. Older images are deleted.
   */
  restoreInto(target: Database): boolean;
  /**
   * Writes `source` as it is now to a new image, `chunkBytes` at a time (see `DiskImage.save`). After a commit
   * made it start again, it awaits `pause` with the wait (ms) before the next attempt; a timer by default.
   */
  save(
    source: Database,
    chunkBytes: number,
    between: () => Promise<void>,
    pause?: (ms: number) => Promise<void>,
  ): Promise<number>;
  clear(): void;
}

const IMAGE_NAME = /^\/workspace-(\d+)\.sqlite3$/;
/**
 * The database an earlier version kept in the pool and wrote in place, with its journal. It is not read (a tab
 * closed mid-commit would leave it needing its journal): the saved files are read once instead.
 */
const IN_PLACE_NAMES = new Set(['/workspace.sqlite3', '/workspace.sqlite3-journal']);

/**
 * Room to grow after a restore, as a share of the image: later writes fill it before SQLite reallocates the buffer at
 * twice what it needs. As much room again as the image keeps a second large load after a reload within the heap,
 * about where a database built in memory ends (docs/DECISIONS.md). Room never written to is not touched, so it
 * costs address space rather than memory.
 */
const GROWTH_ROOM = 1;
/**
 * A restored database may grow to the whole wasm heap (2 GiB), as one created in memory may: SQLite caps a
 * deserialized one at 1 GiB unless told otherwise.
 */
const SIZE_LIMIT_BYTES = 2 ** 31;

/**
 * After a commit made a save start again, the wait before the next attempt: twice as long after each further start,
 * up to the cap. A user who keeps toggling does not keep the worker copying pages that the next toggle makes stale.
 */
const RESTART_WAIT_MS = 500;
const RESTART_WAIT_CAP_MS = 8_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A commit came between two chunks of a paged copy: the pages read so far are of an older state. */
class ChangedWhileSaving extends Error {}

/** The chunks of one save attempt and the image's size; `close` frees what the attempt holds. */
interface ImageCopy {
  readonly size: number;
  next(): Uint8Array | undefined;
  close(): void;
}

const imageName = (generation: number) => `/workspace-${generation}.sqlite3`;
const generationOf = (name: string): number | null => {
  const match = IMAGE_NAME.exec(name);
  return match ? Number(match[1]) : null;
};

/**
 * Copies of the workspace database, which the compiler uses in memory, kept on disk so that a reload does not
 * parse and index again. A save reads the database's pages a chunk at a time (SQLite's `sqlite_dbpage`) and
 * writes them to a new numbered file whose name appears only when every chunk is written, so a tab closed in
 * the middle of a save leaves the previous image as it was. Toggles and the background work go on between
 * chunks; a commit among them makes the pages read so far stale, so the save waits and starts again. It never
 * serializes the database in one call instead: that call blocks the worker and doubles the wasm heap for good
 * (docs/DECISIONS.md). A reload opens the newest image as the working database itself.
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

  /**
   * The database's pages, a chunk of them per call, read while commits are counted: a chunk asked for after a
   * commit throws ChangedWhileSaving rather than mix two states in one image (before the first chunk nothing is
   * stale yet, so the copy simply starts from the state of that moment).
   */
  const pagedCopy = (source: Database, chunkBytes: number): ImageCopy => {
    const pageSize = Number(source.selectValue('PRAGMA main.page_size'));
    const pageCount = () => Number(source.selectValue('PRAGMA main.page_count'));
    const pagesPerChunk = Math.max(1, Math.floor(chunkBytes / pageSize));
    let pages = pageCount();
    let commits = 0;
    capi.sqlite3_commit_hook(
      source.pointer ?? 0,
      () => {
        commits += 1;
        return 0;
      },
      0,
    );
    let nextPage = 1;
    return {
      get size() {
        return pages * pageSize;
      },
      next() {
        if (nextPage === 1) {
          pages = pageCount();
          commits = 0;
        } else if (commits > 0) throw new ChangedWhileSaving();
        if (nextPage > pages) return undefined;
        const last = Math.min(pages, nextPage + pagesPerChunk - 1);
        // One blob per chunk: a row per page would cross the wasm boundary once per page.
        const chunk = source.selectValue(
          "SELECT CAST(group_concat(data, x'') AS BLOB) FROM (SELECT data FROM sqlite_dbpage('main') WHERE pgno BETWEEN ? AND ? ORDER BY pgno)",
          [nextPage, last],
        ) as Uint8Array;
        nextPage = last + 1;
        return chunk;
      },
      close: () => void capi.sqlite3_commit_hook(source.pointer ?? 0, 0, 0),
    };
  };

  /** A buffer for an image of `size` bytes with room to grow, or without room when the heap cannot give that much. */
  const allocateWithRoom = (size: number): { pointer: number; capacity: number } => {
    const roomy = size + Math.ceil(size * GROWTH_ROOM);
    try {
      return { pointer: Number(wasm.alloc(roomy)), capacity: roomy };
    } catch {
      return { pointer: Number(wasm.alloc(size)), capacity: size };
    }
  };

  const raiseSizeLimit = (db: Database) => {
    const limit = wasm.alloc(8);
    try {
      wasm.poke(limit, SIZE_LIMIT_BYTES, 'i64');
      const code = capi.sqlite3_file_control(db.pointer ?? 0, 'main', capi.SQLITE_FCNTL_SIZE_LIMIT, limit);
      if (code !== capi.SQLITE_OK)
        throw new Error(`the saved database could not be given room to grow: ${capi.sqlite3_js_rc_str(code)}`);
    } finally {
      wasm.dealloc(limit);
    }
  };

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
      // The image becomes the target's own storage, a resizeable database in memory: one copy into the wasm heap,
      // far cheaper than a copy page by page into a fresh database (docs/DECISIONS.md).
      const { pointer, capacity } = allocateWithRoom(bytes.byteLength);
      wasm.heap8u().set(bytes, pointer);
      // On failure SQLite frees the buffer itself (FREEONCLOSE).
      const code = capi.sqlite3_deserialize(
        target.pointer ?? 0,
        'main',
        pointer,
        bytes.byteLength,
        capacity,
        capi.SQLITE_DESERIALIZE_FREEONCLOSE | capi.SQLITE_DESERIALIZE_RESIZEABLE,
      );
      if (code !== capi.SQLITE_OK)
        throw new Error(`the saved database could not be opened: ${capi.sqlite3_js_rc_str(code)}`);
      // Opening reads nothing: reading the schema now refuses a damaged image here, where the caller starts afresh.
      target.selectValue('SELECT count(*) FROM sqlite_schema');
      raiseSizeLimit(target);
      return true;
    },

    async save(source, chunkBytes, between, pause = sleep) {
      const existing = images();
      const name = imageName((existing[0]?.generation ?? 0) + 1);
      let size = 0;
      for (let wait = RESTART_WAIT_MS; ; wait = Math.min(wait * 2, RESTART_WAIT_CAP_MS)) {
        const copy = pagedCopy(source, chunkBytes);
        try {
          await files.write(name, async () => {
            await between();
            return copy.next();
          });
          size = copy.size;
          break;
        } catch (error) {
          if (!(error instanceof ChangedWhileSaving)) throw new ImageNotSaved(copy.size, error);
          // A worker-side marker: the benchmark counts the saves a commit made start again.
          performance.mark('cc:image-restart');
        } finally {
          copy.close();
        }
        await pause(wait);
      }
      for (const older of existing) files.unlink(older.name);
      dropInPlace();
      return size;
    },

    clear() {
      dropInPlace();
      for (const { name } of images()) files.unlink(name);
    },
  };
}
