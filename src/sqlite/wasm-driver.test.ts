import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SqlDriver } from '../adapters/sqlite/driver';
import { openInMemoryDatabase } from './load-sqlite';
import { createWasmDriver, utf8Length } from './wasm-driver';

let driver: SqlDriver;

beforeAll(async () => {
  driver = await openInMemoryDatabase();
  driver.exec('CREATE TABLE t (v INTEGER)');
});

const count = () => driver.all('SELECT COUNT(*) FROM t')[0]?.[0];

describe('wasm driver', () => {
  it('commits a transaction that returns and hands back its value', () => {
    expect(
      driver.transaction(() => {
        driver.exec('INSERT INTO t VALUES (1)');
        return 'done';
      }),
    ).toBe('done');
    expect(count()).toBe(1);
  });

  it('rolls a transaction back when the work throws, and rethrows', () => {
    expect(() =>
      driver.transaction(() => {
        driver.exec('INSERT INTO t VALUES (2)');
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(count()).toBe(1);
  });

  it('binds parameters and reuses prepared statements', () => {
    const insert = driver.prepare('INSERT INTO t VALUES (?)');
    insert.run([10]);
    insert.run([11]);
    insert.finalize();
    expect(driver.all('SELECT v FROM t WHERE v >= ? ORDER BY v', [10])).toEqual([[10], [11]]);
  });

  it('writes every kind of value exactly as SQLite reads it back, strings of any length included', () => {
    driver.exec('CREATE TABLE kinds (i, t)');
    const insert = driver.prepare('INSERT INTO kinds VALUES (?, ?)');
    const long = 'ü€😀'.repeat(40_000); // 360,000 UTF-8 bytes: past the scratch buffer, so a buffer of its own
    const values: [number | null, string | null][] = [
      [7, ''],
      [-2_147_483_648, 'plain'],
      [2_147_483_648, 'Grüße, 東京 😀'],
      [1_767_225_600_000, long],
      [-9_007_199_254_740_991, null],
      [0.5, 'after a long one'],
      [1, `${'a'.repeat(63)}é`],
      [2, 'b'.repeat(65)],
      [null, 'x'],
    ];
    for (const row of values) insert.run(row);
    insert.finalize();
    expect(driver.all('SELECT i, t FROM kinds ORDER BY rowid')).toEqual(values);
    expect(driver.all('SELECT typeof(i) FROM kinds ORDER BY rowid').map(([type]) => type)).toEqual([
      'integer',
      'integer',
      'integer',
      'integer',
      'integer',
      'real',
      'integer',
      'integer',
      'null',
    ]);
    expect(driver.all('SELECT length(t) FROM kinds WHERE rowid = 4')).toEqual([[long.length - 40_000]]);
    expect(driver.all('SELECT length(CAST(t AS BLOB)) FROM kinds WHERE rowid = 3')).toEqual([
      [new TextEncoder().encode('Grüße, 東京 😀').length],
    ]);
  });

  it('sizes a long string exactly as TextEncoder writes it, lone surrogates included', () => {
    const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
    const pieces = fc.oneof(codeUnit, fc.constantFrom('😀', 'é', '東', 'a', '\ud800', '\udc00'));
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 200 }), (parts) => {
        const value = parts.join('');
        expect(utf8Length(value)).toBe(new TextEncoder().encode(value).length);
      }),
    );
    // Past the scratch buffer, a string is written into a buffer of exactly that size: none of it may be cut.
    driver.exec('CREATE TABLE long_texts (t)');
    const long = `${'\ud800x😀'.repeat(10_000)}\udc00`;
    const insert = driver.prepare('INSERT INTO long_texts VALUES (?)');
    insert.run([long]);
    insert.finalize();
    expect(driver.all('SELECT length(CAST(t AS BLOB)) FROM long_texts')).toEqual([
      [new TextEncoder().encode(long).length],
    ]);
  });

  it('leaves no value bound from one run to the next', () => {
    driver.exec('CREATE TABLE pairs (a, b)');
    const insert = driver.prepare('INSERT INTO pairs VALUES (?, ?)');
    insert.run(['first', 'second']);
    insert.run(['third']);
    insert.finalize();
    expect(driver.all('SELECT a, b FROM pairs ORDER BY rowid')).toEqual([
      ['first', 'second'],
      ['third', null],
    ]);
  });

  it("reports SQLite's own message for a failed write and keeps the statement usable", () => {
    driver.exec('CREATE TABLE unique_ids (id TEXT UNIQUE)');
    const insert = driver.prepare('INSERT INTO unique_ids VALUES (?)');
    insert.run(['a']);
    expect(() => insert.run(['a'])).toThrow(/UNIQUE constraint failed: unique_ids\.id/);
    expect(() => insert.run(['b', 'one too many'])).toThrow(/column index out of range/);
    insert.run(['c']);
    insert.finalize();
    expect(() => insert.run(['d'])).toThrow(/finalized/);
    expect(driver.all('SELECT id FROM unique_ids ORDER BY id')).toEqual([['a'], ['c']]);
  });

  it('reads the parameter limit from the build and enforces exactly that limit', () => {
    expect(driver.maxParameters).toBeGreaterThanOrEqual(999);
    // An IN list binds any number of values without deepening the expression tree.
    const inList = (n: number) => `SELECT 1 IN (${Array.from({ length: n }, () => '?').join(',')})`;
    const ones = (n: number) => Array.from({ length: n }, () => 1);
    expect(driver.all(inList(driver.maxParameters), ones(driver.maxParameters))).toEqual([[1]]);
    expect(() => driver.all(inList(driver.maxParameters + 1), ones(driver.maxParameters + 1))).toThrow();
  });

  it('opens an independent database each time', async () => {
    const other = createWasmDriver(await sqlite3InitModule());
    expect(() => other.all('SELECT COUNT(*) FROM t')).toThrow(/no such table/);
  });
});
