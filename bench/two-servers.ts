import '../src/shared/jitless-zod';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { connect, type Connection } from '../src/adapters/postgres/connect';
import { loadRecordSet } from '../src/adapters/postgres/load-records';
import { createUnicodeTokeniser } from '../src/adapters/postgres/unicode61';
import { contractSchema } from '../src/core/format/contract';
import { sha256InNode } from '../src/lib/node-sha256';
import { createCoordinator, publish, shardNames } from '../src/adapters/postgres/shards';
import { compareOnShards } from './fdw';
import { benchContract, generateRecords, readGenerated } from './generate-records';

/**
 * `bash scripts/two-servers.sh [--records 10000] [--runs 1] [--plans-out FILE]`: POSTGRES_URL is the coordinator,
 * SHARD_URLS the shards (the script starts three throwaway clusters). The generated corpus is loaded on the
 * coordinator (the one-server compile), published to the shards behind postgres_fdw foreign tables
 * (src/adapters/postgres/shards.ts), compiled through the coordinator (the answered compile, a `candidates`
 * receipt), and the two receipts compared byte for byte; the statements' EXPLAIN (VERBOSE) plans on the coordinator
 * show what ran on the shards. `--loaded-schema NAME --contract FILE` uses records a `load` already wrote on the
 * coordinator's server (`COORDINATOR_URL=… bash scripts/two-servers.sh …` names it) instead of generating them.
 */
async function open(url: string, schema: string): Promise<Connection> {
  const opened = await connect(url, schema);
  if (!opened.ok) throw new Error(opened.error.message);
  return opened.value;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Each run's milliseconds and their median: "812, 790, 801 ms (p50 801)". */
function timing(ms: readonly number[]): string {
  return `${ms.map((value) => value.toFixed(0)).join(', ')} ms (p50 ${median(ms).toFixed(0)})`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      records: { type: 'string', default: '10000' },
      runs: { type: 'string', default: '1' },
      'plans-out': { type: 'string' },
      // Records a `load` already wrote on the coordinator's server, and the contract to compile over them: nothing is
      // generated or loaded, and that schema is kept.
      'loaded-schema': { type: 'string' },
      contract: { type: 'string' },
    },
  });
  const coordinatorUrl = process.env.POSTGRES_URL;
  const shardUrls = (process.env.SHARD_URLS ?? '').split(',').filter((url) => url !== '');
  if (coordinatorUrl === undefined || shardUrls.length < 2)
    throw new Error(
      'POSTGRES_URL (the coordinator) and SHARD_URLS (two or more) must be set: run bash scripts/two-servers.sh',
    );
  const loadedSchema = values['loaded-schema'];
  if ((loadedSchema === undefined) !== (values.contract === undefined))
    throw new Error('--loaded-schema and --contract go together');
  const size = Number(values.records);
  const generated = loadedSchema === undefined ? generateRecords(size, 42) : null;
  const contract = contractSchema.parse(
    generated === null ? JSON.parse(readFileSync(values.contract ?? '', 'utf8')) : benchContract(generated.requiredIds),
  );
  const tokeniser = createUnicodeTokeniser();
  const single = await open(coordinatorUrl, loadedSchema ?? 'cc_single');
  const coordinator = await open(coordinatorUrl, 'cc_sharded');
  const shards = await Promise.all(shardUrls.map(async (url) => ({ url, database: await open(url, 'cc_sharded') })));
  try {
    const started = performance.now();
    if (generated !== null) {
      const records = readGenerated(generated.records);
      const loaded = await loadRecordSet(sha256InNode, single, 'generated.jsonl', records, tokeniser);
      if (!loaded.ok) throw new Error(loaded.error.message);
    }
    const loadedAt = performance.now();
    await createCoordinator(coordinator, shards);
    await publish(coordinator, single.schema);
    const distributedAt = performance.now();
    // Rows inserted through postgres_fdw are not all-visible until a vacuum: without one the shards' index-only scans
    // read table pages, and the server's own vacuum would start during the compiles measured next.
    await Promise.all(
      shards.map(async ({ database }) =>
        database.query(
          `VACUUM (ANALYZE) ${['records', 'documents', 'postings', 'supersession_breaks'].map((table) => `${database.schema}.${table}`).join(', ')}`,
        ),
      ),
    );
    const vacuumedAt = performance.now();
    const compared = await compareOnShards(single, coordinator, contract, tokeniser, Number(values.runs));
    const { rows } = await coordinator.query<{ shard: string; records: string }>(
      `SELECT tableoid::regclass::text AS shard, count(*) AS records FROM ${coordinator.schema}.records GROUP BY 1 ORDER BY 1`,
    );
    console.log(
      `${rows.reduce((sum, row) => sum + Number(row.records), 0)} records: loaded on one server in ${((loadedAt - started) / 1000).toFixed(1)} s, distributed in ${((distributedAt - loadedAt) / 1000).toFixed(1)} s, shards vacuumed in ${((vacuumedAt - distributedAt) / 1000).toFixed(1)} s (${rows.map((row) => `${row.shard} ${row.records}`).join(', ')})`,
    );
    console.log(
      `receipt through the coordinator ${compared.same ? 'equals' : 'DIFFERS FROM'} the one-server receipt (${compared.receipt.length} bytes); compile ${timing(compared.ms.single)} on one server, ${timing(compared.ms.sharded)} through the coordinator (p50 ${(median(compared.ms.sharded) / median(compared.ms.single)).toFixed(2)}×)`,
    );
    const { foreignScans, remoteJoins, remoteAggregates, plans } = compared.pushdown;
    console.log(
      `${plans.length} statements read records: ${foreignScans} foreign scans, ${remoteJoins} joins and ${remoteAggregates} aggregates run on a shard`,
    );
    const text = plans.map((plan, index) => `-- statement ${index + 1}\n${plan}\n`).join('\n');
    if (values['plans-out'] !== undefined) writeFileSync(values['plans-out'], text);
    else console.log(text);
    if (!compared.same) process.exitCode = 1;
  } finally {
    const made = [...(generated === null ? [] : [single]), coordinator, ...shards.map((shard) => shard.database)];
    for (const connection of made) {
      await connection.query(`DROP SCHEMA IF EXISTS ${connection.schema} CASCADE`).catch(() => undefined);
    }
    for (const [index] of shards.entries()) {
      const { server, tables } = shardNames(coordinator.schema, index);
      await coordinator.query(`DROP SERVER IF EXISTS ${server} CASCADE`).catch(() => undefined);
      await coordinator.query(`DROP SCHEMA IF EXISTS ${tables} CASCADE`).catch(() => undefined);
    }
    await Promise.all(
      [single, coordinator, ...shards.map((shard) => shard.database)].map(async (connection) => connection.end()),
    );
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
