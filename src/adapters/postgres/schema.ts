import { compileError, err, ok, type CompileError, type Result } from '../../core/errors';
import { utf16Order } from './order-key';

/**
 * What the PostgreSQL adapter needs from a connection: `pg`'s Client and PoolClient fit, and so does a test's wrapper.
 */
export interface Queryable {
  query<R extends object = Record<string, unknown>>(
    text: string,
    values?: readonly unknown[],
  ): Promise<{ readonly rows: R[] }>;
  /**
   * Runs one statement and hands its rows to `take` a page of `size` at a time as they arrive, keeping none. One
   * execution, as `query`'s: a cursor or a row limit would make the server plan it without parallel workers.
   */
  queryPages<R extends object = Record<string, unknown>>(
    text: string,
    values: readonly unknown[],
    size: number,
    take: (rows: R[]) => void,
  ): Promise<void>;
}

/** A connection and the schema the project's tables live in (`context_compiler` unless a run asks for another). */
export interface Database extends Queryable {
  /** A quoted SQL identifier. */
  readonly schema: string;
  /** Runs `COPY … FROM STDIN` (text format) with these chunks of rows as its input. */
  copyFrom(statement: string, rows: Iterable<string>): Promise<void>;
}

export const DEFAULT_SCHEMA = 'context_compiler';

/** A schema name as a quoted identifier: any name, never SQL. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * The layout of the tables below, kept in `context_compiler.layout`. A database with another layout has
 * the project's tables dropped and made again: they hold a copy of records files, which `load` writes again. A layout
 * in `UPGRADES_IN_PLACE` is moved to this one by its statements instead, keeping every row.
 */
export const LAYOUT = 7;

/**
 * The earlier layouts a load moves to this one in place, each with the statements that do it. They change indexes
 * only, so a compile reads such a layout's tables as this one's (`requireLayout`). Layout 7's look-up index holds each
 * line's id: a reload's look-ups then read no page of `documents`; dropping the old index locks `documents` until the
 * load commits, so compiles wait for that one load. A coordinator is not loaded (its shards are published to), so a
 * coordinator of layout 6 keeps its shards' indexes and compiles as it did.
 */
const UPGRADES_IN_PLACE: ReadonlyMap<number, (client: Database) => Promise<void>> = new Map([
  [
    6,
    async (client: Database) => {
      await client.query(`DROP INDEX ${client.schema}.documents_line_hash`);
      await client.query(lineHashIndex(client.schema));
    },
  ],
]);

/** The project's tables, those a row of `records` owns last: dropped in this order when the layout changes. */
export const TABLES = [
  'record_changes',
  'records_before',
  'digest_chunks',
  'postings',
  'supersession_breaks',
  'documents',
  'records',
] as const;

/**
 * Every text column is COLLATE "C" (code-point order, byte equality, no locale folding) whatever the
 * database's default, and holds the string as given (no normalisation): the plan's `binary-collation` and
 * `no-normalisation`. Instants are bigint epoch milliseconds (`utc-millisecond-instants`).
 *
 * `records` is narrow: what admission reads, one row a record, so a parallel scan of it answers a plan. A record's
 * lists are arrays in it (roles, purposes, labels, the propositions its evidence claims, the ids it supersedes): an
 * empty list is '{}', never a null (`empty-lists`); a missing subject is SQL NULL (`null-subjects`). `fingerprint` and
 * `ends_chunk` (the record-set digest's chunk rule, tree-digest.ts) let the database hash a set of records as the
 * receipt does; `tokens` and `relevance` are the record's declared ones, which
a gate view holds, so a compile reads no document of a record that enters no packet. `documents` holds the record as validated and the
 * SHA-256 of the line it was read from (see load-records.ts), read only for the records a compile or an audit needs.
 * `postings` is the full-text index: one row per term per record with its frequency in the title and the
 * text (FTS5's tokens, see tokens.ts) and its positions for phrases; the primary key covers the frequencies,
 * so bm25 over single-token terms reads the index alone. `supersession_breaks` is the records whose own
 * supersession links are broken (see broken-links.ts), kept by each load that changes a record;
 * `digest_chunks` the record-set digest's chunks (record-set-digest.ts), each keyed by its last record's
 * order key, re-hashed by a load only where a record changed. `record_changes` names the records each snapshot wrote or
 * removed, and `records_before` holds the rows it replaced or removed as they were: a compiler that kept an answer
 * judges only those (change-log.ts). The layout's `log_from` is the oldest snapshot the log reaches back to.
 * Nothing keeps the file's order: a compile does not depend on it, and a dense position would shift for
 * every record after an inserted line.
 */
const tables = (SCHEMA: string) => `
CREATE TABLE ${SCHEMA}.records (
  id text COLLATE "C" NOT NULL,
  fingerprint text COLLATE "C" NOT NULL,
  ends_chunk boolean NOT NULL,
  project text COLLATE "C" NOT NULL,
  scope text COLLATE "C" NOT NULL,
  subject text COLLATE "C",
  known_at bigint NOT NULL,
  valid_from bigint NOT NULL,
  valid_to bigint,
  lifecycle text COLLATE "C" NOT NULL,
  source_class text COLLATE "C" NOT NULL,
  authority_class text COLLATE "C" NOT NULL,
  review_state text COLLATE "C" NOT NULL,
  provenance_ok boolean NOT NULL,
  sensitivity text COLLATE "C" NOT NULL,
  evidence_class text COLLATE "C",
  roles text[] COLLATE "C" NOT NULL,
  purposes text[] COLLATE "C" NOT NULL,
  labels text[] COLLATE "C" NOT NULL,
  claims text[] COLLATE "C" NOT NULL,
  supersedes text[] COLLATE "C" NOT NULL,
  title_tokens integer NOT NULL,
  text_tokens integer NOT NULL,
  tokens integer NOT NULL,
  relevance float8
);
CREATE TABLE ${SCHEMA}.documents (
  id text COLLATE "C" NOT NULL,
  line_hash bytea NOT NULL,
  document text NOT NULL
);
CREATE TABLE ${SCHEMA}.postings (
  term text COLLATE "C" NOT NULL,
  record_id text COLLATE "C" NOT NULL,
  title_tf integer NOT NULL,
  text_tf integer NOT NULL,
  title_at integer[] NOT NULL,
  text_at integer[] NOT NULL
);
CREATE TABLE ${SCHEMA}.digest_chunks (
  chunk_end text COLLATE "C" PRIMARY KEY,
  digest bytea NOT NULL
);
CREATE TABLE ${SCHEMA}.record_changes (
  snapshot bigint NOT NULL,
  id text COLLATE "C" NOT NULL
);
CREATE TABLE ${SCHEMA}.records_before (
  snapshot bigint NOT NULL,
  LIKE ${SCHEMA}.records
);
CREATE TABLE ${SCHEMA}.supersession_breaks (
  id text COLLATE "C" PRIMARY KEY,
  kind text COLLATE "C" NOT NULL CHECK (kind IN ('dangling', 'self', 'cycle')),
  names text[] COLLATE "C" NOT NULL
);
`;

/**
 * Every index of the record tables, primary keys included, built once their rows are in: one sort costs far less than
 * keeping them row by row, and the work of keeping a b-tree grows with the table while a sort's grows with the rows. A
 * load into empty tables needs none of them (it has nothing to look up: load-records.ts), and its duplicate ids are
 * found in `load_seen` before these are built. Documents and postings have no foreign key (the check per row cost more
 * than the insert); `load` deletes a record's document and postings with the record. `documents_line_hash` is how a
 * load finds the lines the database holds; `records_successors` holds the few records that supersede something: keeping
 * the broken links after a load reads them, not the corpus; it covers what finding the successors in force reads, so a
 * compile reads them from the index alone rather than from a heap page per successor, spread over the whole table;
 * `records_superseding` finds the successors that name a changed record (broken-links.ts).
 */
const lineHashIndex = (SCHEMA: string) =>
  `CREATE INDEX documents_line_hash ON ${SCHEMA}.documents (line_hash) INCLUDE (id)`;

const indexes = (SCHEMA: string) => `
ALTER TABLE ${SCHEMA}.records ADD PRIMARY KEY (id);
ALTER TABLE ${SCHEMA}.documents ADD PRIMARY KEY (id);
${lineHashIndex(SCHEMA)};
ALTER TABLE ${SCHEMA}.postings ADD PRIMARY KEY (term, record_id) INCLUDE (title_tf, text_tf);
CREATE INDEX postings_record ON ${SCHEMA}.postings (record_id);
CREATE INDEX records_successors ON ${SCHEMA}.records (id) INCLUDE (supersedes, lifecycle, known_at, valid_from)
  WHERE cardinality(supersedes) > 0;
CREATE INDEX records_superseding ON ${SCHEMA}.records USING gin (supersedes) WHERE cardinality(supersedes) > 0;
CREATE INDEX records_order ON ${SCHEMA}.records ((${utf16Order('id')}));
CREATE INDEX record_changes_snapshot ON ${SCHEMA}.record_changes (snapshot, id);
CREATE INDEX records_before_id ON ${SCHEMA}.records_before (id, snapshot);
CREATE INDEX records_chunk_ends ON ${SCHEMA}.records ((${utf16Order('id')})) WHERE ends_chunk;
`;

/** Every layout's tables, this one's and those earlier layouts had. */
const EVERY_LAYOUTS_TABLES = [
  ...TABLES,
  'record_terms',
  'supersessions',
  'record_claims',
  'record_labels',
  'record_purposes',
  'record_roles',
  'records',
];

/**
 * Drops the record tables and makes them again, empty and without indexes, in the caller's transaction (no other
 * session sees them until it commits); the caller writes the rows, then calls `createIndexes`.
 */
export async function remakeTables(client: Database): Promise<void> {
  for (const table of EVERY_LAYOUTS_TABLES)
    await client.query(`DROP TABLE IF EXISTS ${client.schema}.${table} CASCADE`);
  await client.query(tables(client.schema));
}

/**
 * Creates the schema, upgrades an earlier layout in place where it can, or else makes the tables again when their
 * layout is another version's, inside the caller's transaction. Tables it makes have no index yet (`remakeTables`).
 */
export async function migrate(client: Database): Promise<'created' | 'current' | 'upgraded' | 'migrated'> {
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${client.schema}`);
  // The snapshot names the records as loads left them: every load that changes a record counts it up by one.
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${client.schema}.layout (version integer NOT NULL, snapshot bigint NOT NULL DEFAULT 0)`,
  );
  // Two loads at once would otherwise both find no layout and both create the tables.
  await client.query(`LOCK TABLE ${client.schema}.layout IN EXCLUSIVE MODE`);
  const { rows } = await client.query<{ version: number }>(`SELECT version FROM ${client.schema}.layout`);
  const found = rows[0]?.version;
  if (found === LAYOUT) return 'current';
  const upgrade = found === undefined ? undefined : UPGRADES_IN_PLACE.get(found);
  if (upgrade !== undefined) {
    await useIndexBuildMemory(client);
    await upgrade(client);
    await client.query(`UPDATE ${client.schema}.layout SET version = $1`, [LAYOUT]);
    return 'upgraded';
  }
  await remakeTables(client);
  // An older layout's table has no snapshot column; where it has one, the count goes on, so no number names two record
  // sets.
  await client.query(`ALTER TABLE ${client.schema}.layout ADD COLUMN IF NOT EXISTS snapshot bigint NOT NULL DEFAULT 0`);
  await client.query(`ALTER TABLE ${client.schema}.layout ADD COLUMN IF NOT EXISTS log_from bigint NOT NULL DEFAULT 0`);
  if (found === undefined)
    await client.query(`INSERT INTO ${client.schema}.layout (version, snapshot) VALUES ($1, 0)`, [LAYOUT]);
  else await client.query(`UPDATE ${client.schema}.layout SET version = $1`, [LAYOUT]);
  return found === undefined ? 'created' : 'migrated';
}

/** The snapshot the records are at, as the caller's transaction sees them. */
export async function currentSnapshot(client: Database): Promise<number> {
  const { rows } = await client.query<{ snapshot: string }>(`SELECT snapshot FROM ${client.schema}.layout`);
  return Number(rows[0]?.snapshot ?? 0);
}

/**
 * The channel a transaction that moves a schema's snapshot notifies, with the schema's quoted name as the payload: the
 * server delivers it when that transaction commits, so a watching compile (`compile --watch`) hears every committed
 * change and no rolled-back one.
 */
export const LOADS_CHANNEL = 'context_compiler_loads';

/**
 * Counts the snapshot up by one, in the caller's transaction (which holds the layout's lock): the records have changed.
 */
export async function nextSnapshot(client: Database): Promise<number> {
  const { rows } = await client.query<{ snapshot: string }>(
    `WITH moved AS (UPDATE ${client.schema}.layout SET snapshot = snapshot + 1 RETURNING snapshot)
     SELECT snapshot, pg_notify($1, $2) FROM moved`,
    [LOADS_CHANNEL, client.schema],
  );
  return Number(rows[0]?.snapshot ?? 0);
}

/**
 * Sort memory for building the indexes, whatever the server's own setting. The postings' primary key sorts one row per
 * term of every record: in runs that fit the processor's caches, merged, it is built faster than sorted in one piece in
 * a large memory, and 64 MB still lets one parallel worker help (each needs 32 MB). Measured: docs/ADAPTERS.md.
 */
const INDEX_BUILD_MEMORY = '64MB';

/** Sets the sort memory indexes are built with for the rest of the caller's transaction. */
async function useIndexBuildMemory(client: Database): Promise<void> {
  await client.query(`SELECT set_config('maintenance_work_mem', '${INDEX_BUILD_MEMORY}', true)`);
}

/** Builds the indexes of tables `migrate` or `remakeTables` has just made, in the caller's transaction. */
export async function createIndexes(client: Database): Promise<void> {
  await useIndexBuildMemory(client);
  await client.query(indexes(client.schema));
}

/** The layout the database holds, or null when `load` never ran there. */
export async function layoutOf(client: Database): Promise<number | null> {
  const { rows } = await client.query<{ present: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS present`, [
    `${client.schema}.layout`,
  ]);
  if (rows[0]?.present !== true) return null;
  const found = await client.query<{ version: number }>(`SELECT version FROM ${client.schema}.layout`);
  return found.rows[0]?.version ?? null;
}

/**
 * Why a compile, an audit or a delete cannot read the database's records: it holds none, or another version's layout.
 */
export async function requireLayout(client: Database): Promise<Result<void, CompileError>> {
  const layout = await layoutOf(client);
  if (layout === LAYOUT || (layout !== null && UPGRADES_IN_PLACE.has(layout))) return ok(undefined);
  const fields = { pass: 'validate', code: 'INVALID_INPUT' } as const;
  return err(
    layout === null
      ? compileError(fields, 'DATABASE_HOLDS_NO_RECORDS')
      : compileError(fields, 'DATABASE_OTHER_LAYOUT', { layout, current: LAYOUT }),
  );
}
