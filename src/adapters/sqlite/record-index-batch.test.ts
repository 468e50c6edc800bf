import { beforeEach, describe, expect, it } from 'vitest';
import type { SourceRecord } from '../../core/format/record';
import { buildRecord, buildRecordSet } from '../../core/test-support/builders';
import { freshDriver } from '../../core/test-support/node-driver';
import type { SqlDriver } from './driver';
import { createRecordIndex } from './record-index';
import type { RecordIndex } from './record-index-api';

let driver: SqlDriver;
let index: RecordIndex;

beforeEach(async () => {
  driver = await freshDriver();
  index = createRecordIndex(driver);
});

const rows = (sql: string) => driver.all(sql);

function sync(records: readonly SourceRecord[]) {
  const recordSet = buildRecordSet(records);
  const report = index.sync(recordSet);
  index.syncCorpusText(recordSet);
  return report;
}

describe('createRecordIndex batched inserts', () => {
  it('stores every column exactly, including doubles, nulls and epoch milliseconds', () => {
    const relevances = [0.1, 0.30000000000000004, 1 / 3, 5e-324, 123456.789, -2.5, 7];
    const records = relevances.map((relevance, position) =>
      buildRecord({
        id: `r${position}`,
        relevance,
        subject: position % 2 === 0 ? null : 'acme',
        validTo: position % 3 === 0 ? null : '2027-01-31',
        knownAt: '2026-08-01T09:30:15.250+02:00',
      }),
    );
    sync(records);
    const stored = rows(
      'SELECT id, relevance, subject, valid_to, known_at, tokens, provenance_ok, fingerprint FROM records ORDER BY rowid',
    );
    expect(stored).toEqual(
      buildRecordSet(records).checked.map((item, position) => [
        item.record.id,
        relevances[position],
        item.record.subject,
        item.record.validTo === null ? null : Date.UTC(2027, 0, 31) + 86_400_000 - 1,
        Date.UTC(2026, 7, 1, 7, 30, 15, 250),
        10,
        1,
        item.fingerprint,
      ]),
    );
  });

  it('writes the side tables and the full-text index for every record of a large batch', () => {
    const records = Array.from({ length: 1_234 }, (_, position) =>
      buildRecord({
        id: `r${position}`,
        text: `refund ${position}`,
        access: { roles: ['agent', 'analyst'], labels: position % 10 === 0 ? ['investigation'] : [] },
        evidence: { class: 'email', supports: ['p1'], contradicts: ['p2'] },
        supersedes: position > 0 && position % 100 === 0 ? [`r${position - 1}`] : [],
      }),
    );
    expect(sync(records)).toMatchObject({ inserted: 1_234, updated: 0, deleted: 0 });
    expect(rows('SELECT count(*) FROM records r JOIN role_lists x ON x.list = r.roles')).toEqual([[2_468]]);
    expect(rows('SELECT count(*) FROM records r JOIN label_lists x ON x.list = r.labels')).toEqual([[124]]);
    expect(rows('SELECT (SELECT count(*) FROM role_lists), (SELECT count(*) FROM label_lists)')).toEqual([[2, 1]]);
    expect(rows('SELECT count(*) FROM record_claims')).toEqual([[2_468]]);
    expect(rows('SELECT count(*) FROM supersessions')).toEqual([[12]]);
    expect(rows(`SELECT count(*) FROM corpus_text WHERE corpus_text MATCH '"refund"'`)).toEqual([[1_234]]);
    expect(
      rows(
        `SELECT r.id FROM corpus_text JOIN records r ON r.rowid = corpus_text.rowid WHERE corpus_text MATCH '"1233"'`,
      ),
    ).toEqual([['r1233']]);
  });

  it('re-indexes only a replaced record and deletes records that are gone', () => {
    const records = [buildRecord({ id: 'a' }), buildRecord({ id: 'b', supersedes: ['a'] }), buildRecord({ id: 'c' })];
    sync(records);
    const replaced = buildRecord({ id: 'b', text: 'changed words', supersedes: [] });
    expect(sync([records[0] as SourceRecord, replaced])).toMatchObject({ inserted: 0, updated: 1, deleted: 1 });
    expect(rows('SELECT id FROM records ORDER BY id')).toEqual([['a'], ['b']]);
    expect(rows('SELECT count(*) FROM supersessions')).toEqual([[0]]);
    expect(
      rows(
        `SELECT r.id FROM corpus_text JOIN records r ON r.rowid = corpus_text.rowid WHERE corpus_text MATCH '"changed"'`,
      ),
    ).toEqual([['b']]);
    expect(index.size).toBe(2);
  });
});
