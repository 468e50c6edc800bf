import sqlite3InitModule, { type Database, type Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDatabaseImages, ImageNotSaved } from './database-image';
import { memoryImageFiles } from '../test-support/memory-image-files';

let sqlite3: Sqlite3Static;

beforeAll(async () => {
  sqlite3 = await sqlite3InitModule();
});

const memory = () => new sqlite3.oo1.DB(':memory:', 'c');
const rowsOf = (db: Database) => db.selectValues('SELECT text FROM notes ORDER BY rowid');
const nothingBetween = async () => undefined;

/** A database of `count` rows of about 1 kB, so that an image spans many chunks. */
function sourceWith(count: number, label = 'note'): Database {
  const db = memory();
  db.exec('CREATE TABLE notes (text TEXT NOT NULL)');
  db.exec({
    sql: "WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n WHERE value < ?2) INSERT INTO notes SELECT ?1 || value || printf('%.1000c', 'x') FROM n",
    bind: [label, count],
  });
  return db;
}

describe('the database image on disk', () => {
  it('restores what was saved into a database in memory, row for row, and says its size', async () => {
    const files = memoryImageFiles();
    const images = createDatabaseImages(sqlite3, files);
    const source = sourceWith(300);
    const bytes = await images.save(source, 64 * 1024, nothingBetween);
    expect(bytes).toBe(
      Number(source.selectValue('PRAGMA page_count')) * Number(source.selectValue('PRAGMA page_size')),
    );
    // Page for page the bytes SQLite's own serialization gives.
    expect(files.read('/workspace-1.sqlite3')).toEqual(sqlite3.capi.sqlite3_js_db_export(source));
    const target = memory();
    expect(images.restoreInto(target)).toBe(true);
    expect(rowsOf(target)).toEqual(rowsOf(source));
    // A database in memory like any other: it takes writes after the restore.
    target.exec("INSERT INTO notes VALUES ('after')");
    expect(files.names()).toEqual(['/workspace-1.sqlite3']);
  });

  it('a restored database grows past its image and its room to grow, and saves and restores again', async () => {
    const images = createDatabaseImages(sqlite3, memoryImageFiles());
    const source = sourceWith(100);
    const saved = await images.save(source, 64 * 1024, nothingBetween);
    const restored = memory();
    images.restoreInto(restored);
    // Three times the image: the buffer is reallocated at least once.
    restored.exec({
      sql: "WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n WHERE value < ?1) INSERT INTO notes SELECT 'grown' || value || printf('%.1000c', 'y') FROM n",
      bind: [300],
    });
    expect(
      Number(restored.selectValue('PRAGMA page_count')) * Number(restored.selectValue('PRAGMA page_size')),
    ).toBeGreaterThan(saved * 3);
    // SQLite caps a deserialized database at 1 GiB unless told otherwise; the limit reads back as raised.
    const limit = sqlite3.wasm.alloc(8);
    sqlite3.wasm.poke(limit, -1, 'i64');
    sqlite3.capi.sqlite3_file_control(restored.pointer ?? 0, 'main', sqlite3.capi.SQLITE_FCNTL_SIZE_LIMIT, limit);
    expect(Number(sqlite3.wasm.peek(limit, 'i64'))).toBe(2 ** 31);
    sqlite3.wasm.dealloc(limit);
    await images.save(restored, 64 * 1024, nothingBetween);
    const again = memory();
    images.restoreInto(again);
    expect(rowsOf(again)).toEqual(rowsOf(restored));
    expect(again.selectValue('SELECT count(*) FROM notes')).toBe(400);
  });

  it('starts again when a commit comes between chunks, so the image holds one state, the latest', async () => {
    const images = createDatabaseImages(sqlite3, memoryImageFiles());
    const source = sourceWith(300);
    let chunks = 0;
    await images.save(source, 16 * 1024, async () => {
      chunks += 1;
      if (chunks === 2) source.exec("INSERT INTO notes VALUES ('written while saving')");
    });
    const target = memory();
    images.restoreInto(target);
    expect(rowsOf(target)).toEqual(rowsOf(source));
    expect(target.selectValue('SELECT count(*) FROM notes')).toBe(301);
  });

  it('after each commit that makes it start again it waits, twice as long each time up to a cap, and saves the state no commit interrupted', async () => {
    const images = createDatabaseImages(sqlite3, memoryImageFiles());
    const busy = sourceWith(300);
    performance.clearMarks('cc:image-restart');
    const waits: number[] = [];
    let written = 0;
    await images.save(
      busy,
      16 * 1024,
      async () => {
        // A commit before every chunk of the first seven attempts, then none.
        if (waits.length >= 7) return;
        written += 1;
        busy.exec({ sql: 'INSERT INTO notes VALUES (?)', bind: [`busy ${written}`] });
      },
      async (ms) => {
        waits.push(ms);
      },
    );
    expect(waits).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect(performance.getEntriesByName('cc:image-restart')).toHaveLength(7);
    const target = memory();
    images.restoreInto(target);
    expect(rowsOf(target)).toEqual(rowsOf(busy));
    expect(target.selectValue('SELECT count(*) FROM notes')).toBe(300 + written);
  });

  it('keeps the previous image when a save is stopped halfway, and leaves no part of the new one', async () => {
    const files = memoryImageFiles();
    const images = createDatabaseImages(sqlite3, files);
    await images.save(sourceWith(50, 'old'), 64 * 1024, nothingBetween);
    let chunks = 0;
    const stopped = images.save(sourceWith(300, 'new'), 16 * 1024, async () => {
      chunks += 1;
      if (chunks === 3) throw new Error('stopped');
    });
    await expect(stopped).rejects.toBeInstanceOf(ImageNotSaved);
    expect(files.names()).toEqual(['/workspace-1.sqlite3']);
    const target = memory();
    images.restoreInto(target);
    expect(String(rowsOf(target)[0])).toMatch(/^old1x/);
  });

  it('says how large the image was when the disk refused it', async () => {
    const refusing = {
      ...memoryImageFiles(),
      write: async () => Promise.reject(new DOMException('over quota', 'QuotaExceededError')),
    };
    const source = sourceWith(20);
    const failure = await createDatabaseImages(sqlite3, refusing)
      .save(source, 64 * 1024, nothingBetween)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ImageNotSaved);
    expect((failure as ImageNotSaved).bytes).toBe(
      Number(source.selectValue('PRAGMA page_count')) * Number(source.selectValue('PRAGMA page_size')),
    );
    expect((failure as ImageNotSaved).reason).toBeInstanceOf(DOMException);
  });

  it('restores without room to grow when the heap cannot give the room, and the database still takes writes', async () => {
    const files = memoryImageFiles();
    const source = sourceWith(100);
    const size = await createDatabaseImages(sqlite3, files).save(source, 64 * 1024, nothingBetween);
    const asked: number[] = [];
    // A heap that has the image's size to give and no more.
    const alloc = (bytes: number) => {
      asked.push(bytes);
      if (bytes > size) throw new sqlite3.WasmAllocError('out of memory');
      return sqlite3.wasm.alloc(bytes);
    };
    const wasm = new Proxy(sqlite3.wasm, {
      get: (target, key) => (key === 'alloc' ? alloc : Reflect.get(target, key)),
    });
    const tight = new Proxy(sqlite3, { get: (target, key) => (key === 'wasm' ? wasm : Reflect.get(target, key)) });
    const target = memory();
    expect(createDatabaseImages(tight, files).restoreInto(target)).toBe(true);
    expect(asked.filter((bytes) => bytes >= size)).toEqual([size * 2, size]);
    expect(rowsOf(target)).toEqual(rowsOf(source));
    target.exec("INSERT INTO notes VALUES ('after')");
    expect(target.selectValue('SELECT count(*) FROM notes')).toBe(101);
  });

  it('refuses an image that is not a database when it restores it, so that the caller can start afresh', () => {
    const files = memoryImageFiles();
    files.put('/workspace-1.sqlite3', new TextEncoder().encode('not a database '.repeat(1000)));
    const target = memory();
    expect(() => createDatabaseImages(sqlite3, files).restoreInto(target)).toThrow(/not a database/i);
    target.close();
  });

  it('restores the newest of several images and deletes the others', async () => {
    const files = memoryImageFiles();
    const images = createDatabaseImages(sqlite3, files);
    await images.save(sourceWith(10, 'first'), 64 * 1024, nothingBetween);
    // What a tab closed between writing a new image and deleting the old one leaves.
    files.put('/workspace-7.sqlite3', sqlite3.capi.sqlite3_js_db_export(sourceWith(10, 'newest')));
    const target = memory();
    expect(images.restoreInto(target)).toBe(true);
    expect(String(rowsOf(target)[0])).toMatch(/^newest1x/);
    expect(files.names()).toEqual(['/workspace-7.sqlite3']);
  });

  it('does not read the database an earlier version kept in place: it deletes it, journal and all', async () => {
    const files = memoryImageFiles();
    files.put('/workspace.sqlite3', sqlite3.capi.sqlite3_js_db_export(sourceWith(10)));
    files.put('/workspace.sqlite3-journal', new Uint8Array(512));
    const images = createDatabaseImages(sqlite3, files);
    expect(images.restoreInto(memory())).toBe(false);
    expect(files.names()).toEqual([]);
  });

  it('restores nothing once cleared, and touches no file that is not an image', async () => {
    const files = memoryImageFiles();
    files.put('/something-else.sqlite3', new Uint8Array(512));
    const images = createDatabaseImages(sqlite3, files);
    await images.save(sourceWith(10), 64 * 1024, nothingBetween);
    images.clear();
    expect(images.restoreInto(memory())).toBe(false);
    expect(files.names()).toEqual(['/something-else.sqlite3']);
  });
});
