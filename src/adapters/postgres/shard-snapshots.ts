import { compileError, err, ok, type CompileError, type Result } from '../../core/errors';
import type { Database } from './schema';

/**
 * Where a compile's records are: null on one server; through a coordinator, the schemas of its shards' foreign tables,
 * in shard order, as the compile's one lookup of them found them.
 */
export type ShardTables = readonly string[] | null;

/**
 * Where a coordinator's records are at (shards.ts): the snapshot its own tables were published at, and each
 * shard's as that shard's `layout` says inside the compile's transaction. postgres_fdw runs every statement of
 * one coordinator transaction on a shard in one REPEATABLE READ remote transaction, so the snapshot read here
 * is that of every row the compile reads from the shard. Null for a database that is no coordinator.
 */
async function snapshotsOf(client: Database): Promise<{
  readonly own: string;
  readonly tables: readonly string[];
  readonly shards: readonly { shard: number; snapshot: string | null }[];
} | null> {
  const { rows } = await client.query<{ snapshot: string; sharded: boolean }>(
    `SELECT l.snapshot::text AS snapshot, to_regclass($1) IS NOT NULL AS sharded FROM ${client.schema}.layout l`,
    [`${client.schema}.shards`],
  );
  const own = rows[0];
  if (own === undefined || !own.sharded) return null;
  const listed = await client.query<{ shard: number; tables: string }>(
    `SELECT shard, tables FROM ${client.schema}.shards ORDER BY shard`,
  );
  // One statement over every shard: postgres_fdw asks them at once, and a shard without a layout row says so.
  const asked = listed.rows.map(
    ({ shard, tables }) =>
      `SELECT ${Number(shard)}::integer AS shard, (SELECT snapshot::text FROM ${tables}.layout) AS snapshot`,
  );
  const found = await client.query<{ shard: number; snapshot: string | null }>(asked.join(' UNION ALL '));
  return { own: own.snapshot, tables: listed.rows.map((row) => row.tables), shards: found.rows };
}

/**
 * A coordinator's settings for one transaction: a join or aggregate of partitions that live on one shard is
 * sent to that shard only when the planner plans it partition by partition, which it does not by default.
 */
export const COORDINATOR_SETTINGS =
  "SELECT set_config('enable_partitionwise_join', 'on', true), set_config('enable_partitionwise_aggregate', 'on', true)";

/**
 * Refuses a compile through a coordinator whose shards are not all at the snapshot the coordinator was
 * published at (a load that reached one shard and not the other, or a shard changed behind it): its rows would
 * mix two record sets. On a coordinator it also lets the planner send joins and aggregates of one shard's
 * partitions to that shard. Nothing for a single server. Its answer is where the records are, for the compile's
 * answer to use: the shards are looked up once per compile.
 */
export async function checkShardSnapshots(client: Database): Promise<Result<ShardTables, CompileError>> {
  const found = await snapshotsOf(client);
  if (found === null) return ok(null);
  await client.query(COORDINATOR_SETTINGS);
  const apart = found.shards.filter((shard) => shard.snapshot !== found.own);
  if (found.shards.length > 0 && apart.length === 0) return ok(found.tables);
  const each = found.shards.map((shard) => `shard ${shard.shard} at ${shard.snapshot ?? 'none'}`).join(', ');
  return err(
    compileError({ pass: 'admit', code: 'ADAPTER_SNAPSHOT_SPLIT' }, 'SHARDS_APART', {
      adapter: 'postgresql',
      snapshot: found.own,
      shards: each === '' ? 'no shard' : each,
    }),
  );
}
