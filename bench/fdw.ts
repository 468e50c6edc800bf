import { compileInDatabase } from '../src/adapters/postgres/compile';
import { LAYOUT, createIndexes, migrate, quoteIdentifier, type Database } from '../src/adapters/postgres/schema';
import type { Tokeniser } from '../src/adapters/postgres/tokens';
import type { Contract } from '../src/core/format/contract';
import { serialiseReceipt } from '../src/core/phases/7-attest/attest';

/**
 * One corpus hash-partitioned across PostgreSQL servers, a coordinator holding the partitions as
 * postgres_fdw foreign tables: the project's tables, each a partitioned table on the coordinator whose
 * partitions live on the shards. A record's document, postings and broken-link row are partitioned by the
 * record's id with the same modulus, so each stays with its record on one shard. The adapter runs against the coordinator unchanged.
 */

/** Each table and the column its rows are distributed by. */
export const DISTRIBUTION: readonly (readonly [string, string])[] = [
  ['records', 'id'],
  ['documents', 'id'],
  ['postings', 'record_id'],
  ['supersession_breaks', 'id'],
];

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

export interface Shard {
  /** A connection to the shard, in the schema its partitions are made in. */
  readonly database: Database;
  readonly url: string;
}

/**
 * Makes the shards' tables (the project's layout, empty) and the coordinator's partitioned tables over them
 * in `coordinator.schema`, then copies the records of `source` (a schema `load` wrote on the coordinator)
 * into them: the rows go to the shards through the foreign partitions.
 */
export async function distribute(coordinator: Database, source: string, shards: readonly Shard[]): Promise<void> {
  await coordinator.query('CREATE EXTENSION IF NOT EXISTS postgres_fdw');
  await coordinator.query(`CREATE SCHEMA ${coordinator.schema}`);
  for (const [index, shard] of shards.entries()) {
    await shard.database.query('BEGIN');
    await migrate(shard.database);
    await createIndexes(shard.database);
    await shard.database.query('COMMIT');
    const server = quoteIdentifier(`cc_shard_${index}`);
    const user = new URL(shard.url).username || 'postgres';
    const password = decodeURIComponent(new URL(shard.url).password);
    await coordinator.query(`DROP SERVER IF EXISTS ${server} CASCADE`);
    // async_capable: the coordinator scans both shards at once; batch_size: the copy's inserts go 1,000 rows at a time.
    await coordinator.query(
      `CREATE SERVER ${server} FOREIGN DATA WRAPPER postgres_fdw OPTIONS (${optionList({ ...serverOptions(shard.url), async_capable: 'true', batch_size: '1000', fetch_size: '2000' })})`,
    );
    await coordinator.query(
      `CREATE USER MAPPING FOR CURRENT_USER SERVER ${server} OPTIONS (${optionList(password === '' ? { user } : { user, password })})`,
    );
    const imported = quoteIdentifier(`cc_shard_${index}_tables`);
    await coordinator.query(`DROP SCHEMA IF EXISTS ${imported} CASCADE`);
    await coordinator.query(`CREATE SCHEMA ${imported}`);
    await coordinator.query(
      `IMPORT FOREIGN SCHEMA ${shard.database.schema} LIMIT TO (${DISTRIBUTION.map(([table]) => table).join(', ')}) FROM SERVER ${server} INTO ${imported}`,
    );
    for (const [table, column] of DISTRIBUTION) {
      if (index === 0)
        await coordinator.query(
          `CREATE TABLE ${coordinator.schema}.${table} (LIKE ${imported}.${table}) PARTITION BY HASH (${column})`,
        );
      await coordinator.query(
        `ALTER TABLE ${coordinator.schema}.${table} ATTACH PARTITION ${imported}.${table} FOR VALUES WITH (MODULUS ${shards.length}, REMAINDER ${index})`,
      );
    }
  }
  await coordinator.query(`CREATE TABLE ${coordinator.schema}.layout (version integer NOT NULL)`);
  await coordinator.query(`INSERT INTO ${coordinator.schema}.layout (version) VALUES ($1)`, [LAYOUT]);
  for (const [table] of DISTRIBUTION)
    await coordinator.query(`INSERT INTO ${coordinator.schema}.${table} SELECT * FROM ${source}.${table}`);
  for (const [table] of DISTRIBUTION) await coordinator.query(`ANALYZE ${coordinator.schema}.${table}`);
}

/**
 * The coordinator's session settings: a join or aggregate of partitions that live on one shard can be sent
 * to that shard only when the planner plans it partition by partition, which it does not by default.
 */
export const PARTITIONWISE = 'SET enable_partitionwise_join = on; SET enable_partitionwise_aggregate = on';

export interface Statement {
  readonly text: string;
  readonly values: readonly unknown[];
}

/** The database with every statement it is sent recorded: the compile's statements, to explain afterwards. */
export function recording(database: Database): Database & { readonly statements: Statement[] } {
  const statements: Statement[] = [];
  return {
    schema: database.schema,
    copyFrom: database.copyFrom,
    statements,
    async query<R extends object>(text: string, values: readonly unknown[] = []) {
      statements.push({ text, values });
      return database.query<R>(text, values);
    },
  };
}

/** The statements of a compile that read the records: the cursor's query, admission and ranking (not session settings or the temporary table). */
export function readingStatements(statements: readonly Statement[]): Statement[] {
  return statements
    .map(({ text, values }) => ({ text: text.replace(/^DECLARE \w+ NO SCROLL CURSOR FOR /, ''), values }))
    .filter(({ text }) => /^\s*(WITH|SELECT)\b/.test(text) && text.includes('.records'));
}

export interface PushdownReport {
  /** Each statement's EXPLAIN (VERBOSE, COSTS OFF) on the coordinator. */
  readonly plans: readonly string[];
  /** Foreign scans, and those that ran a join or an aggregate on the shard rather than on the coordinator. */
  readonly foreignScans: number;
  readonly remoteJoins: number;
  readonly remoteAggregates: number;
}

export async function explainStatements(database: Database, statements: readonly Statement[]): Promise<PushdownReport> {
  const plans: string[] = [];
  for (const { text, values } of statements) {
    const { rows } = await database.query<{ 'QUERY PLAN': string }>(`EXPLAIN (VERBOSE, COSTS OFF) ${text}`, values);
    plans.push(rows.map((row) => row['QUERY PLAN']).join('\n'));
  }
  const all = plans.join('\n');
  const count = (pattern: RegExp) => all.match(pattern)?.length ?? 0;
  return {
    plans,
    foreignScans: count(/Foreign Scan/g),
    remoteJoins: count(/Relations: .*JOIN/g),
    remoteAggregates: count(/Relations: Aggregate/g),
  };
}

/** The receipt compiled on one server (`single`) and through the coordinator, and what the coordinator pushed down. */
export async function compareOnShards(
  single: Database,
  coordinator: Database,
  contract: Contract,
  tokeniser: Tokeniser,
): Promise<{ readonly same: boolean; readonly receipt: string; readonly pushdown: PushdownReport }> {
  // A full compile: the read-back is among what the coordinator is asked to push down.
  const one = await compileInDatabase(single, contract, tokeniser, {}, 'full');
  const recorded = recording(coordinator);
  const sharded = await compileInDatabase(recorded, contract, tokeniser, {}, 'full');
  if (!one.ok || !sharded.ok)
    throw new Error(`${one.ok ? '' : one.error.message} ${sharded.ok ? '' : sharded.error.message}`);
  const receipt = serialiseReceipt(one.value.outcome.receipt);
  const pushdown = await explainStatements(coordinator, readingStatements(recorded.statements));
  return { same: receipt === serialiseReceipt(sharded.value.outcome.receipt), receipt, pushdown };
}
