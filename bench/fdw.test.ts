import { beforeAll, describe, expect, it } from 'vitest';
import { loadRecordSet } from '../src/adapters/postgres/load';
import { publish } from '../src/adapters/postgres/shards';
import { openTwoShards, type TwoShards } from '../src/adapters/postgres/test-support/two-shards';
import { POSTGRES_URL } from '../src/adapters/postgres/test-server';
import { createUnicodeTokeniser } from '../src/adapters/postgres/unicode61';
import { contractSchema } from '../src/core/format/contract';
import { compareOnShards } from './fdw';
import { benchContract, generateRecords, readGenerated } from './generate-records';

describe.skipIf(POSTGRES_URL === undefined)('the two-server run on the bench corpus', () => {
  let two: TwoShards;
  beforeAll(async () => {
    two = await openTwoShards();
  });

  it('gives the one-server receipt byte for byte, and explains what the shards ran', async () => {
    const { records, requiredIds } = generateRecords(300, 7);
    const tokeniser = createUnicodeTokeniser();
    const loaded = await loadRecordSet(two.single, 'generated.jsonl', readGenerated(records), tokeniser);
    if (!loaded.ok) throw new Error(loaded.error.message);
    await publish(two.coordinator, two.single.schema);
    const { rows } = await two.coordinator.query<{ records: string }>(
      `SELECT count(*) AS records FROM ${two.coordinator.schema}.records GROUP BY tableoid`,
    );
    expect(rows.map((row) => Number(row.records)).sort()).toHaveLength(2);
    expect(rows.reduce((sum, row) => sum + Number(row.records), 0)).toBe(300);
    for (const shard of two.shards) {
      const stray = await shard.database.query<{ n: string }>(
        `SELECT count(*) AS n FROM ${shard.database.schema}.documents x WHERE NOT EXISTS (SELECT 1 FROM ${shard.database.schema}.records r WHERE r.id = x.id)`,
      );
      expect(stray.rows[0]?.n).toBe('0');
    }

    const compared = await compareOnShards(
      two.single,
      two.coordinator,
      contractSchema.parse(benchContract(requiredIds)),
      tokeniser,
    );
    expect(compared.same).toBe(true);
    expect(compared.receipt).toContain('"attestation":"candidates"');
    expect(compared.pushdown.foreignScans).toBeGreaterThan(0);
  });
});
