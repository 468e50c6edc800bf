import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRecord, buildRecordSet } from '../../core/test-support/builders';
import { propertyParameters } from '../../core/test-support/arbitraries';
import { sharedDriver } from '../../core/test-support/node-driver';
import type { SqlDriver } from './driver';
import { toSafeFtsQuery } from './fts-query';
import { createRecordIndex } from './record-index';

const DOCUMENTS: Record<string, string> = {
  retrying: 'retrying the payment',
  retry: 'retry the payment',
  refund: 'refund policy',
  title: 'title of the note',
  near: 'near the office',
  cafe: 'Café opening hours',
  tokyo: '東京 office',
  not: 'not covered',
};

let driver: SqlDriver;

beforeAll(async () => {
  driver = await sharedDriver();
  const recordSet = buildRecordSet(
    Object.entries(DOCUMENTS).map(([id, text]) => buildRecord({ id, title: 'x', text })),
  );
  const index = createRecordIndex(driver);
  index.sync(recordSet);
  index.syncCorpusText(recordSet);
});

function search(text: string): string[] {
  const match = toSafeFtsQuery(text);
  if (match === null) return [];
  return driver
    .all('SELECT r.id FROM corpus_text JOIN records r ON r.rowid = corpus_text.rowid WHERE corpus_text MATCH ?', [
      match,
    ])
    .map(([id]) => String(id))
    .sort();
}

describe('toSafeFtsQuery', () => {
  it('quotes each distinct lower-cased word and joins them with OR', () => {
    expect(toSafeFtsQuery('Refund POLICY refund')).toBe('"refund" OR "policy"');
  });

  it('returns null when there is no word to search', () => {
    expect(toSafeFtsQuery('')).toBeNull();
    expect(toSafeFtsQuery(' "* - ( ) ^ : ')).toBeNull();
  });

  it('keeps at most 64 terms', () => {
    const words = Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ');
    expect(toSafeFtsQuery(words)?.split(' OR ')).toHaveLength(64);
  });
});

describe('FTS5 syntax in user queries, run through SQLite', () => {
  it('does not let a prefix star widen the match', () => {
    expect(search('retry*')).toEqual(['retry']);
  });

  it('treats a column filter as plain words', () => {
    expect(search('title:refund')).toEqual(['refund', 'title']);
  });

  it('treats operators and NEAR as words, not syntax', () => {
    expect(search('refund AND payment')).toEqual(['refund', 'retry', 'retrying']);
    expect(search('NEAR(refund office)')).toEqual(['near', 'refund', 'tokyo']);
    expect(search('NOT refund')).toEqual(['not', 'refund']);
    expect(search('-refund')).toEqual(['refund']);
    expect(search('^refund')).toEqual(['refund']);
  });

  it('survives unbalanced quotes and parentheses', () => {
    expect(search('"refund')).toEqual(['refund']);
    expect(search('(refund OR')).toEqual(['refund']);
  });

  it('matches unicode words, folding diacritics the way the index does', () => {
    expect(search('café')).toEqual(['cafe']);
    expect(search('cafe')).toEqual(['cafe']);
    expect(search('東京')).toEqual(['tokyo']);
  });

  const syntax = fc.constantFrom(
    '"',
    'NEAR(',
    'NEAR',
    '*',
    'AND',
    'OR',
    'NOT',
    '-',
    '+',
    'col:',
    'title:',
    '^',
    '(',
    ')',
    '{',
    '}',
    ':',
    ',',
    'é',
    '東京',
    'refund',
    'retry',
    'payment',
    'office',
  );

  it('never throws in SQLite for any text', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.array(syntax, { maxLength: 12 }).map((parts) => parts.join('')),
      fc.array(syntax, { maxLength: 12 }).map((parts) => parts.join(' ')),
    );
    fc.assert(
      fc.property(text, (query) => {
        search(query);
      }),
      propertyParameters(2_000),
    );
  });

  it('only ever matches documents that contain one of the query words', () => {
    fc.assert(
      fc.property(
        fc.array(syntax, { maxLength: 12 }).map((parts) => parts.join(' ')),
        (query) => {
          const words = new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
          for (const id of search(query)) {
            const documentWords = (DOCUMENTS[id] ?? '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
            expect(
              documentWords.some((word) => words.has(word)),
              `${id} for ${JSON.stringify(query)}`,
            ).toBe(true);
          }
        },
      ),
      propertyParameters(1_000),
    );
  });
});
