import { sha256 } from '../../core/test-support/sha256';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSqliteCompiler } from '../sqlite/compiler';
import { serialiseReceipt } from '../../core/phases/7-attest/attest';
import type * as validate from '../../core/phases/1-validate/validate';
import { parseRecordsJsonl, unreadableRecordsError } from '../../core/phases/1-validate/validate';
import { openInMemoryDatabase } from '../../sqlite/load-sqlite';
import { conformanceCases } from '../conformance/corpus';
import { namingAdapterOf } from '../conformance/conformance-suite';
import { compileInDatabase } from './compile-in-database';
import { deleteRecords, loadRecordLines, type LoadMode } from './load-records';
import { openTestDatabase, POSTGRES_URL, type TestDatabase } from './test-server';
import type { Database } from './schema';
import { type Tokeniser } from './tokens';
import { createUnicodeTokeniser } from './unicode61';

/** How many lines the load read as records: a line it already holds byte for byte is not read. */
const reads = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../core/phases/1-validate/validate', async (importOriginal) => {
  const actual = await importOriginal<typeof validate>();
  return {
    ...actual,
    readRecordLine: (file: string, lineNumber: number, line: string): ReturnType<typeof validate.readRecordLine> => {
      reads.count += 1;
      return actual.readRecordLine(file, lineNumber, line);
    },
  };
});

const [sample] = conformanceCases(1).slice(-1);
if (sample === undefined) throw new Error('the corpus has no combined cases');
const records = sample.records.filter(
  (record, index, all) => all.findIndex((other) => other.id === record.id) === index,
);
const lines = records.map((record) => JSON.stringify(record));
const TABLES = ['records', 'documents', 'postings', 'supersession_breaks'];

describe.skipIf(POSTGRES_URL === undefined)('loads that cost the change', () => {
  let database: TestDatabase;
  let tokeniser: Tokeniser;
  beforeAll(async () => {
    database = await openTestDatabase();
    tokeniser = createUnicodeTokeniser();
  });

  const load = async (fileLines: readonly string[], mode: LoadMode = 'replace') => {
    const loaded = await loadRecordLines(sha256, database, 'records.jsonl', [`${fileLines.join('\n')}\n`], tokeniser, {
      mode,
    });
    if (!loaded.ok) throw new Error(loaded.error.message);
    return loaded.value;
  };

  /** Rows inserted, updated and deleted in each of the project's tables by `work`, from the server's statistics. */
  const writesBy = async (work: () => Promise<unknown>) => {
    const counts = async () => {
      // The server keeps a session's counts until it is idle and a second has passed; this flushes them now.
      await database.query('SELECT pg_stat_force_next_flush()');
      await database.query('SELECT pg_stat_clear_snapshot()');
      const { rows } = await database.query<{ table: string; writes: string }>(
        'SELECT relname AS table, n_tup_ins + n_tup_upd + n_tup_del AS writes FROM pg_stat_user_tables WHERE schemaname = $1',
        [database.schema.slice(1, -1)],
      );
      return new Map(rows.map((row) => [row.table, Number(row.writes)]));
    };
    const before = await counts();
    await work();
    const after = await counts();
    return Object.fromEntries(TABLES.map((table) => [table, (after.get(table) ?? 0) - (before.get(table) ?? 0)]));
  };
  const xminById = async () => {
    const { rows } = await database.query<{ id: string; xmin: string }>(
      `SELECT id, xmin::text AS xmin FROM ${database.schema}.records`,
    );
    return new Map(rows.map((row) => [row.id, row.xmin]));
  };
  const noWrites = Object.fromEntries(TABLES.map((table) => [table, 0]));

  beforeEach(async () => {
    await load(lines);
    reads.count = 0;
  });

  it('leaves statistics on the tables a load made, so the next load looks its lines up through the index', async () => {
    const fresh = await database.reopen();
    try {
      const other = { ...fresh, schema: `${database.schema.slice(0, -1)}_stats"` };
      const loaded = await loadRecordLines(sha256, other, 'records.jsonl', [`${lines.join('\n')}\n`], tokeniser);
      expect(loaded.ok && loaded.value.layout).toBe('created');
      const { rows } = await fresh.query<{ table: string; rows: number }>(
        `SELECT relname AS table, reltuples::integer AS rows FROM pg_class WHERE relnamespace = $1::regnamespace AND relname IN ('records', 'documents')`,
        [other.schema],
      );
      // Never analysed, a table says -1 rows, and the planner scans every document for each batch of line hashes.
      expect(Object.fromEntries(rows.map((row) => [row.table, row.rows]))).toEqual({
        records: records.length,
        documents: records.length,
      });
      await fresh.query(`DROP SCHEMA ${other.schema} CASCADE`);
    } finally {
      await fresh.end();
    }
  });

  it('loads the same file again without reading a record or writing a row, and leaves the snapshot as it was', async () => {
    const { rows } = await database.query<{ snapshot: string }>(`SELECT snapshot FROM ${database.schema}.layout`);
    let report: Awaited<ReturnType<typeof load>> | undefined;
    expect(await writesBy(async () => (report = await load(lines)))).toEqual(noWrites);
    expect(report).toEqual({
      layout: 'current',
      inserted: 0,
      updated: 0,
      deleted: 0,
      unchanged: records.length,
      snapshot: Number(rows[0]?.snapshot),
    });
    expect(reads.count).toBe(0);
  });

  it('gives a line whose bytes changed but not its record only its new hash, so that file loads again reading nothing', async () => {
    // The same record written with a space after its first brace: other bytes, the same fingerprint.
    const respaced = lines.map((line, index) => (index === 0 ? line.replace(/^\{/, '{ ') : line));
    expect(respaced[0]).not.toBe(lines[0]);
    const first = await writesBy(async () =>
      expect(await load(respaced)).toMatchObject({ inserted: 0, updated: 0, deleted: 0, unchanged: records.length }),
    );
    expect(reads.count).toBe(1);
    expect(first).toEqual({ ...noWrites, documents: 1 });
    reads.count = 0;
    expect(await writesBy(async () => load(respaced))).toEqual(noWrites);
    expect(reads.count).toBe(0);
  });

  it('reads and writes only a line inserted at the top of a shuffled file, and compiles it to the receipt the file compiles to', async () => {
    const before = await xminById();
    const added = { ...records[0], id: 'added-at-the-top' };
    const shuffled = [
      JSON.stringify(added),
      ...lines.filter((_, index) => index % 2 === 1),
      ...lines.filter((_, index) => index % 2 === 0),
    ];
    let report: Awaited<ReturnType<typeof load>> | undefined;
    const writes = await writesBy(async () => (report = await load(shuffled)));
    expect(report).toMatchObject({ inserted: 1, updated: 0, deleted: 0, unchanged: records.length });
    expect(reads.count).toBe(1);
    expect(writes.records).toBe(1);
    const after = await xminById();
    expect([...before].filter(([id, xmin]) => after.get(id) !== xmin)).toEqual([]);

    const fileOrder = parseRecordsJsonl(sha256, 'records.jsonl', [JSON.stringify(added), ...lines].join('\n'));
    if (!fileOrder.ok) throw new Error(fileOrder.error.message);
    const reference = await createSqliteCompiler(sha256, await openInMemoryDatabase()).compile({
      contract: sample.contract,
      recordSet: fileOrder.value,
      attestation: 'candidates',
    });
    const inDatabase = await compileInDatabase(sha256, database, sample.contract, tokeniser);
    if (!reference.ok || !inDatabase.ok) throw new Error('both compile');
    expect(serialiseReceipt(namingAdapterOf(inDatabase.value.outcome.receipt, reference.value.receipt))).toBe(
      serialiseReceipt(reference.value.receipt),
    );
  });

  it('upserts one record by writing that record alone, and counts the snapshot up', async () => {
    const before = await xminById();
    const { rows } = await database.query<{ snapshot: string }>(`SELECT snapshot FROM ${database.schema}.layout`);
    const changed = { ...records[3], title: 'A title changed by an upsert' };
    const id = changed.id ?? '';
    const postings = async () =>
      Number(
        (
          await database.query<{ n: string }>(
            `SELECT count(*) AS n FROM ${database.schema}.postings WHERE record_id = $1`,
            [id],
          )
        ).rows[0]?.n,
      );
    const postingsBefore = await postings();
    let report: Awaited<ReturnType<typeof load>> | undefined;
    const writes = await writesBy(async () => (report = await load([JSON.stringify(changed)], 'upsert')));
    expect(report).toMatchObject({
      inserted: 0,
      updated: 1,
      deleted: 0,
      unchanged: 0,
      snapshot: Number(rows[0]?.snapshot) + 1,
    });
    // Replaced: its old rows deleted and its new ones inserted, in every table, and no other row written.
    expect(writes).toEqual({
      records: 2,
      documents: 2,
      postings: postingsBefore + (await postings()),
      supersession_breaks: 0,
    });
    const after = await xminById();
    expect(after.size).toBe(records.length);
    expect([...before].filter(([each, xmin]) => after.get(each) !== xmin).map(([each]) => each)).toEqual([id]);
  });

  it('runs every statement of an upsert and of a delete with JIT off, which costs more than the statements that keep the digest', async () => {
    // The setting in force after each statement of the transaction (a look at the layout before it is not the load's
    // work).
    const settings: string[] = [];
    let inTransaction = false;
    const watched: Database = {
      ...database,
      query: (async (text: string, values?: unknown[]) => {
        const result = await database.query(text, values);
        if (/^(COMMIT|ROLLBACK)/.test(text)) inTransaction = false;
        else if (inTransaction)
          settings.push(
            (await database.query<{ jit: string }>("SELECT current_setting('jit') AS jit")).rows[0]?.jit ?? '',
          );
        if (text.startsWith('BEGIN')) inTransaction = true;
        return result;
      }) as Database['query'],
    };
    const changed = { ...records[4], title: 'A title changed while JIT is watched' };
    const upserted = await loadRecordLines(
      sha256,
      watched,
      'records.jsonl',
      [`${JSON.stringify(changed)}\n`],
      tokeniser,
      {
        mode: 'upsert',
      },
    );
    expect(upserted.ok).toBe(true);
    const deleted = await deleteRecords(watched, [changed.id ?? '']);
    expect(deleted.ok && deleted.value.deleted).toBe(1);
    expect(settings.length).toBeGreaterThan(10);
    expect(new Set(settings)).toEqual(new Set(['off']));
    await load([JSON.stringify(records[4])], 'upsert');
  });

  it('deletes the records named, their documents and postings, and no other', async () => {
    const [first, second] = records;
    const gone = [first?.id ?? '', second?.id ?? ''];
    const before = await xminById();
    const report = await deleteRecords(database, [...gone, 'no-such-record']);
    expect(report.ok && report.value).toMatchObject({ deleted: 2, absent: ['no-such-record'] });
    const after = await xminById();
    expect([...after.keys()].sort()).toEqual([...before.keys()].filter((id) => !gone.includes(id)).sort());
    expect([...after].filter(([id, xmin]) => before.get(id) !== xmin)).toEqual([]);
    for (const table of ['documents', 'postings']) {
      const column = table === 'documents' ? 'id' : 'record_id';
      const { rows } = await database.query<{ left: number }>(
        `SELECT count(*)::integer AS left FROM ${database.schema}.${table} WHERE ${column} = ANY($1::text[])`,
        [gone],
      );
      expect(rows[0]?.left, table).toBe(0);
    }
  });

  it('refuses duplicate ids and unreadable lines with the issues a whole reading of the file gives, and writes nothing', async () => {
    const refusedLines = [
      ...lines.slice(0, 4),
      '{"id": "half a record"',
      lines[1] ?? '',
      JSON.stringify({ ...records[5], title: 'new text' }),
      ...lines.slice(4),
      lines[2] ?? '',
    ];
    const before = await xminById();
    const refused = await loadRecordLines(
      sha256,
      database,
      'records.jsonl',
      [`${refusedLines.join('\n')}\n`],
      tokeniser,
    );
    const whole = parseRecordsJsonl(sha256, 'records.jsonl', refusedLines.join('\n'));
    if (!whole.ok) throw new Error(whole.error.message);
    expect(refused.ok || refused.error).toEqual(unreadableRecordsError(whole.value));
    expect(await xminById()).toEqual(before);
  });
});
