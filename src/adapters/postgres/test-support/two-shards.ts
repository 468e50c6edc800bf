import { afterAll } from 'vitest';
import { connect, type Connection } from '../connect';
import { createCoordinator, shardNames, type ShardServer } from '../shards';
import { POSTGRES_URL } from '../test-server';

export interface TwoShards {
  /** The one-server database: where `load` writes, and what the coordinator's receipts are compared with. */
  readonly single: Connection;
  /** The coordinator, on the test server, whose tables are partitioned over the shards. */
  readonly coordinator: Connection;
  readonly shards: readonly (ShardServer & { readonly database: Connection })[];
}

async function open(url: string, schema: string): Promise<Connection> {
  const opened = await connect(url, schema);
  if (!opened.ok) throw new Error(opened.error.message);
  return opened.value;
}

/**
 * Two shards as two databases of the test server (scripts/two-servers.sh runs the same on three clusters),
 * a coordinator over them and a one-server schema beside it, all dropped after the file's tests.
 */
export async function openTwoShards(): Promise<TwoShards> {
  const tag = `${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  const single = await open(POSTGRES_URL ?? '', `cc_single_${tag}`);
  const names = [0, 1].map((index) => `cc_shard_${tag}_${index}`);
  for (const name of names) await single.query(`CREATE DATABASE ${name}`);
  const coordinator = await open(POSTGRES_URL ?? '', `cc_coordinator_${tag}`);
  const shards = await Promise.all(
    names.map(async (name) => {
      const url = new URL(POSTGRES_URL ?? '');
      url.pathname = `/${name}`;
      return { url: url.toString(), database: await open(url.toString(), 'cc_sharded') };
    }),
  );
  await createCoordinator(coordinator, shards);
  afterAll(async () => {
    for (const shard of shards) await shard.database.end();
    for (const [index] of names.entries()) {
      const { server, tables } = shardNames(coordinator.schema, index);
      await coordinator.query(`DROP SERVER IF EXISTS ${server} CASCADE`);
      await coordinator.query(`DROP SCHEMA IF EXISTS ${tables} CASCADE`);
    }
    await coordinator.query(`DROP SCHEMA IF EXISTS ${coordinator.schema}, ${single.schema} CASCADE`);
    await coordinator.end();
    for (const name of names) await single.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await single.end();
  });
  return { single, coordinator, shards };
}
