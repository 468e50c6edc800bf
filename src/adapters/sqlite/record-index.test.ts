import { beforeAll, describe, expect, it } from 'vitest';
import type { SourceRecord } from '../../core/format/record';
import { lowerResolved } from '../../core/test-support/builders';
import { buildContract, buildRecord, buildRecordSet, resolveOrThrow, valueOf } from '../../core/test-support/builders';
import { freshDriver } from '../../core/test-support/node-driver';
import type { SqlDriver } from './driver';
import { createRecordIndex } from './record-index';
import type { RecordIndex } from './record-index-api';

let driver: SqlDriver;
let index: RecordIndex;

beforeAll(async () => {
  driver = await freshDriver();
  index = createRecordIndex(driver);
});

const column = (sql: string, params: (string | number)[] = []) => driver.all(sql, params).map(([value]) => value);
const matching = (word: string) =>
  column(
    'SELECT r.id FROM corpus_text JOIN records r ON r.rowid = corpus_text.rowid WHERE corpus_text MATCH ? ORDER BY r.id',
    [`"${word}"`],
  );
const rolesOf = (id: string) =>
  column('SELECT x.role FROM role_lists x JOIN records r ON r.roles = x.list WHERE r.id = ? ORDER BY x.role', [id]);

function sync(records: readonly SourceRecord[]) {
  const recordSet = buildRecordSet(records);
  const report = index.sync(recordSet);
  index.syncCorpusText(recordSet);
  return report;
}

describe('record index sync', () => {
  const a = buildRecord({ id: 'a', text: 'apple', access: { roles: ['agent', 'lead'] } });
  const b = buildRecord({ id: 'b', text: 'banana', supersedes: ['a'] });
  const c = buildRecord({ id: 'c', text: 'cherry' });

  it('inserts new records with their side tables and text', () => {
    const progress: [number, number][] = [];
    expect(index.sync(buildRecordSet([a, b, c]), (done, total) => progress.push([done, total]))).toMatchObject({
      inserted: 3,
      updated: 0,
      deleted: 0,
    });
    index.syncCorpusText(buildRecordSet([a, b, c]));
    expect(index.size).toBe(3);
    expect(rolesOf('a')).toEqual(['agent', 'lead']);
    expect(column("SELECT target || '>' || successor FROM supersessions")).toEqual(['a>b']);
    expect(matching('banana')).toEqual(['b']);
    expect(progress.at(-1)).toEqual([3, 3]);
  });

  it('touches nothing when the same records come back, in any order', () => {
    expect(sync([c, a, b])).toMatchObject({ inserted: 0, updated: 0, deleted: 0 });
  });

  it('re-indexes only the records that changed, and their text', () => {
    const changedA: SourceRecord = buildRecord({ id: 'a', text: 'apricot', access: { roles: ['auditor'] } });
    expect(sync([changedA, b, c])).toMatchObject({ inserted: 0, updated: 1, deleted: 0 });
    expect(matching('apple')).toEqual([]);
    expect(matching('apricot')).toEqual(['a']);
    expect(rolesOf('a')).toEqual(['auditor']);
    expect(column('SELECT COUNT(*) FROM records')).toEqual([3]);
  });

  it('deletes removed ids with their side tables, text and supersession links', () => {
    const kept = buildRecord({ id: 'c', text: 'cherry' });
    expect(sync([kept])).toMatchObject({ inserted: 0, updated: 0, deleted: 2 });
    expect(index.size).toBe(1);
    expect(column('SELECT id FROM records')).toEqual(['c']);
    expect(matching('banana')).toEqual([]);
    expect(column('SELECT COUNT(*) FROM supersessions')).toEqual([0]);
    expect(rolesOf('c')).toEqual(['agent']);
  });
});

describe('roles, purposes and labels', () => {
  it('store each distinct list once, whatever its order or repeats, and find them again in a reopened database', async () => {
    const own = await freshDriver();
    const records = [
      buildRecord({ id: 'a', access: { roles: ['agent', 'lead'], labels: [] } }),
      buildRecord({ id: 'b', access: { roles: ['lead', 'agent', 'lead'], labels: ['hr'] } }),
      buildRecord({ id: 'c', access: { roles: ['auditor'], labels: [] } }),
    ];
    createRecordIndex(own).sync(buildRecordSet(records));
    const [ab, ba, c] = own.all('SELECT roles FROM records ORDER BY id').map(([list]) => list);
    expect(ab).toBe(ba);
    expect(c).not.toBe(ab);
    expect(own.all('SELECT list, role FROM role_lists ORDER BY list, role')).toEqual([
      [ab, 'agent'],
      [ab, 'lead'],
      [c, 'auditor'],
    ]);
    // An empty list is number 0 and has no rows.
    expect(own.all("SELECT labels FROM records WHERE id = 'a'")).toEqual([[0]]);

    const reopened = createRecordIndex(own);
    reopened.sync(
      buildRecordSet([
        ...records,
        buildRecord({ id: 'd', access: { roles: ['lead', 'agent'], labels: [] } }),
        buildRecord({ id: 'e', access: { roles: ['reviewer'], labels: ['hr'] } }),
      ]),
    );
    const after = own.all("SELECT id, roles, labels FROM records WHERE id IN ('b', 'd', 'e') ORDER BY id") as [
      string,
      number,
      number,
    ][];
    expect(after[1]?.[1]).toBe(ab);
    expect(after[2]?.[2]).toBe(after[0]?.[2]);
    expect(new Set([ab, c, after[2]?.[1]]).size).toBe(3);
  });

  it('find a stored list again in a reopened database whatever its characters, where SQLite and JavaScript order strings apart', async () => {
    const own = await freshDriver();
    // U+FFFF sorts after an astral character in UTF-8 (SQLite's order) and before it in UTF-16 (JavaScript's).
    const roles = ['\uffff', '😀'];
    createRecordIndex(own).sync(buildRecordSet([buildRecord({ id: 'a', access: { roles } })]));
    createRecordIndex(own).sync(
      buildRecordSet([
        buildRecord({ id: 'a', access: { roles } }),
        buildRecord({ id: 'b', access: { roles: [...roles].reverse() } }),
      ]),
    );
    expect(own.all('SELECT DISTINCT roles FROM records')).toHaveLength(1);
    expect(own.all('SELECT COUNT(*) FROM role_lists')).toEqual([[2]]);
  });

  it('a database written with another layout has its index rebuilt instead of failing the load', async () => {
    const own = await freshDriver();
    own.exec(`CREATE TABLE records (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, fingerprint TEXT NOT NULL);
      CREATE TABLE record_roles (record_rowid INTEGER NOT NULL, role TEXT NOT NULL);
      INSERT INTO records VALUES (1, 'a', 'old');
      CREATE TABLE stored_records (rowid INTEGER PRIMARY KEY, doc TEXT);
      INSERT INTO stored_records VALUES (1, 'kept');`);
    const rebuilt = createRecordIndex(own);
    expect(rebuilt.size).toBe(0);
    expect(rebuilt.sync(buildRecordSet([buildRecord({ id: 'a' })]))).toEqual({ inserted: 1, updated: 0, deleted: 0 });
    expect(own.all("SELECT name FROM sqlite_schema WHERE name = 'record_roles'")).toEqual([]);
    // Tables the index does not own are left alone.
    expect(own.all('SELECT doc FROM stored_records')).toEqual([['kept']]);
    expect(createRecordIndex(own).size).toBe(1);
  });
});

describe('a record index opened on a database that already holds records', () => {
  it('recognises unchanged records by fingerprint and rewrites only the ones that differ', async () => {
    const own = await freshDriver();
    const records = [
      buildRecord({ id: 'a', text: 'apple' }),
      buildRecord({ id: 'b', text: 'banana' }),
      buildRecord({ id: 'c' }),
    ];
    createRecordIndex(own).sync(buildRecordSet(records));
    const reopened = createRecordIndex(own);
    expect(reopened.size).toBe(3);
    const changed = [records[0] as SourceRecord, buildRecord({ id: 'b', text: 'blueberry' }), buildRecord({ id: 'd' })];
    expect(reopened.sync(buildRecordSet(changed))).toEqual({ inserted: 1, updated: 1, deleted: 1 });
    expect(own.all('SELECT id FROM records ORDER BY id').map(([id]) => id)).toEqual(['a', 'b', 'd']);
  });
});

describe('the whole-corpus text', () => {
  it('is looked for again only after a row was written without its text or a text was dropped', async () => {
    const own = await freshDriver();
    const searches: string[] = [];
    // Counts the anti-join that finds rows missing from corpus_text.
    const watched: SqlDriver = {
      ...own,
      all: (sql, params) => {
        if (sql.includes('NOT IN (SELECT id FROM corpus_text_docsize)')) searches.push(sql);
        return own.all(sql, params);
      },
    };
    const textIndex = createRecordIndex(watched);
    const a = buildRecord({ id: 'a', text: 'apple' });
    const b = buildRecord({ id: 'b', text: 'banana' });
    const step = (records: readonly SourceRecord[]) => {
      const recordSet = buildRecordSet(records);
      textIndex.sync(recordSet);
      textIndex.syncCorpusText(recordSet);
      return searches.length;
    };
    const words = () =>
      own.all(
        `SELECT count(*) FROM corpus_text WHERE corpus_text MATCH '"apple" OR "banana" OR "cherry" OR "blueberry"'`,
      )[0]?.[0];
    expect(step([a, b])).toBe(1);
    // A toggle's kind of change: labels only, the texts stay.
    expect(step([a, { ...b, access: { ...b.access, labels: ['hr'] } }])).toBe(1);
    expect(step([a, b, buildRecord({ id: 'c', text: 'cherry' })])).toBe(2);
    expect(words()).toBe(3);
    expect(step([a, buildRecord({ id: 'b', text: 'blueberry' }), buildRecord({ id: 'c', text: 'cherry' })])).toBe(3);
    expect(own.all(`SELECT count(*) FROM corpus_text WHERE corpus_text MATCH '"blueberry"'`)).toEqual([[1]]);
    expect(step([a])).toBe(4);
    expect(words()).toBe(1);
  });
});

describe('admission in SQL', () => {
  it('re-runs the predicate over changed rows and their supersession targets only, with the answer of a full run', async () => {
    const own = await freshDriver();
    const sqlIndex = createRecordIndex(own);
    const contract = buildContract({ denyLabels: ['hr'] });
    const admittedBy = (records: readonly SourceRecord[]) => {
      sqlIndex.sync(buildRecordSet(records));
      const lowered = valueOf(lowerResolved(resolveOrThrow(contract, records), 999));
      const incremental = [...sqlIndex.admit(lowered)].sort();
      const full = own
        .all(`SELECT r.id FROM records r WHERE ${lowered.where}`, lowered.params)
        .map(([id]) => String(id))
        .sort();
      expect(incremental).toEqual(full);
      return incremental;
    };
    const old = buildRecord({ id: 'old' });
    const successor = buildRecord({ id: 'new', supersedes: ['old'], lifecycle: 'draft' });
    expect(admittedBy([old, successor, buildRecord({ id: 'x' })])).toEqual(['new', 'old', 'x']);
    // The successor becomes active: it now governs, and its target must be looked at again although the target did not
    // change.
    expect(admittedBy([old, { ...successor, lifecycle: 'active' }, buildRecord({ id: 'x' })])).toEqual(['new', 'x']);
    expect(
      admittedBy([old, { ...successor, lifecycle: 'active' }, buildRecord({ id: 'x', access: { labels: ['hr'] } })]),
    ).toEqual(['new']);
    // The successor disappears: its former target is admitted again.
    expect(admittedBy([old, buildRecord({ id: 'x' })])).toEqual(['old', 'x']);
  });

  it('after a toggle reads back only the rows it looked at again, and the very array synced again runs nothing', async () => {
    const own = await freshDriver();
    const fullReads: string[] = [];
    let transactions = 0;
    const watched: SqlDriver = {
      ...own,
      all: (sql, params) => {
        if (sql.includes('FROM admitted JOIN records')) fullReads.push(sql);
        return own.all(sql, params);
      },
      transaction: (work) => {
        transactions += 1;
        return own.transaction(work);
      },
    };
    const sqlIndex = createRecordIndex(watched);
    const admittedBy = (records: readonly SourceRecord[], denyLabels: string[]) => {
      const recordSet = buildRecordSet(records);
      sqlIndex.sync(recordSet);
      const lowered = valueOf(lowerResolved(resolveOrThrow(buildContract({ denyLabels }), records), 999));
      const admitted = [...sqlIndex.admit(lowered)].sort();
      expect(admitted).toEqual(
        own
          .all(`SELECT r.id FROM records r WHERE ${lowered.where}`, lowered.params)
          .map(([id]) => String(id))
          .sort(),
      );
      return { recordSet, admitted };
    };
    const records = Array.from({ length: 40 }, (_, index) =>
      buildRecord({ id: `r${index}`, access: { labels: index % 7 === 0 ? ['hr'] : [] } }),
    );
    expect(admittedBy(records, ['hr']).admitted).toHaveLength(34);
    expect(fullReads).toHaveLength(1);
    const toggled = records.map((record, index) =>
      index === 3 ? { ...record, access: { ...record.access, labels: ['hr'] } } : record,
    );
    const { recordSet, admitted } = admittedBy(toggled, ['hr']);
    expect(admitted).toHaveLength(33);
    expect(admitted).not.toContain('r3');
    // r1 (admitted) leaves, r3 gets its label back.
    expect(admittedBy(records.slice(2), ['hr']).admitted).toHaveLength(33);
    expect(fullReads).toHaveLength(1);
    const before = transactions;
    sqlIndex.sync(recordSet);
    sqlIndex.sync(recordSet);
    expect(transactions).toBe(before + 1);
    // A new predicate runs over every row, and its answer is read whole.
    expect(admittedBy(records, ['hr', 'legal_hold']).admitted).toHaveLength(34);
    expect(fullReads).toHaveLength(2);
  });

  it('keeps admitted_text holding exactly the admitted rows', async () => {
    const own = await freshDriver();
    const sqlIndex = createRecordIndex(own);
    const step = (records: readonly SourceRecord[], scopes: string[]) => {
      const recordSet = buildRecordSet(records);
      sqlIndex.sync(recordSet);
      const admitted = sqlIndex.admit(valueOf(lowerResolved(resolveOrThrow(buildContract({ scopes }), records), 999)));
      sqlIndex.syncAdmittedText(recordSet);
      const held = own
        .all('SELECT r.id FROM admitted_text_docsize d JOIN records r ON r.rowid = d.id ORDER BY r.id')
        .map(([id]) => String(id));
      expect(held).toEqual([...admitted].sort());
      return held;
    };
    const records = [buildRecord({ id: 'a', text: 'apple' }), buildRecord({ id: 'b', scope: 'legal', text: 'banana' })];
    expect(step(records, ['support'])).toEqual(['a']);
    const generation = sqlIndex.admittedTextGeneration;
    expect(step(records, ['support'])).toEqual(['a']);
    expect(sqlIndex.admittedTextGeneration).toBe(generation);
    expect(step(records, ['support', 'legal'])).toEqual(['a', 'b']);
    expect(step([buildRecord({ id: 'a', text: 'avocado' }), records[1] as SourceRecord], ['legal'])).toEqual(['b']);
    expect(step([buildRecord({ id: 'a', text: 'avocado' }), records[1] as SourceRecord], ['support'])).toEqual(['a']);
    expect(own.all(`SELECT count(*) FROM admitted_text WHERE admitted_text MATCH '"avocado"'`)).toEqual([[1]]);
    expect(own.all(`SELECT count(*) FROM admitted_text WHERE admitted_text MATCH '"apple"'`)).toEqual([[0]]);
  });
});
