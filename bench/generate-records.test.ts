import { sha256InNode } from '../src/lib/node-sha256';
import { describe, expect, it } from 'vitest';
import { contractSchema } from '../src/core/format/contract';
import { recordSchema } from '../src/core/format/record';
import { contentHashOf } from '../src/core/fingerprints';
import { benchContract, generateRecords, toJsonl } from './generate-records';

describe('generateRecords', () => {
  it('produces the same bytes for the same seed and different bytes for another seed', () => {
    const first = toJsonl(generateRecords(300, 7).records);
    expect(toJsonl(generateRecords(300, 7).records)).toBe(first);
    expect(toJsonl(generateRecords(300, 8).records)).not.toBe(first);
  });

  it('writes records the strict schema accepts, 50 to 300 words each, mostly with correct content hashes', () => {
    const { records } = generateRecords(500, 11);
    const parsed = records.map((record) => recordSchema.parse(record));
    for (const record of parsed) {
      const words = record.text.split(' ').length;
      expect(words).toBeGreaterThanOrEqual(50);
      expect(words).toBeLessThanOrEqual(300);
    }
    const verified = parsed.filter(
      (record) => record.provenance?.contentHash === contentHashOf(sha256InNode, record.text),
    ).length;
    expect(verified / parsed.length).toBeGreaterThan(0.85);
    expect(verified).toBeLessThan(parsed.length);
  });

  it('links supersessions only to earlier records, so there is never a cycle', () => {
    const { records } = generateRecords(2_000, 3);
    const position = new Map(records.map((record, index) => [record.id, index]));
    const links = records.flatMap((record, index) =>
      (record.supersedes ?? []).map((target) => ({ index, target: position.get(target) })),
    );
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link.target).toBeLessThan(link.index);
  });

  it('names required records that exist, for a contract the schema accepts', () => {
    const { records, requiredIds } = generateRecords(1_000, 5);
    expect(requiredIds.length).toBe(3);
    const ids = new Set(records.map((record) => record.id));
    for (const id of requiredIds) expect(ids.has(id)).toBe(true);
    expect(contractSchema.safeParse(benchContract(requiredIds)).success).toBe(true);
  });
});
