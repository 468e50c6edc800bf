import { sha256 } from '../../core/test-support/sha256';
import { describe, expect, it } from 'vitest';
import { createSqliteCompiler } from './compiler';
import type { SourceRecord } from '../../core/format/record';
import { serialiseReceipt } from '../../core/phases/7-attest/attest';
import { buildContract, buildRecord, buildRecordSet, valueOf } from '../../core/test-support/builders';
import { freshDriver } from '../../core/test-support/node-driver';

const recordsOf = (prefix: string, count: number, text: (position: number) => string): SourceRecord[] =>
  Array.from({ length: count }, (_, position) =>
    buildRecord({
      id: `${prefix}${position}`,
      text: text(position),
      access: { roles: ['agent'], labels: position % 7 === 0 ? ['investigation'] : [] },
    }),
  );

const drain = <T, R>(steps: Generator<T, R>): { steps: T[]; result: R } => {
  const seen: T[] = [];
  for (;;) {
    const next = steps.next();
    if (next.done) return { steps: seen, result: next.value };
    seen.push(next.value);
  }
};

describe('indexing a slice at a time', () => {
  it('gives the receipt and baselines a fresh compiler gives, after a sliced index that was stopped halfway and a corpus index built between compiles', async () => {
    const contract = buildContract({ query: 'refund policy', naiveTopK: 5 });
    const before = buildRecordSet(
      recordsOf('a', 120, (position) => `refund ${position % 3 === 0 ? 'policy' : 'note'} ${position}`),
    );
    const abandoned = buildRecordSet([
      ...recordsOf('a', 60, (position) => `changed ${position}`),
      ...recordsOf('b', 90, () => 'refund policy draft'),
    ]);

    const compiler = createSqliteCompiler(sha256, await freshDriver());
    valueOf(await compiler.compile({ contract, recordSet: before }));
    // A load cancelled after two slices: the rows are half old, half new.
    const stopped = compiler.indexSteps(abandoned, 40);
    expect(stopped.next().value).toEqual({ done: 40, total: 150 });
    stopped.next();
    stopped.return({ inserted: 0, updated: 0, deleted: 0 });
    // Nothing can be indexed for the corpus while the rows belong to no one set.
    expect(drain(compiler.indexCorpusSteps(25)).result).toBe(false);

    const outcome = valueOf(await compiler.compile({ contract, recordSet: before }));
    const corpus = drain(compiler.indexCorpusSteps(25));
    expect(corpus.result).toBe(true);
    expect(corpus.steps.at(-1)).toEqual({ done: 120, total: 120 });
    expect(corpus.steps.length).toBe(5);

    const fresh = createSqliteCompiler(sha256, await freshDriver());
    const freshOutcome = valueOf(await fresh.compile({ contract, recordSet: before }));
    expect(serialiseReceipt(outcome.receipt)).toBe(serialiseReceipt(freshOutcome.receipt));
    expect(compiler.baselines({ contract, recordSet: before }, outcome)).toEqual(
      fresh.baselines({ contract, recordSet: before }, freshOutcome),
    );
  });

  it('reports every slice and ends with the rows of exactly the new set', async () => {
    const compiler = createSqliteCompiler(sha256, await freshDriver());
    const contract = buildContract({ query: 'refund' });
    valueOf(await compiler.compile({ contract, recordSet: buildRecordSet(recordsOf('old', 30, () => 'refund')) }));
    const next = buildRecordSet(recordsOf('new', 50, () => 'refund'));
    const { steps, result } = drain(compiler.indexSteps(next, 20));
    expect(steps).toEqual([
      { done: 20, total: 50 },
      { done: 40, total: 50 },
      { done: 50, total: 50 },
    ]);
    expect(result).toEqual({ inserted: 50, updated: 0, deleted: 30 });
    // A corpus index started after the sliced index covers the new set, a step at a time.
    expect(drain(compiler.indexCorpusSteps(50)).steps).toEqual([{ done: 50, total: 50 }]);
  });
});
