import { sha256 } from '../../core/test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SourceRecord } from '../../core/format/record';
import { resolve } from '../../core/phases/2-resolve/resolve';
import { createRecordSet } from '../../core/phases/1-validate/validate';
import { brokenLinksCase } from '../conformance/corpus';
import { brokenLinksOf, keepBrokenLinks, storedBrokenLinks } from './broken-links';
import { deleteRecords, loadRecordSet } from './load-records';
import { openTestDatabase, POSTGRES_URL, type TestDatabase } from './test-server';
import { type Tokeniser } from './tokens';
import { createUnicodeTokeniser } from './unicode61';
import { watchStatements } from './watch-statements';

const sample = brokenLinksCase();
const withLinks = (record: SourceRecord, supersedes: string[]): SourceRecord => ({ ...record, supersedes });
const byId = (records: readonly SourceRecord[], id: string) =>
  records.find((record) => record.id === id) as SourceRecord;

/** Resolve's broken links over the whole record set: the reference. */
function reference(records: readonly SourceRecord[]) {
  const resolution = resolve(sample.contract, createRecordSet(sha256, records));
  if (!resolution.ok) throw new Error(resolution.error.message);
  return new Map(
    resolution.value.records.flatMap((item) =>
      item.brokenLink === null ? [] : [[item.checked.record.id, item.brokenLink] as const],
    ),
  );
}

describe('broken supersession links from the supersession graph alone', () => {
  it('finds what resolve finds: dangling first, then the record itself, then a cycle (a long one and one through a dangling record too)', () => {
    const records = [
      ...sample.records,
      ...['l1', 'l2', 'l3', 'l4']
        .map((id, index, all) => withLinks(byId(sample.records, 'c3'), [all[(index + 1) % all.length] as string]))
        .map((record, index) => ({ ...record, id: `l${index + 1}` })),
      { ...withLinks(byId(sample.records, 'c3'), ['m2', 'GONE']), id: 'm1' },
      { ...withLinks(byId(sample.records, 'c3'), ['m1']), id: 'm2' },
    ];
    const successors = new Map(
      records.filter((record) => record.supersedes.length > 0).map((record) => [record.id, record.supersedes]),
    );
    const ids = new Set(records.map((record) => record.id));
    const found = brokenLinksOf(successors, (id) => ids.has(id));
    expect([...found].sort(([a], [b]) => (a < b ? -1 : 1))).toEqual(
      [...reference(records)].sort(([a], [b]) => (a < b ? -1 : 1)),
    );
    expect(found.get('m1')).toEqual({ kind: 'dangling', targets: ['GONE'] });
    expect(found.get('l1')).toEqual({ kind: 'cycle', successors: ['l4'] });
  });

  describe.skipIf(POSTGRES_URL === undefined)('kept by the load', () => {
    let database: TestDatabase;
    let tokeniser: Tokeniser;
    beforeAll(async () => {
      database = await openTestDatabase();
      tokeniser = createUnicodeTokeniser();
    });

    const load = async (records: readonly SourceRecord[], mode: 'replace' | 'upsert' = 'replace') => {
      const loaded = await loadRecordSet(sha256, database, 'links.jsonl', createRecordSet(sha256, records), tokeniser, {
        mode,
      });
      if (!loaded.ok) throw new Error(loaded.error.message);
    };

    it('holds the set resolve finds after a load, an upsert that breaks a cycle, and a delete that leaves a link dangling', async () => {
      let records: SourceRecord[] = [...sample.records];
      await load(records);
      expect(await storedBrokenLinks(database)).toEqual(reference(records));

      const unlinked = withLinks(byId(records, 'c2'), []);
      records = records.map((record) => (record.id === 'c2' ? unlinked : record));
      await load([unlinked], 'upsert');
      expect(await storedBrokenLinks(database)).toEqual(reference(records));
      expect((await storedBrokenLinks(database)).has('c2')).toBe(false);

      const deleted = await deleteRecords(database, ['c2']);
      expect(deleted.ok).toBe(true);
      records = records.filter((record) => record.id !== 'c2');
      expect(await storedBrokenLinks(database)).toEqual(reference(records));
      expect((await storedBrokenLinks(database)).get('c1')).toEqual({ kind: 'dangling', targets: ['c2'] });
    });

    it('after an upsert or delete, reads only the successors near the change, and holds the set resolve finds', async () => {
      const base = byId(sample.records, 'c3');
      let records: SourceRecord[] = Array.from({ length: 600 }, (_, index) =>
        withLinks({ ...base, id: `k${index}` }, index % 20 === 1 ? [`k${index - 1}`] : []),
      );
      await load(records);
      let successorRows = 0;
      const watched = watchStatements(database, {
        rows: (text, rows) => {
          if (text.includes('supersedes FROM')) successorRows += rows.length;
          return rows;
        },
      });
      const change = async (next: SourceRecord[], changed: SourceRecord[]) => {
        records = next;
        successorRows = 0;
        const loaded = await loadRecordSet(
          sha256,
          watched,
          'links.jsonl',
          createRecordSet(sha256, changed),
          tokeniser,
          {
            mode: 'upsert',
          },
        );
        if (!loaded.ok) throw new Error(loaded.error.message);
        expect(await storedBrokenLinks(database)).toEqual(reference(records));
        return successorRows;
      };
      // A new successor whose target is missing, then the target arriving: dangling, then mended.
      const dangling = withLinks({ ...base, id: 'k-new' }, ['k-later']);
      expect(await change([...records, dangling], [dangling])).toBeLessThanOrEqual(1);
      expect((await storedBrokenLinks(database)).get('k-new')).toEqual({ kind: 'dangling', targets: ['k-later'] });
      const later = withLinks({ ...base, id: 'k-later' }, []);
      expect(await change([...records, later], [later])).toBeLessThanOrEqual(1);
      expect((await storedBrokenLinks(database)).has('k-new')).toBe(false);
      // A record that closes a cycle: every successor is read, as after a load into empty tables.
      const closing = withLinks({ ...later, id: 'k-later' }, ['k-new']);
      const next = records.map((record) => (record.id === 'k-later' ? closing : record));
      expect(await change(next, [closing])).toBeGreaterThan(20);
      const deleted = await deleteRecords(database, ['k0']);
      expect(deleted.ok).toBe(true);
      records = records.filter((record) => record.id !== 'k0');
      expect(await storedBrokenLinks(database)).toEqual(reference(records));
      expect((await storedBrokenLinks(database)).get('k1')).toEqual({ kind: 'dangling', targets: ['k0'] });
    });

    it('keeps the set by reading the records that supersede something and their targets, not every record', async () => {
      const base = byId(sample.records, 'c3');
      // Many records, a few of them successors (one dangling): a join over every record would read them all.
      const records = Array.from({ length: 3000 }, (_, index) =>
        withLinks(
          { ...base, id: `n${index}` },
          index % 100 === 1 ? [`n${index - 1}`, ...(index === 1 ? ['GONE'] : [])] : [],
        ),
      );
      await load(records);
      await database.query('BEGIN');
      try {
        const scanned = async () => {
          const { rows } = await database.query<{ read: string }>(
            `SELECT coalesce(seq_tup_read, 0) AS read FROM pg_stat_xact_user_tables WHERE relid = $1::regclass`,
            [`${database.schema}.records`],
          );
          return Number(rows[0]?.read ?? 0);
        };
        const before = await scanned();
        await keepBrokenLinks(database, 'all');
        expect(await scanned()).toBe(before);
      } finally {
        await database.query('ROLLBACK');
      }
      expect(await storedBrokenLinks(database)).toEqual(reference(records));
      expect((await storedBrokenLinks(database)).get('n1')).toEqual({ kind: 'dangling', targets: ['GONE'] });
    });
  });
});
