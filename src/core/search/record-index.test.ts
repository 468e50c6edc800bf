import { beforeAll, describe, expect, it } from 'vitest';
import type { SourceRecord } from '../format/record';
import { buildRecord } from '../test-support/builders';
import { freshDriver } from '../test-support/node-driver';
import type { SqlDriver } from './driver';
import { createRecordIndex, type RecordIndex } from './record-index';

let driver: SqlDriver;
let index: RecordIndex;

beforeAll(async () => {
  driver = await freshDriver();
  index = createRecordIndex(driver);
});

const column = (sql: string, params: (string | number)[] = []) => driver.all(sql, params).map(([value]) => value);
const matching = (word: string) => column('SELECT r.id FROM record_text JOIN records r ON r.rowid = record_text.rowid WHERE record_text MATCH ? ORDER BY r.id', [`"${word}"`]);
const rolesOf = (id: string) => column('SELECT x.role FROM record_roles x JOIN records r ON r.rowid = x.record_rowid WHERE r.id = ? ORDER BY x.role', [id]);

describe('record index sync', () => {
  const a = buildRecord({ id: 'a', text: 'apple', access: { roles: ['agent', 'lead'] } });
  const b = buildRecord({ id: 'b', text: 'banana', supersedes: ['a'] });
  const c = buildRecord({ id: 'c', text: 'cherry' });

  it('inserts new records with their side tables and text', () => {
    const progress: [number, number][] = [];
    expect(index.sync([a, b, c], (done, total) => progress.push([done, total]))).toMatchObject({ inserted: 3, updated: 0, deleted: 0 });
    expect(index.size).toBe(3);
    expect(rolesOf('a')).toEqual(['agent', 'lead']);
    expect(column("SELECT target || '>' || successor FROM supersessions")).toEqual(['a>b']);
    expect(matching('banana')).toEqual(['b']);
    expect(progress.at(-1)).toEqual([3, 3]);
  });

  it('touches nothing when the same record objects come back', () => {
    expect(index.sync([c, a, b])).toMatchObject({ inserted: 0, updated: 0, deleted: 0 });
  });

  it('re-indexes only the records whose object changed', () => {
    const changedA: SourceRecord = buildRecord({ id: 'a', text: 'apricot', access: { roles: ['auditor'] } });
    expect(index.sync([changedA, b, c])).toMatchObject({ inserted: 0, updated: 1, deleted: 0 });
    expect(matching('apple')).toEqual([]);
    expect(matching('apricot')).toEqual(['a']);
    expect(rolesOf('a')).toEqual(['auditor']);
    expect(column('SELECT COUNT(*) FROM records')).toEqual([3]);
  });

  it('deletes removed ids with their side tables, text and supersession links', () => {
    const kept = buildRecord({ id: 'c', text: 'cherry' });
    expect(index.sync([kept])).toMatchObject({ inserted: 0, updated: 1, deleted: 2 });
    expect(index.size).toBe(1);
    expect(column('SELECT id FROM records')).toEqual(['c']);
    expect(matching('banana')).toEqual([]);
    expect(column('SELECT COUNT(*) FROM supersessions')).toEqual([0]);
    expect(column('SELECT COUNT(*) FROM record_roles')).toEqual([1]);
  });
});
