import { createIndexes, LAYOUT, LOADS_CHANNEL, migrate, quoteIdentifier, type Database } from './schema';

/**
 * One corpus hash-partitioned over PostgreSQL servers behind a coordinator, with postgres_fdw (DECISIONS.md):
 * on the coordinator each distributed table is a partitioned table whose partitions are the shards' tables as
 * foreign tables, so the adapter's statements run there unchanged. A record's document, postings and
 * broken-link row are partitioned by the record's id with the same modulus, so they stay on its shard. The
 * coordinator keeps three tables of its own: `layout` (its snapshot), `digest_chunks` (the record-set digest
 * over every shard, as the load computed it) and `shards` (where each shard's tables are imported).
 */

/** Each distributed table and the column its rows are distributed by. */
export const DISTRIBUTION: readonly (readonly [string, string])[] = [
  ['records', 'id'],
  ['documents', 'id'],
  ['postings', 'record_id'],
  ['supersession_breaks', 'id'],
];

export interface ShardServer {
  /** A connection to the shard, in the schema its tables are made in. */
  readonly database: Database;
  /** How the coordinator reaches it (a `postgres://` URL). */
  readonly url: string;
}

/** How the coordinator reaches a shard: libpq options of a `postgres://` URL. */
export function serverOptions(url: string): Record<string, string> {
  const parsed = new URL(url);
  const options: Record<string, string> = { dbname: decodeURIComponent(parsed.pathname.slice(1)) || 'postgres' };
  const host = parsed.searchParams.get('host') ?? parsed.hostname;
  if (host !== '') options.host = host;
  if (parsed.port !== '') options.port = parsed.port;
  return options;
}

const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;
const optionList = (options: Record<string, string>) =>
  Object.entries(options)
    .map(([key, value]) => `${key} ${literal(value)}`)
    .join(', ');

/** A quoted schema's name as written, without its quotes. */
const unquoted = (schema: string) => schema.slice(1, -1).replaceAll('""', '"');

/**
 * The foreign server and the schema of imported tables of the coordinator `schema`'s shard `index`: named after it, so
 * coordinators never share one.
 */
export function shardNames(schema: string, index: number): { readonly server: string; readonly tables: string } {
  const name = `${unquoted(schema)}_shard_${index}`;
  return { server: quoteIdentifier(name), tables: quoteIdentifier(name) };
}

/**
 * Makes the project's tables (empty) on each shard, and on the coordinator, in `coordinator.schema`, the
 * partitioned tables over them and its own tables. Rows come with `publish`.
 */
export async function createCoordinator(coordinator: Database, shards: readonly ShardServer[]): Promise<void> {
  await coordinator.query('CREATE EXTENSION IF NOT EXISTS postgres_fdw');
  await coordinator.query(`CREATE SCHEMA ${coordinator.schema}`);
  for (const [index, shard] of shards.entries()) {
    await shard.database.query('BEGIN');
    if ((await migrate(shard.database)) !== 'current') await createIndexes(shard.database);
    await shard.database.query('COMMIT');
    const { server, tables } = shardNames(coordinator.schema, index);
    const user = new URL(shard.url).username || 'postgres';
    const password = decodeURIComponent(new URL(shard.url).password);
    // async_capable: the coordinator scans both shards at once; batch_size: a publish's inserts go 1,000 rows at a
    // time.
    await coordinator.query(
      `CREATE SERVER ${server} FOREIGN DATA WRAPPER postgres_fdw OPTIONS ` +
        `(${optionList({ ...serverOptions(shard.url), async_capable: 'true', batch_size: '1000', fetch_size: '2000', fdw_tuple_cost: '1' })})`,
    );
    await coordinator.query(
      `CREATE USER MAPPING FOR CURRENT_USER SERVER ${server} OPTIONS ` +
        `(${optionList(password === '' ? { user } : { user, password })})`,
    );
    await coordinator.query(`CREATE SCHEMA ${tables}`);
    await coordinator.query(
      `IMPORT FOREIGN SCHEMA ${shard.database.schema} LIMIT TO (layout, ` +
        `${DISTRIBUTION.map(([table]) => table).join(', ')}) FROM SERVER ${server} INTO ${tables}`,
    );
    // A join of a record with its document or postings is weighed by the shard's own estimate: with the coordinator's,
    // the
    // planner fetches every document or posting of a term and joins them itself. Estimates of a table alone stay local,
    // so an aggregate over records is sent whole.
    for (const table of ['documents', 'postings'])
      await coordinator.query(`ALTER FOREIGN TABLE ${tables}.${table} OPTIONS (ADD use_remote_estimate 'true')`);
    for (const [table, column] of DISTRIBUTION) {
      if (index === 0)
        await coordinator.query(
          `CREATE TABLE ${coordinator.schema}.${table} (LIKE ${tables}.${table}) PARTITION BY HASH (${column})`,
        );
      await coordinator.query(
        `ALTER TABLE ${coordinator.schema}.${table} ATTACH PARTITION ${tables}.${table} FOR VALUES WITH ` +
          `(MODULUS ${shards.length}, REMAINDER ${index})`,
      );
    }
  }
  await coordinator.query(
    `CREATE TABLE ${coordinator.schema}.layout (version integer NOT NULL, snapshot bigint NOT NULL DEFAULT 0)`,
  );
  await coordinator.query(`INSERT INTO ${coordinator.schema}.layout (version, snapshot) VALUES ($1, 0)`, [LAYOUT]);
  await coordinator.query(
    `CREATE TABLE ${coordinator.schema}.digest_chunks (chunk_end text COLLATE "C" PRIMARY KEY, digest bytea NOT NULL)`,
  );
  await coordinator.query(
    `CREATE TABLE ${coordinator.schema}.shards (shard integer PRIMARY KEY, tables text COLLATE "C" NOT NULL)`,
  );
  for (const [index] of shards.entries())
    await coordinator.query(`INSERT INTO ${coordinator.schema}.shards (shard, tables) VALUES ($1, $2)`, [
      index,
      shardNames(coordinator.schema, index).tables,
    ]);
}

/**
 * Publishes the records a `load` wrote in the schema `source` of the coordinator's server to the shards, in
 * one transaction of the coordinator: every distributed row replaced, the record-set digest's chunks copied,
 * and the load's snapshot stamped on every shard and on the coordinator. postgres_fdw commits the shards one
 * after the other, without two-phase commit: a compile that starts between two of those commits sees two
 * snapshots, and `shardSnapshots` refuses it.
 */
export async function publish(coordinator: Database, source: string): Promise<number> {
  const { schema } = coordinator;
  await coordinator.query('BEGIN');
  try {
    const { rows } = await coordinator.query<{ snapshot: string }>(`SELECT snapshot FROM ${source}.layout`);
    const snapshot = Number(rows[0]?.snapshot ?? 0);
    for (const [table] of DISTRIBUTION) {
      await coordinator.query(`DELETE FROM ${schema}.${table}`);
      await coordinator.query(`INSERT INTO ${schema}.${table} SELECT * FROM ${source}.${table}`);
    }
    await coordinator.query(`DELETE FROM ${schema}.digest_chunks`);
    await coordinator.query(`INSERT INTO ${schema}.digest_chunks SELECT * FROM ${source}.digest_chunks`);
    await stampSnapshot(coordinator, snapshot);
    await coordinator.query('COMMIT');
    // The partitioned tables' statistics, and each shard's: the planner weighs sending a join or an aggregate to a
    // shard by them.
    const { rows: listed } = await coordinator.query<{ tables: string }>(`SELECT tables FROM ${schema}.shards`);
    for (const [table] of DISTRIBUTION) {
      await coordinator.query(`ANALYZE ${schema}.${table}`);
      for (const { tables } of listed) await coordinator.query(`ANALYZE ${tables}.${table}`);
    }
    return snapshot;
  } catch (error) {
    await coordinator.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * Stamps `snapshot` on every shard (through its foreign `layout`) and on the coordinator, in the caller's transaction.
 */
async function stampSnapshot(coordinator: Database, snapshot: number): Promise<void> {
  const { rows } = await coordinator.query<{ tables: string }>(
    `SELECT tables FROM ${coordinator.schema}.shards ORDER BY shard`,
  );
  for (const { tables } of rows) await coordinator.query(`UPDATE ${tables}.layout SET snapshot = $1`, [snapshot]);
  await coordinator.query(`UPDATE ${coordinator.schema}.layout SET snapshot = $1`, [snapshot]);
  await coordinator.query('SELECT pg_notify($1, $2)', [LOADS_CHANNEL, coordinator.schema]);
}
