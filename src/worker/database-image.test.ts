import sqlite3InitModule, { type Database, type Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDatabaseImages } from './database-image';
import { memoryImageFiles } from './test-support/memory-image-files';

let sqlite3: Sqlite3Static;

beforeAll(async () => {
  sqlite3 = await sqlite3InitModule();
});

const memory = () => new sqlite3.oo1.DB(':memory:', 'c');
const rowsOf = (db: Database) => db.selectValues('SELECT text FROM notes ORDER BY rowid');

/** A database of `count` rows of about 1 kB, so that an image spans many pages. */
function sourceWith(count: number, label = 'note'): Database {
  const db = memory();
  db.exec('CREATE TABLE notes (text TEXT NOT NULL)');
  db.exec({ sql: "WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n WHERE value < ?2) INSERT INTO notes SELECT ?1 || value || printf('%.1000c', 'x') FROM n", bind: [label, count] });
  return db;
}

const saveAll = (images: ReturnType<typeof createDatabaseImages>, source: Database, pagesPerStep = 16) => {
  const steps = images.saveSteps(source, pagesPerStep);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
};

describe('the database image on disk', () => {
  it('restores what was saved into a database in memory, byte for byte in its rows, and says its size', () => {
    const files = memoryImageFiles(sqlite3);
    const images = createDatabaseImages(sqlite3, files);
    const source = sourceWith(300);
    const bytes = saveAll(images, source);
    expect(bytes).toBe(Number(source.selectValue('PRAGMA page_count')) * Number(source.selectValue('PRAGMA page_size')));
    const target = memory();
    expect(images.restoreInto(target)).toBe(true);
    expect(rowsOf(target)).toEqual(rowsOf(source));
    // The mark of a complete image is not carried into memory, where the next save starts from.
    expect(target.selectValue('PRAGMA user_version')).toBe(0);
    expect(files.names()).toHaveLength(1);
  });

  it('copies a slice of pages per step, and starts again when the database commits a write between steps', () => {
    const images = createDatabaseImages(sqlite3, memoryImageFiles(sqlite3));
    const source = sourceWith(300);
    const steps = images.saveSteps(source, 8);
    const first = steps.next();
    expect(first.done).toBe(false);
    expect(first.value).toMatchObject({ done: 8 });
    source.exec("INSERT INTO notes VALUES ('written while saving')");
    while (!steps.next().done) {
      // The remaining steps.
    }
    const target = memory();
    images.restoreInto(target);
    expect(rowsOf(target)).toEqual(rowsOf(source));
    expect(target.selectValue('SELECT count(*) FROM notes')).toBe(301);
  });

  it('keeps the previous image when a save is stopped halfway, and leaves no part of the new one', () => {
    const files = memoryImageFiles(sqlite3);
    const images = createDatabaseImages(sqlite3, files);
    saveAll(images, sourceWith(50, 'old'));
    const before = [...files.names()];
    const steps = images.saveSteps(sourceWith(300, 'new'), 8);
    steps.next();
    expect(files.names()).toHaveLength(2);
    steps.return(0);
    expect(files.names()).toEqual(before);
    const target = memory();
    images.restoreInto(target);
    expect(String(rowsOf(target)[0])).toMatch(/^old1x/);
  });

  it('ignores and deletes an image a closed tab left unfinished, and restores the newest complete one', () => {
    const files = memoryImageFiles(sqlite3);
    const images = createDatabaseImages(sqlite3, files);
    saveAll(images, sourceWith(20, 'complete'));
    // What a tab closed in the middle of a copy leaves: a newer file without the mark of completion.
    const partial = files.open('/workspace-99.sqlite3');
    partial.exec("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('partial')");
    partial.close();
    // And one stopped before its first page was written: not a database at all yet.
    files.open('/workspace-100.sqlite3').close();
    const target = memory();
    expect(images.restoreInto(target)).toBe(true);
    expect(String(rowsOf(target)[0])).toMatch(/^complete1x/);
    expect(files.names()).toEqual(['/workspace-1.sqlite3']);
  });

  it('reads the database an earlier version kept in place, and replaces it with the next image', () => {
    const files = memoryImageFiles(sqlite3);
    const inPlace = files.open('/workspace.sqlite3');
    inPlace.exec("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('kept in place')");
    inPlace.close();
    const images = createDatabaseImages(sqlite3, files);
    const target = memory();
    expect(images.restoreInto(target)).toBe(true);
    expect(rowsOf(target)).toEqual(['kept in place']);
    saveAll(images, target);
    expect(files.names()).toEqual(['/workspace-1.sqlite3']);
  });

  it('restores nothing once cleared, and touches no file that is not an image', () => {
    const files = memoryImageFiles(sqlite3);
    const other = files.open('/something-else.sqlite3');
    other.close();
    const images = createDatabaseImages(sqlite3, files);
    saveAll(images, sourceWith(10));
    images.clear();
    expect(images.restoreInto(memory())).toBe(false);
    expect(files.names()).toEqual(['/something-else.sqlite3']);
  });
});
