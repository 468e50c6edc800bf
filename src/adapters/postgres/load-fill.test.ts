import { sha256 } from '../../core/test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateRecords } from '../../../bench/generate-records';
import { deleteRecords, loadRecordLines } from './load-records';
import { BATCH } from './load-batch';
import { storedRecordSetDigest } from './record-set-digest';
import type { Database } from './schema';
import { openTestDatabase, POSTGRES_URL, type TestDatabase } from './test-server';
import type { Tokeniser } from './tokens';
import { createUnicodeTokeniser } from './unicode61';

/** The indexes of the record tables, as `pg_indexes` names them. */
async function recordIndexes(database: Database): Promise<string[]> {
  const { rows } = await database.query<{ name: string }>(
    `SELECT indexname AS name FROM pg_indexes WHERE schemaname = $1 AND tablename IN ('records', 'documents', 'postings') ORDER BY indexname`,
    [database.schema.slice(1, -1)],
  );
  return rows.map((row) => row.name);
}

/**
 * The database as a load sees it, logging every statement it is given and, before each COPY of rows into a record
 * table, the indexes that table's rows are then written through.
 */
function watchIndexes(database: Database) {
  const statements: string[] = [];
  const indexesAtCopy: string[][] = [];
  const watched: Database = {
    schema: database.schema,
    queryPages: database.queryPages,
    query: (text, values) => {
      statements.push(text);
      return database.query(text, values);
    },
    async copyFrom(statement, rows) {
      statements.push(statement);
      if (/^COPY \S+\.(records|documents|postings) FROM STDIN/.test(statement))
        indexesAtCopy.push(await recordIndexes(database));
      return database.copyFrom(statement, rows);
    },
  };
  return { watched, statements, indexesAtCopy };
}

const EVERY_INDEX = [
  'documents_line_hash',
  'documents_pkey',
  'postings_pkey',
  'postings_record',
  'records_chunk_ends',
  'records_order',
  'records_pkey',
  'records_successors',
  'records_superseding',
];

const generatedLines = (count: number) => generateRecords(count, 11).records.map((record) => JSON.stringify(record));
const asChunks = (lines: readonly string[]) => [`${lines.join('\n')}\n`];
/** A statement that looks a batch's lines or records up in the record tables. */
const isLookUp = (statement: string) => /line_hash = ANY|SELECT id, fingerprint/.test(statement);

describe.skipIf(POSTGRES_URL === undefined)('a load into empty tables', () => {
  let database: TestDatabase;
  let tokeniser: Tokeniser;
  beforeAll(async () => {
    database = await openTestDatabase();
    tokeniser = createUnicodeTokeniser();
  });

  it("writes a new layout's rows into tables without indexes, looks nothing up, and builds every index once at the end", async () => {
    const lines = generatedLines(2 * BATCH + 5);
    const watch = watchIndexes(database);
    const loaded = await loadRecordLines(sha256, watch.watched, 'records.jsonl', asChunks(lines), tokeniser);
    expect(loaded.ok && loaded.value).toMatchObject({ layout: 'created', inserted: lines.length });
    expect(watch.indexesAtCopy).toHaveLength(3 * 3);
    for (const indexes of watch.indexesAtCopy) expect(indexes).toEqual([]);
    expect(watch.statements.filter(isLookUp)).toEqual([]);
    expect(await recordIndexes(database)).toEqual(EVERY_INDEX);

    // The indexes serve the next load: the same file again writes nothing.
    const again = await loadRecordLines(sha256, database, 'records.jsonl', asChunks(lines), tokeniser);
    expect(again.ok && again.value).toMatchObject({ inserted: 0, updated: 0, deleted: 0, unchanged: lines.length });
  });

  it('fills emptied tables of the current layout as it fills new ones, with the same rows as a load into a new schema', async () => {
    const lines = generatedLines(BATCH + 5);
    await database.query(`DROP SCHEMA IF EXISTS ${database.schema} CASCADE`);
    const first = await loadRecordLines(sha256, database, 'records.jsonl', asChunks(lines), tokeniser);
    expect(first.ok && first.value.layout).toBe('created');
    const digest = await storedRecordSetDigest(database);
    const ids = lines.map((line) => (JSON.parse(line) as { id: string }).id);
    const emptied = await deleteRecords(database, ids);
    expect(emptied.ok && emptied.value.deleted).toBe(lines.length);

    const watch = watchIndexes(database);
    const loaded = await loadRecordLines(sha256, watch.watched, 'records.jsonl', asChunks(lines), tokeniser);
    expect(loaded.ok && loaded.value).toMatchObject({ layout: 'current', inserted: lines.length, snapshot: 3 });
    expect(watch.indexesAtCopy.length).toBeGreaterThan(0);
    for (const indexes of watch.indexesAtCopy) expect(indexes).toEqual([]);
    expect(watch.statements.filter(isLookUp)).toEqual([]);
    expect(await recordIndexes(database)).toEqual(EVERY_INDEX);
    expect(await storedRecordSetDigest(database)).toBe(digest);
  });

  it("builds the indexes with 64 MB of sort memory, whatever the server's setting", async () => {
    await database.query(`DROP SCHEMA IF EXISTS ${database.schema} CASCADE`);
    await database.query(`SET maintenance_work_mem = '1GB'`);
    const memoryAtBuild: string[] = [];
    const watched: Database = {
      ...database,
      query: async (text, values) => {
        if (text.includes('ADD PRIMARY KEY')) {
          const { rows } = await database.query<{ memory: string }>(
            "SELECT current_setting('maintenance_work_mem') AS memory",
          );
          memoryAtBuild.push(rows[0]?.memory ?? '');
        }
        return database.query(text, values);
      },
    };
    try {
      const loaded = await loadRecordLines(sha256, watched, 'records.jsonl', asChunks(generatedLines(20)), tokeniser);
      expect(loaded.ok).toBe(true);
      expect(memoryAtBuild).toEqual(['64MB']);
      // Set for the load's transaction only.
      const { rows } = await database.query<{ memory: string }>(
        "SELECT current_setting('maintenance_work_mem') AS memory",
      );
      expect(rows[0]?.memory).toBe('1GB');
    } finally {
      await database.query('RESET maintenance_work_mem');
    }
  });

  it('compresses long documents with lz4 where the server has it', async () => {
    const { rows: lz4 } = await database.query<{ present: boolean }>(
      `SELECT 'lz4' = ANY (enumvals) AS present FROM pg_settings WHERE name = 'default_toast_compression'`,
    );
    const records = generateRecords(3, 11).records.map((record) => ({ ...record, text: record.text.repeat(20) }));
    await database.query(`DROP SCHEMA IF EXISTS ${database.schema} CASCADE`);
    const loaded = await loadRecordLines(
      sha256,
      database,
      'long.jsonl',
      asChunks(records.map((r) => JSON.stringify(r))),
      tokeniser,
    );
    expect(loaded.ok && loaded.value.inserted).toBe(records.length);
    const { rows } = await database.query<{ method: string | null }>(
      `SELECT DISTINCT pg_column_compression(document) AS method FROM ${database.schema}.documents`,
    );
    expect(rows).toEqual([{ method: lz4[0]?.present === true ? 'lz4' : 'pglz' }]);
  });

  it('refuses an id two batches hold, naming both lines, and leaves no table behind', async () => {
    const lines = generatedLines(BATCH + 5);
    const copied = lines[2] ?? '';
    lines.push(copied);
    await database.query(`DROP SCHEMA IF EXISTS ${database.schema} CASCADE`);
    const refused = await loadRecordLines(sha256, database, 'records.jsonl', asChunks(lines), tokeniser);
    expect(refused.ok).toBe(false);
    if (!refused.ok)
      expect(refused.error.issues).toEqual([
        expect.objectContaining({ file: 'records.jsonl', line: lines.length, path: 'id', code: 'DUPLICATE_ID' }),
      ]);
    const { rows } = await database.query<{ present: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS present`, [
      `${database.schema}.records`,
    ]);
    expect(rows[0]?.present).toBe(false);
  });
});
