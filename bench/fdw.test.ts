import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Connection } from '../src/adapters/postgres/connect';
import { loadRecordSet } from '../src/adapters/postgres/load';
import { POSTGRES_URL } from '../src/adapters/postgres/test-server';
import { createUnicodeTokeniser } from '../src/adapters/postgres/unicode61';
import { contractSchema } from '../src/core/format/contract';
import { compareOnShards, distribute, PARTITIONWISE, serverOptions, type Shard } from './fdw';
import { benchContract, generateRecords, readGenerated } from './generate-records';

/** The shards are two databases of the test server (scripts/two-servers.sh runs the same on three clusters). */
const shardNames = [0, 1].map((index) => `cc_fdw_${process.pid}_${index}`);
const shardUrl = (name: string) => {
  const url = new URL(POSTGRES_URL ?? '');
  url.pathname = `/${name}`;
  return url.toString();
};

async function open(url: string, schema: string): Promise<Connection> {
  const opened = await connect(url, schema);
  if (!opened.ok) throw new Error(opened.error.message);
  return opened.value;
}

describe.skipIf(POSTGRES_URL === undefined)('one corpus hash-partitioned behind postgres_fdw', () => {
  let single: Connection;
  let coordinator: Connection;
  let shards: (Shard & { readonly database: Connection })[];
  beforeAll(async () => {
    single = await open(POSTGRES_URL ?? '', `cc_fdw_single_${process.pid}`);
    for (const name of shardNames) await single.query(`CREATE DATABASE ${name}`);
    coordinator = await open(POSTGRES_URL ?? '', `cc_fdw_sharded_${process.pid}`);
    shards = await Promise.all(
      shardNames.map(async (name) => ({ url: shardUrl(name), database: await open(shardUrl(name), 'cc_sharded') })),
    );
  });
  afterAll(async () => {
    for (const shard of shards) await shard.database.end();
    for (const [index] of shardNames.entries())
      await coordinator.query(`DROP SERVER IF EXISTS cc_shard_${index} CASCADE`);
    await coordinator.query(
      `DROP SCHEMA IF EXISTS ${coordinator.schema}, ${single.schema}, cc_shard_0_tables, cc_shard_1_tables CASCADE`,
    );
    await coordinator.end();
    for (const name of shardNames) await single.query(`DROP DATABASE IF EXISTS ${name}`);
    await single.end();
  });

  it("gives the one-server receipt byte for byte, and the shards run the admission's filters", async () => {
    const { records, requiredIds } = generateRecords(300, 7);
    const tokeniser = createUnicodeTokeniser();
    const loaded = await loadRecordSet(single, 'generated.jsonl', readGenerated(records), tokeniser);
    if (!loaded.ok) throw new Error(loaded.error.message);
    await distribute(coordinator, single.schema, shards);
    const { rows } = await coordinator.query<{ shard: string; records: string }>(
      `SELECT tableoid::regclass::text AS shard, count(*) AS records FROM ${coordinator.schema}.records GROUP BY 1 ORDER BY 1`,
    );
    expect(rows.map((row) => row.shard)).toEqual(['cc_shard_0_tables.records', 'cc_shard_1_tables.records']);
    expect(rows.reduce((sum, row) => sum + Number(row.records), 0)).toBe(300);
    for (const shard of shards) {
      const stray = await shard.database.query<{ n: string }>(
        `SELECT count(*) AS n FROM ${shard.database.schema}.documents x WHERE NOT EXISTS (SELECT 1 FROM ${shard.database.schema}.records r WHERE r.id = x.id)`,
      );
      expect(stray.rows[0]?.n).toBe('0');
    }

    await coordinator.query(PARTITIONWISE);
    const compared = await compareOnShards(
      single,
      coordinator,
      contractSchema.parse(benchContract(requiredIds)),
      tokeniser,
    );
    expect(compared.same).toBe(true);
    const [readBack, admission] = compared.pushdown.plans;
    // The document and its gate row live on one shard: the join runs there.
    expect(readBack).toMatch(
      /Remote SQL: SELECT r\d+\.document, r\d+\.fingerprint, r\d+\.id FROM \(cc_sharded\.records r\d+ INNER JOIN cc_sharded\.documents r\d+/,
    );
    expect(admission).toMatch(/Foreign Scan on cc_shard_1_tables\.records/);
    expect(admission).toMatch(
      /Remote SQL: SELECT id, subject FROM cc_sharded\.records WHERE .*\(provenance_ok\).*scope = ANY/,
    );
    expect(compared.pushdown.remoteJoins).toBeGreaterThan(0);
  });

  it("reaches a shard by the URL's socket folder or host and port", () => {
    expect(serverOptions('postgresql://postgres@localhost/shard?host=/tmp/pg.x')).toEqual({
      dbname: 'shard',
      host: '/tmp/pg.x',
    });
    expect(serverOptions('postgres://u:p@db.example:5433/cc')).toEqual({
      dbname: 'cc',
      host: 'db.example',
      port: '5433',
    });
  });
});
