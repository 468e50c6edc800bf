import { beforeAll, describe, expect, it } from 'vitest';
import { createPrng } from '../../shared/prng';
import type { SourceRecord } from '../../core/format/record';
import { lowerResolved } from '../../core/test-support/builders';
import { buildContract, buildRecord, buildRecordSet, resolveOrThrow, valueOf } from '../../core/test-support/builders';
import { freshDriver, sharedDriver } from '../../core/test-support/node-driver';
import type { SqlDriver } from './driver';
import { toSafeFtsQuery } from './fts-query';
import { rankDeclared, roundScore } from '../../core/phases/5-rank/ranking';
import { rankAdmitted, rankCorpus } from './fts5-rank';
import { createRecordIndex } from './record-index';
import type { RecordIndex } from './record-index-api';

const WORDS = [
  'late',
  'payment',
  'fee',
  'waiver',
  'approval',
  'customer',
  'account',
  'ledger',
  'covenant',
  'the',
  'for',
  'notice',
  'ünïcödé',
  '東京',
];

function corpus(seed: number, count: number): SourceRecord[] {
  const random = createPrng(seed);
  const text = (words: number) => Array.from({ length: words }, () => random.pick(WORDS)).join(' ');
  return Array.from({ length: count }, (_, index) =>
    buildRecord({
      id: `r${String(index).padStart(4, '0')}`,
      title: text(random.int(1, 4)),
      text: text(random.int(3, 60)),
      relevance: random.chance(0.7) ? random.int(0, 9) / 3 : null,
      scope: random.chance(0.6) ? 'support' : 'legal',
    }),
  );
}

/** bm25 read row by row from any full-text table, as plain SQL would. */
function rowByRow(driver: SqlDriver, table: string, query: string): { id: string; score: number }[] {
  const match = toSafeFtsQuery(query) ?? '';
  return driver
    .all(
      `SELECT r.id, -bm25(${table}, 2.0, 1.0) AS score FROM ${table} JOIN records r ON r.rowid = ${table}.rowid WHERE ${table} MATCH ? ORDER BY round(score, 9) DESC, r.id`,
      [match],
    )
    .map(([id, score]) => ({ id: String(id), score: roundScore(Number(score)) }));
}

/** Admits the records the contract allows (`scopes`) and fills `admitted_text` with exactly those. */
function admitInto(index: RecordIndex, records: readonly SourceRecord[], scopes: string[]): void {
  const recordSet = buildRecordSet(records);
  index.sync(recordSet);
  index.admit(valueOf(lowerResolved(resolveOrThrow(buildContract({ scopes }), records), 999)));
  index.syncAdmittedText(recordSet);
}

const QUERIES = [
  'late payment fee waiver approval for the customer account',
  'covenant',
  'ünïcödé 東京',
  'ledger notice',
];

describe('rankCorpus', () => {
  let driver: SqlDriver;
  const records = corpus(11, 1_500);

  beforeAll(async () => {
    driver = await sharedDriver();
    const index = createRecordIndex(driver);
    index.sync(buildRecordSet(records));
    index.syncCorpusText(buildRecordSet(records));
  });

  it('gives the first k of the whole corpus with the exact scores of a row-by-row read', () => {
    for (const query of QUERIES)
      expect(rankCorpus(driver, query, 'bm25', 7)).toEqual(rowByRow(driver, 'corpus_text', query).slice(0, 7));
  });

  it('ranks by declared relevance, ties by id, leaving out records without one', () => {
    const expected = records
      .filter((record) => record.relevance !== null)
      .map((record) => ({ id: record.id, score: roundScore(record.relevance ?? 0) }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    expect(rankCorpus(driver, '', 'declared', 50)).toEqual(expected.slice(0, 50));
  });

  it('returns nothing for a query without a searchable word', () => {
    expect(rankCorpus(driver, '  ** "" ', 'bm25', 5)).toEqual([]);
  });
});

describe('rankAdmitted', () => {
  it('ranks every admitted match with statistics of the admitted set alone', async () => {
    const records = corpus(12, 800);
    const driver = await freshDriver();
    const index = createRecordIndex(driver);
    admitInto(index, records, ['support']);
    const admitted = records.filter((record) => record.scope === 'support');
    // The same records alone in a database of their own: the scores must be the same.
    const alone = await freshDriver();
    const aloneIndex = createRecordIndex(alone);
    admitInto(aloneIndex, admitted, ['support']);
    for (const query of QUERIES) {
      const ranking = rankAdmitted(driver, query, index.idOfRow);
      expect(ranking.rows).toEqual(rowByRow(driver, 'admitted_text', query));
      expect(ranking.rows).toEqual(rankAdmitted(alone, query, aloneIndex.idOfRow).rows);
      expect(ranking.rows.every((row) => admitted.some((record) => record.id === row.id))).toBe(true);
    }
  });

  it('reports the document count, token total and per-term document counts FTS5 used, also after rows are removed', async () => {
    const records = corpus(13, 300);
    const driver = await freshDriver();
    const index = createRecordIndex(driver);
    admitInto(index, records, ['support', 'legal']);
    admitInto(index, records, ['support']);
    const admitted = records.filter((record) => record.scope === 'support');
    const fresh = await freshDriver();
    const freshIndex = createRecordIndex(fresh);
    admitInto(freshIndex, admitted, ['support']);
    const statistics = rankAdmitted(driver, 'covenant ledger', index.idOfRow).statistics;
    expect(statistics).toEqual(rankAdmitted(fresh, 'covenant ledger', freshIndex.idOfRow).statistics);
    expect(statistics).toMatchObject({
      mode: 'bm25',
      statistics: 'admitted',
      documents: admitted.length,
      weights: { title: 2, text: 1 },
    });
    const documentsWith = (word: string) =>
      admitted.filter((record) => `${record.title} ${record.text}`.split(' ').includes(word)).length;
    expect(statistics.mode === 'bm25' && statistics.terms).toEqual([
      { term: 'covenant', documents: documentsWith('covenant') },
      { term: 'ledger', documents: documentsWith('ledger') },
    ]);
    const words = admitted.reduce((sum, record) => sum + `${record.title} ${record.text}`.split(' ').length, 0);
    expect(statistics.mode === 'bm25' && statistics.tokens).toBe(words);
  });
});

describe('rankDeclared', () => {
  it('orders by declared relevance, ties by id, and leaves out records without one', () => {
    const checked = buildRecordSet([
      buildRecord({ id: 'b', relevance: 1 }),
      buildRecord({ id: 'a', relevance: 1 }),
      buildRecord({ id: 'c', relevance: 2 }),
      buildRecord({ id: 'd' }),
    ]).checked;
    expect(rankDeclared(checked)).toEqual({
      rows: [
        { id: 'c', score: 2 },
        { id: 'a', score: 1 },
        { id: 'b', score: 1 },
      ],
      statistics: { mode: 'declared' },
    });
  });
});
