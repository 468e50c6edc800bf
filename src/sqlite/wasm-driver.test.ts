import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SqlDriver } from '../core/search/driver';
import { openInMemoryDatabase } from './load-sqlite';
import { createWasmDriver } from './wasm-driver';

let driver: SqlDriver;

beforeAll(async () => {
  driver = await openInMemoryDatabase();
  driver.exec('CREATE TABLE t (v INTEGER)');
});

const count = () => driver.all('SELECT COUNT(*) FROM t')[0]?.[0];

describe('wasm driver', () => {
  it('commits a transaction that returns and hands back its value', () => {
    expect(driver.transaction(() => {
      driver.exec('INSERT INTO t VALUES (1)');
      return 'done';
    })).toBe('done');
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
