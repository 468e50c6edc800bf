import { beforeAll, describe, expect, it } from 'vitest';
import { createPrng } from '../../shared/prng';
import { freshDriver } from '../../core/test-support/node-driver';
import { createAdmittedScorer, type AdmittedScorer } from './admitted-scorer';
import type { SqlDriver } from './driver';
import { toSafeFtsQuery } from './fts-query';
import { byScoreThenId, type RankedRow } from '../../core/phases/5-rank/ranking';
import { rankAdmitted } from './fts5-rank';
import { createRecordIndex } from './record-index';
import { TOKENIZER } from './record-tables';

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
  'unicode',
  '東京',
  'Ledger',
];
/**
 * `aꞔb` is one word to the query's letter class but two tokens to unicode61 (ꞔ is newer than its tables): FTS5 ranks
 * such queries itself.
 */
const QUERIES = [
  'late payment fee waiver approval for the customer account',
  'covenant',
  'ünïcödé unicode 東京',
  'ledger notice the',
  'nothing matches this',
  '',
  'fee aꞔb',
];

interface Doc {
  readonly rowid: number;
  title: string;
  text: string;
  admitted: boolean;
}

const unrounded = (score: number) => score;

/** bm25 from FTS5 over a table built just now from the admitted documents alone: the oracle, to the last bit. */
function oracle(driver: SqlDriver, docs: readonly Doc[], query: string): RankedRow[] {
  driver.exec(
    `DROP TABLE IF EXISTS temp.oracle; CREATE VIRTUAL TABLE temp.oracle USING fts5(title, text, ${TOKENIZER});`,
  );
  const insert = driver.prepare('INSERT INTO temp.oracle (rowid, title, text) VALUES (?, ?, ?)');
  for (const doc of docs) if (doc.admitted) insert.run([doc.rowid, doc.title, doc.text]);
  insert.finalize();
  const match = toSafeFtsQuery(query);
  if (match === null) return [];
  return driver
    .all('SELECT rowid, -bm25(oracle, 2.0, 1.0) FROM temp.oracle WHERE oracle MATCH ? ORDER BY rowid', [match])
    .map(([rowid, score]) => ({ id: `d${String(rowid)}`, score: Number(score) }))
    .sort(byScoreThenId);
}

describe('the admitted-set scorer', () => {
  let driver: SqlDriver;
  beforeAll(async () => {
    driver = await freshDriver();
    // The record index makes `admitted_text`; this test writes its rows itself, as the index does.
    createRecordIndex(driver);
  });

  it('gives the order, the scores (to the last bit) and the statistics of bm25() over the admitted records alone, through admission flips, text edits and query changes', () => {
    for (let seed = 1; seed <= 12; seed += 1) {
      const random = createPrng(seed * 7919);
      const words = (count: number) => Array.from({ length: count }, () => random.pick(WORDS)).join(' ');
      driver.exec("INSERT INTO admitted_text (admitted_text) VALUES ('delete-all')");
      const scorer: AdmittedScorer = createAdmittedScorer(driver);
      const enter = (doc: Doc) => {
        driver.all('INSERT INTO admitted_text (rowid, title, text) VALUES (?, ?, ?)', [doc.rowid, doc.title, doc.text]);
        scorer.entered(doc.rowid, doc.title, doc.text);
      };
      const leave = (doc: Doc) => {
        driver.all('DELETE FROM admitted_text WHERE rowid = ?', [doc.rowid]);
        scorer.left(doc.rowid);
      };
      const docs: Doc[] = Array.from({ length: random.int(20, 90) }, (_, index) => ({
        rowid: index + 1,
        title: words(random.int(0, 4)),
        text: words(random.int(0, 40)),
        admitted: random.chance(0.5),
      }));
      for (const doc of docs) if (doc.admitted) enter(doc);
      let query = random.pick(QUERIES);
      const idOf = (rowid: number) => `d${String(rowid)}`;
      for (let step = 0; step < 40; step += 1) {
        const doc = random.pick(docs);
        const change = random.int(0, 9);
        if (change < 5) {
          if (doc.admitted) leave(doc);
          else enter(doc);
          doc.admitted = !doc.admitted;
        } else if (change < 8) {
          if (doc.admitted) leave(doc);
          doc.title = words(random.int(0, 4));
          doc.text = words(random.int(0, 40));
          if (doc.admitted) enter(doc);
        } else query = random.pick(QUERIES);
        if (random.chance(0.4)) continue;
        const ranking = scorer.rank(query, idOf, unrounded);
        const fts5 = rankAdmitted(driver, query, idOf);
        expect(ranking.rows, `seed ${seed} step ${step}`).toEqual(oracle(driver, docs, query));
        expect(ranking.statistics).toEqual(fts5.statistics);
        expect(scorer.rank(query, idOf)).toEqual(fts5);
      }
    }
  });
});
