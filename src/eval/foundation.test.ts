import { sha256 } from '../core/test-support/sha256';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshDriver } from '../core/test-support/node-driver';
import { parseFoundationCorpus, runFoundation, type FoundationCorpus } from './foundation';

const FOLDER = join(import.meta.dirname, '../../fixtures/retrieval-foundation');

function loadShipped(): FoundationCorpus {
  const read = (name: string) => readFileSync(join(FOLDER, name), 'utf8');
  const corpus = parseFoundationCorpus('records.jsonl', read('records.jsonl'), 'queries.jsonl', read('queries.jsonl'));
  if (!corpus.ok) throw new Error(corpus.error.message);
  return corpus.value;
}

describe('retrieval foundation on the shipped fixtures', () => {
  it('has at least 35 records, 12 queries and one record without an entity', () => {
    const corpus = loadShipped();
    expect(corpus.items.length).toBeGreaterThanOrEqual(35);
    expect(corpus.queries).toHaveLength(12);
    expect(corpus.items.filter((item) => item.entity === undefined).map((item) => item.id)).toEqual(['hb-11']);
  });

  it('pins hit@1, recall@3, MRR, average candidates and filter false negatives per mode', async () => {
    const report = runFoundation(sha256, await freshDriver(), loadShipped());
    const table = report.modes.map((m) => [
      m.mode,
      m.hitAt1.toFixed(3),
      m.recallAt3.toFixed(3),
      m.mrr.toFixed(3),
      m.averageCandidates.toFixed(2),
      m.filterFalseNegatives,
    ]);
    expect(table).toEqual([
      ['content', '0.917', '1.000', '0.958', '20.25', 0],
      ['broad', '1.000', '1.000', '1.000', '7.00', 0],
      ['discriminative', '0.917', '0.917', '0.917', '1.58', 1],
      ['discriminative-lenient', '1.000', '1.000', '1.000', '1.67', 0],
    ]);
    const strict = report.modes.find((m) => m.mode === 'discriminative');
    expect(strict?.queries.find((q) => q.query === 'q04')?.filteredOut).toEqual(['hb-11']);
  });
});

describe('parseFoundationCorpus', () => {
  it('names the file and line of a bad record and a query that points at nothing', () => {
    const result = parseFoundationCorpus(
      'r.jsonl',
      '{"id":"a","project":"p","kind":"k","title":"t","text":"x"}\n{"id":"b"}\n',
      'q.jsonl',
      '{"id":"q","text":"x","project":"p","entity":"e","kind":"k","relevant":["zz"]}\n',
    );
    if (result.ok) throw new Error('expected issues');
    expect(result.error.issues?.some((issue) => issue.file === 'r.jsonl' && issue.line === 2)).toBe(true);
    expect(result.error.issues?.some((issue) => issue.file === 'q.jsonl' && issue.message.includes('"zz"'))).toBe(true);
  });
});
