import { sha256 } from '../../core/test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRecordSet } from '../../core/phases/1-validate/validate';
import { conformanceCases } from '../conformance/corpus';
import { readRecordSet } from './compile-in-database';
import { loadRecordSet } from './load-records';
import type { Database } from './schema';
import { openTestDatabase, POSTGRES_URL, type TestDatabase } from './test-server';
import { createUnicodeTokeniser } from './unicode61';
import { watchStatements } from './watch-statements';

const records = conformanceCases(1)
  .flatMap((sample) => sample.records)
  .filter((record, index, all) => all.findIndex((other) => other.id === record.id) === index)
  .slice(0, 23);

/** The database with every FETCH counted and the rows each one returned. */
function counting(database: Database): Database & { readonly pages: number[] } {
  const pages: number[] = [];
  const watched = watchStatements(database, {
    rows: (text, rows) => {
      if (text.startsWith('FETCH')) pages.push(rows.length);
      return rows;
    },
  });
  return { ...watched, pages };
}

describe.skipIf(POSTGRES_URL === undefined)('reading the records back', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
    const loaded = await loadRecordSet(
      sha256,
      database,
      'records.jsonl',
      createRecordSet(sha256, records),
      createUnicodeTokeniser(),
    );
    if (!loaded.ok) throw new Error(loaded.error.message);
  });

  const read = async (pageSize: number) => {
    const paged = counting(database);
    await database.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    try {
      const recordSet = await readRecordSet(sha256, paged, pageSize);
      if (!recordSet.ok) throw new Error(recordSet.error.message);
      return {
        ids: recordSet.value.checked.map((item) => item.record.id),
        fingerprints: recordSet.value.checked.map((item) => item.fingerprint),
        pages: paged.pages,
      };
    } finally {
      await database.query('ROLLBACK');
    }
  };

  it('reads them a page at a time, in id order (a compile does not depend on the order), the same records whatever the page size', async () => {
    expect(records.length).toBe(23);
    const loaded = createRecordSet(sha256, records);
    const whole = await read(1000);
    expect(whole.pages).toEqual([23]);
    const inIdOrder = [...loaded.checked].sort((a, b) => (a.record.id < b.record.id ? -1 : 1));
    expect(whole.ids).toEqual(inIdOrder.map((item) => item.record.id));
    expect(whole.fingerprints).toEqual(inIdOrder.map((item) => item.fingerprint));
    const paged = await read(5);
    expect(paged.pages).toEqual([5, 5, 5, 5, 3]);
    expect(paged).toMatchObject({ ids: whole.ids, fingerprints: whole.fingerprints });
    // A corpus that fills its last page exactly: one more FETCH finds nothing, and nothing is read twice.
    const exact = await read(23);
    expect(exact.pages).toEqual([23, 0]);
    expect(exact.ids).toEqual(whole.ids);
  });

  it("refuses a record changed behind the adapter's back on a page after the first", async () => {
    const changed = records[17]?.id ?? '';
    await database.query(`UPDATE ${database.schema}.records SET fingerprint = 'sha256:stale' WHERE id = $1`, [changed]);
    try {
      await database.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      const recordSet = await readRecordSet(sha256, database, 5).finally(() => database.query('ROLLBACK'));
      expect(recordSet.ok || recordSet.error).toMatchObject({ code: 'INVALID_INPUT', recordId: changed });
    } finally {
      const fingerprint = createRecordSet(sha256, records).checked[17]?.fingerprint;
      await database.query(`UPDATE ${database.schema}.records SET fingerprint = $2 WHERE id = $1`, [
        changed,
        fingerprint,
      ]);
    }
  });
});
