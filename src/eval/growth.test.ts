import { sha256 } from '../core/test-support/sha256';
import { describe, expect, it } from 'vitest';
import { recordSchema } from '../core/format/record';
import { recordSetDigest } from '../core/phases/7-attest/attest-digests';
import { createRecordSet } from '../core/phases/1-validate/validate';
import { freshDriver } from '../core/test-support/node-driver';
import { runGrowth } from './growth';
import { generateGrowthCorpus, GROWTH_BLOCK_SIZE } from './growth-corpus';

const digestOf = (seed: number, size: number) =>
  recordSetDigest(
    sha256,
    createRecordSet(
      sha256,
      generateGrowthCorpus(sha256, seed, size).map((item) => item.record),
    ).checked,
  );

describe('growth corpus generator', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    expect(digestOf(7, 400)).toBe(digestOf(7, 400));
    expect(digestOf(7, 400)).not.toBe(digestOf(8, 400));
  });

  it('makes smaller corpora prefixes of larger ones', () => {
    const large = generateGrowthCorpus(sha256, 3, 200).map((item) => item.record.id);
    expect(generateGrowthCorpus(sha256, 3, 100).map((item) => item.record.id)).toEqual(large.slice(0, 100));
  });

  it('emits records that pass the record schema unchanged', () => {
    for (const { record } of generateGrowthCorpus(sha256, 1, 40)) expect(recordSchema.parse(record)).toEqual(record);
  });

  it('refuses a size that is not a whole number of blocks', () => {
    expect(() => generateGrowthCorpus(sha256, 0, GROWTH_BLOCK_SIZE + 1)).toThrow(RangeError);
  });
});

describe('growth run', () => {
  it('admits exactly the generated legal records and keeps the compiled packet clean at every size', async () => {
    const report = await runGrowth(sha256, await freshDriver(), { seed: 0, sizes: [200, 100] });
    if (!report.ok) throw new Error(report.error.message);
    expect(report.value.points.map((point) => point.size)).toEqual([100, 200]);
    for (const point of report.value.points) {
      expect(point.admittedAsGenerated).toBe(true);
      const compiled = point.rows.find((row) => row.strategy === 'compiled');
      expect(compiled).toMatchObject({ unsafePassed: 0, coverageSupported: 1, recallAtK: 1, displacedCitations: 0 });
      expect(point.indexMs).toBeNull();
    }
  });

  it('reports the same numbers for the same seed', async () => {
    const first = await runGrowth(sha256, await freshDriver(), { seed: 4, sizes: [100] });
    const second = await runGrowth(sha256, await freshDriver(), { seed: 4, sizes: [100] });
    expect(first).toEqual(second);
  });
});
