import { beforeAll, describe, expect, it } from 'vitest';
import { createPrng } from '../../shared/prng';
import { buildRecord } from '../test-support/builders';
import { sharedDriver } from '../test-support/node-driver';
import type { SqlDriver } from './driver';
import { toSafeFtsQuery } from './fts-query';
import { rankRecords } from './rank';
import { createRecordIndex } from './record-index';

const WORDS = ['late', 'payment', 'fee', 'waiver', 'approval', 'customer', 'account', 'ledger', 'covenant', 'the', 'for', 'notice', 'ünïcödé', '東京'];

let driver: SqlDriver;

beforeAll(async () => {
  driver = await sharedDriver();
  const random = createPrng(11);
  const text = (words: number) => Array.from({ length: words }, () => random.pick(WORDS)).join(' ');
  const records = Array.from({ length: 1_500 }, (_, index) =>
    buildRecord({ id: `r${String(index).padStart(4, '0')}`, title: text(random.int(1, 4)), text: text(random.int(3, 60)), relevance: random.chance(0.7) ? random.int(0, 9) / 3 : null }),
  );
  createRecordIndex(driver).sync(records);
});

/** The ranking read row by row, the way it was read before it came back as one JSON array. */
function rowByRow(query: string): { id: string; score: number }[] {
  const match = toSafeFtsQuery(query) ?? '';
  return driver
    .all('SELECT r.id, -bm25(record_text, 2.0, 1.0) AS score FROM record_text JOIN records r ON r.rowid = record_text.rowid WHERE record_text MATCH ? ORDER BY round(score, 9) DESC, r.id', [match])
    .map(([id, score]) => ({ id: String(id), score: Math.round(Number(score) * 1e9) / 1e9 }));
}

describe('rankRecords', () => {
  it('returns every match with the exact scores and order of a row-by-row read', () => {
    for (const query of ['late payment fee waiver approval for the customer account', 'covenant', 'ünïcödé 東京', 'ledger notice']) {
      const ranked = rankRecords(driver, query, 'bm25', null);
      expect(ranked.length).toBeGreaterThan(0);
      expect(ranked).toEqual(rowByRow(query));
    }
  });

  it('gives the naive top k as the first k rows of the full ranking', () => {
    const query = 'approval for the customer';
    expect(rankRecords(driver, query, 'bm25', 7)).toEqual(rankRecords(driver, query, 'bm25', null).slice(0, 7));
  });

  it('ranks by declared relevance, ties by id, and leaves out records without one', () => {
    const ranked = rankRecords(driver, '', 'declared', null);
    const expected = driver
      .all('SELECT id, relevance FROM records WHERE relevance IS NOT NULL')
      .map(([id, score]) => ({ id: String(id), score: Math.round(Number(score) * 1e9) / 1e9 }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    expect(ranked).toEqual(expected);
  });

  it('returns nothing for a query without a searchable word', () => {
    expect(rankRecords(driver, '  ** "" ', 'bm25', null)).toEqual([]);
  });
});
