import { sha256 } from '../../core/test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { contentHashOf } from '../../core/fingerprints';
import { createRecordSet } from '../../core/phases/1-validate/validate';
import { recordSchema } from '../../core/format/record';
import { roundScore } from '../../core/phases/5-rank/ranking';
import { TOKENIZER } from '../sqlite/record-index';
import { openInMemoryDatabase } from '../../sqlite/load-sqlite';
import { loadRecordSet } from './load-records';
import { rankInDatabase } from './rank-in-database';
import { openTestDatabase, POSTGRES_URL, type TestDatabase } from './test-server';
import { type Tokeniser } from './tokens';
import { createUnicodeTokeniser } from './unicode61';

const TEXTS = ['alpha beta', 'beta alpha', 'alpha x beta', 'alpha beta alpha beta gamma', 'gamma', 'alpha'];

function record(index: number) {
  const text = TEXTS[index] as string;
  return recordSchema.parse({
    id: `r${index}`,
    title: index % 2 === 0 ? 'alpha beta title' : 'other',
    text,
    tokens: 1,
    project: 'p',
    scope: 's',
    subject: null,
    knownAt: '2026-01-01',
    validFrom: '2026-01-01',
    lifecycle: 'active',
    sourceClass: 'c',
    authorityClass: 'a',
    reviewState: 'approved',
    provenance: { origin: 'o', contentHash: contentHashOf(sha256, text) },
    sensitivity: 'internal',
    access: { roles: ['r'], purposes: ['p'], labels: [] },
  });
}

/**
 * A query term FTS5 splits into more than one token is a phrase: no term the query parser makes splits under
 * this build's tokenizer, so a tokeniser that splits one is stood in, and FTS5's own phrase query is the reference.
 */
describe.skipIf(POSTGRES_URL === undefined)('bm25 in PostgreSQL over a phrase', () => {
  let database: TestDatabase;
  let tokeniser: Tokeniser;
  beforeAll(async () => {
    database = await openTestDatabase();
    tokeniser = createUnicodeTokeniser();
  });

  it("scores and counts a two-token phrase as FTS5's phrase query does", async () => {
    const records = TEXTS.map((_, index) => record(index));
    const loaded = await loadRecordSet(sha256, database, 'phrases', createRecordSet(sha256, records), tokeniser);
    expect(loaded.ok).toBe(true);
    const splitting: Tokeniser = {
      records: (texts) => tokeniser.records(texts),
      phrase: (term) => (term === 'alphabeta' ? ['alpha', 'beta'] : tokeniser.phrase(term)),
    };
    await database.query('BEGIN');
    const ranking = await rankInDatabase(
      database,
      'alphabeta gamma',
      new Set(records.map((item) => item.id)),
      splitting,
    );
    await database.query('COMMIT');

    const sqlite = await openInMemoryDatabase();
    sqlite.exec(`CREATE VIRTUAL TABLE t USING fts5(title, text, ${TOKENIZER})`);
    records.forEach((item, index) =>
      sqlite.all('INSERT INTO t (rowid, title, text) VALUES (?, ?, ?)', [index, item.title, item.text]),
    );
    const expected = sqlite
      .all(`SELECT rowid, -bm25(t, 2.0, 1.0) FROM t WHERE t MATCH '"alpha beta" OR "gamma"'`)
      .map(([rowid, score]) => ({ id: `r${String(rowid)}`, score: roundScore(Number(score)) }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    const phraseDocuments = Number(sqlite.all(`SELECT count(*) FROM t WHERE t MATCH '"alpha beta"'`)[0]?.[0]);
    expect(ranking.rows).toEqual(expected);
    expect(ranking.statistics).toMatchObject({
      documents: records.length,
      terms: [
        { term: 'alphabeta', documents: phraseDocuments },
        { term: 'gamma', documents: 2 },
      ],
    });
    expect(phraseDocuments).toBe(4);
  });
});
