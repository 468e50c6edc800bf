import { sha256 } from '../../core/test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRecordSet } from '../../core/phases/1-validate/validate';
import { conformanceCases } from '../conformance/corpus';
import { compileInDatabase } from './compile-in-database';
import { loadRecordSet } from './load-records';
import { LAYOUT, type Database } from './schema';
import { openTestDatabase, POSTGRES_URL, type TestDatabase } from './test-server';
import { type Tokeniser } from './tokens';
import { createUnicodeTokeniser } from './unicode61';

const [first, second] = conformanceCases(2).slice(-2);

async function storedIds(database: Database): Promise<string[]> {
  const { rows } = await database.query<{ id: string }>(`SELECT id FROM ${database.schema}.records ORDER BY id`);
  return rows.map((row) => row.id);
}

describe.skipIf(POSTGRES_URL === undefined)('loading records into PostgreSQL', () => {
  let database: TestDatabase;
  let tokeniser: Tokeniser;
  beforeAll(async () => {
    database = await openTestDatabase();
    tokeniser = createUnicodeTokeniser();
  });

  /** Runs `body` on a connection of its own, in a schema of its own (named after the test one), dropped after. */
  async function inOwnSchema(suffix: string, body: (own: Database) => Promise<void>): Promise<void> {
    const fresh = await database.reopen();
    const own: Database = {
      schema: `${database.schema.slice(0, -1)}_${suffix}"`,
      query: fresh.query,
      queryPages: fresh.queryPages,
      copyFrom: fresh.copyFrom,
    };
    try {
      await body(own);
    } finally {
      await own.query(`DROP SCHEMA IF EXISTS ${own.schema} CASCADE`);
      await fresh.end();
    }
  }

  it("replaces the records with another file's, and a failure midway leaves the previous records whole", async () => {
    if (first === undefined || second === undefined) throw new Error('the corpus has no combined cases');
    const loaded = await loadRecordSet(
      sha256,
      database,
      'first.jsonl',
      createRecordSet(sha256, first.records),
      tokeniser,
    );
    expect(loaded.ok && loaded.value.inserted).toBe(first.records.length);
    const before = await storedIds(database);

    const failing: Database = {
      schema: database.schema,
      query: database.query,
      queryPages: database.queryPages,
      async copyFrom(statement, rows) {
        if (statement.includes('postings')) throw Object.assign(new Error('the server went away'), { code: '57P01' });
        return database.copyFrom(statement, rows);
      },
    };
    await expect(
      loadRecordSet(sha256, failing, 'second.jsonl', createRecordSet(sha256, second.records), tokeniser),
    ).rejects.toThrow('the server went away');
    expect(await storedIds(database)).toEqual(before);
    const { rows } = await database.query<{ terms: number }>(
      `SELECT count(*)::integer AS terms FROM ${database.schema}.postings WHERE record_id <> ALL ($1::text[])`,
      [before],
    );
    expect(rows[0]?.terms).toBe(0);

    const replaced = await loadRecordSet(
      sha256,
      database,
      'second.jsonl',
      createRecordSet(sha256, second.records),
      tokeniser,
    );
    expect(replaced.ok && replaced.value).toMatchObject({
      inserted: second.records.length,
      deleted: first.records.length,
    });
    expect(await storedIds(database)).toEqual(
      second.records.map((record) => record.id).sort((a, b) => (a < b ? -1 : 1)),
    );
  });

  it('loads the same file again without writing anything, and builds the indexes a new layout lacks', async () => {
    if (first === undefined) throw new Error('the corpus has no combined cases');
    await inOwnSchema('again', async (own) => {
      const progress: [number, number][] = [];
      const onProgress = (lines: number, written: number) => progress.push([lines, written]);
      const loaded = await loadRecordSet(
        sha256,
        own,
        'first.jsonl',
        createRecordSet(sha256, first.records),
        tokeniser,
        { onProgress },
      );
      expect(loaded.ok && loaded.value).toMatchObject({
        layout: 'created',
        inserted: first.records.length,
        snapshot: 1,
      });
      expect(progress.at(-1)).toEqual([first.records.length, first.records.length]);
      const contents = async () => {
        const tables = ['records', 'documents', 'postings', 'supersession_breaks'];
        const found: (string | undefined)[] = [];
        for (const table of tables)
          found.push(
            (
              await own.query<{ rows: string }>(
                `SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) || count(*) AS rows FROM ${own.schema}.${table} t`,
              )
            ).rows[0]?.rows,
          );
        const { rows } = await own.query<{ xmin: string }>(
          `SELECT string_agg(xmin::text, ',' ORDER BY id) AS xmin FROM ${own.schema}.records`,
        );
        return { found, xmin: rows[0]?.xmin };
      };
      const before = await contents();
      const { rows } = await own.query<{ name: string }>(
        `SELECT indexname AS name FROM pg_indexes WHERE schemaname = $1 ORDER BY indexname`,
        [own.schema.slice(1, -1)],
      );
      expect(rows.map((row) => row.name)).toEqual(
        expect.arrayContaining([
          'documents_line_hash',
          'documents_pkey',
          'postings_pkey',
          'postings_record',
          'records_pkey',
          'supersession_breaks_pkey',
        ]),
      );
      const again = await loadRecordSet(sha256, own, 'first.jsonl', createRecordSet(sha256, first.records), tokeniser, {
        onProgress,
      });
      expect(again.ok && again.value).toEqual({
        layout: 'current',
        inserted: 0,
        updated: 0,
        deleted: 0,
        unchanged: first.records.length,
        snapshot: 1,
      });
      expect(await contents()).toEqual(before);
    });
  });

  it("tells a compile that a database of the previous layout must be loaded again, and a load makes it this layout's", async () => {
    if (first === undefined) throw new Error('the corpus has no combined cases');
    await inOwnSchema('old', async (own) => {
      // What a load of layout 2 left: its layout table had no snapshot, and its records a position.
      await own.query(`CREATE SCHEMA ${own.schema}`);
      await own.query(`CREATE TABLE ${own.schema}.layout (version integer NOT NULL)`);
      await own.query(`INSERT INTO ${own.schema}.layout (version) VALUES (2)`);
      await own.query(`CREATE TABLE ${own.schema}.records (id text PRIMARY KEY, position integer NOT NULL)`);
      const refused = await compileInDatabase(sha256, own, first.contract, tokeniser);
      expect(refused.ok || refused.error.message).toContain(`(layout 2, this is ${LAYOUT}): load them again`);
      const loaded = await loadRecordSet(sha256, own, 'first.jsonl', createRecordSet(sha256, first.records), tokeniser);
      expect(loaded.ok && loaded.value).toMatchObject({
        layout: 'migrated',
        inserted: first.records.length,
        snapshot: 1,
      });
      expect((await compileInDatabase(sha256, own, first.contract, tokeniser)).ok).toBe(true);
    });
  });

  it('moves a database of layout 6 to this layout in place: a compile reads it before, and a load keeps every row', async () => {
    if (first === undefined) throw new Error('the corpus has no combined cases');
    await inOwnSchema('six', async (own) => {
      const lookUpIndex = async () => {
        const { rows } = await own.query<{ definition: string }>(
          `SELECT indexdef AS definition FROM pg_indexes WHERE schemaname = $1 AND indexname = 'documents_line_hash'`,
          [own.schema.slice(1, -1)],
        );
        return rows.map((row) => row.definition.replace(/^.* USING btree /, ''));
      };
      const records = createRecordSet(sha256, first.records);
      expect((await loadRecordSet(sha256, own, 'first.jsonl', records, tokeniser)).ok).toBe(true);
      // What a load of layout 6 left: the same tables, and a look-up index of line hashes alone.
      await own.query(`DROP INDEX ${own.schema}.documents_line_hash`);
      await own.query(`CREATE INDEX documents_line_hash ON ${own.schema}.documents (line_hash)`);
      await own.query(`UPDATE ${own.schema}.layout SET version = 6`);
      const before = await compileInDatabase(sha256, own, first.contract, tokeniser);
      expect(before.ok).toBe(true);

      const again = await loadRecordSet(sha256, own, 'first.jsonl', records, tokeniser);
      expect(again.ok && again.value).toEqual({
        layout: 'upgraded',
        inserted: 0,
        updated: 0,
        deleted: 0,
        unchanged: first.records.length,
        snapshot: 1,
      });
      expect(await lookUpIndex()).toEqual(['(line_hash) INCLUDE (id)']);
      const { rows } = await own.query<{ version: number }>(`SELECT version FROM ${own.schema}.layout`);
      expect(rows[0]?.version).toBe(LAYOUT);
      const after = await compileInDatabase(sha256, own, first.contract, tokeniser);
      expect(after.ok && after.value.outcome.receipt).toEqual(before.ok && before.value.outcome.receipt);
    });
  });

  it('refuses a record holding U+0000, naming its field, before writing anything', async () => {
    if (first === undefined) throw new Error('the corpus has no combined cases');
    const before = await storedIds(database);
    const records = first.records.map((record, index) =>
      index === 1 ? { ...record, scope: 'sup\u0000port' } : record,
    );
    const refused = await loadRecordSet(sha256, database, 'nul.jsonl', createRecordSet(sha256, records), tokeniser);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.issues?.[0]).toMatchObject({ file: 'nul.jsonl', path: 'scope' });
    expect(await storedIds(database)).toEqual(before);
  });
});
