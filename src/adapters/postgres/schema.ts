/** What the PostgreSQL adapter needs from a connection: `pg`'s Client and PoolClient fit, and so does a test's wrapper. */
export interface Queryable {
  query<R extends object = Record<string, unknown>>(text: string, values?: readonly unknown[]): Promise<{ readonly rows: R[] }>;
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
 * the project's tables dropped and made again: they hold a copy of records files, which `load` writes again.
 */
export const LAYOUT = 3;

/**
 * Every text column is COLLATE "C" (code-point order, byte equality, no locale folding) whatever the
 * database's default, and holds the string as given (no normalisation): the plan's `binary-collation` and
 * `no-normalisation`. Instants are bigint epoch milliseconds (`utc-millisecond-instants`). A record's lists
 * are rows of their own tables, so an empty list is no rows, never a null (`empty-lists`); a missing subject
 * is SQL NULL (`null-subjects`). `document` is the record as validated, read back and validated again by
 * every compile; `line_hash` is the SHA-256 of the line it was read from (see load.ts), so a load of the same
 * line again needs neither to read nor to write it. Nothing keeps the file's order: a compile does not depend on
 * it, and a dense position would shift for every record after an inserted line. `terms` is the full-text column: FTS5's tokens of the title and text (see tokens.ts), with
 * a GIN index, and `record_terms` their positions for ranking (no foreign key: a row per term per record,
 * and the check per row cost more than the insert; `load` deletes a record's terms with the record).
 */
const tables = (SCHEMA: string) => `
CREATE TABLE ${SCHEMA}.records (
  id text COLLATE "C" PRIMARY KEY,
  line_hash bytea NOT NULL,
  fingerprint text NOT NULL,
  document text NOT NULL,
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
  title_tokens integer NOT NULL,
  text_tokens integer NOT NULL,
  terms text[] COLLATE "C" NOT NULL
);
-- A load looks every line up here before reading it, from its first batch: the index cannot wait for the rows.
CREATE INDEX records_line_hash ON ${SCHEMA}.records (line_hash);
CREATE TABLE ${SCHEMA}.record_roles (record_id text COLLATE "C" NOT NULL REFERENCES ${SCHEMA}.records ON DELETE CASCADE, role text COLLATE "C" NOT NULL, PRIMARY KEY (record_id, role));
CREATE TABLE ${SCHEMA}.record_purposes (record_id text COLLATE "C" NOT NULL REFERENCES ${SCHEMA}.records ON DELETE CASCADE, purpose text COLLATE "C" NOT NULL, PRIMARY KEY (record_id, purpose));
CREATE TABLE ${SCHEMA}.record_labels (record_id text COLLATE "C" NOT NULL REFERENCES ${SCHEMA}.records ON DELETE CASCADE, label text COLLATE "C" NOT NULL, PRIMARY KEY (record_id, label));
CREATE TABLE ${SCHEMA}.record_claims (record_id text COLLATE "C" NOT NULL REFERENCES ${SCHEMA}.records ON DELETE CASCADE, proposition text COLLATE "C" NOT NULL, PRIMARY KEY (record_id, proposition));
CREATE TABLE ${SCHEMA}.supersessions (target text COLLATE "C" NOT NULL, successor text COLLATE "C" NOT NULL REFERENCES ${SCHEMA}.records ON DELETE CASCADE, PRIMARY KEY (target, successor));
CREATE TABLE ${SCHEMA}.record_terms (
  record_id text COLLATE "C" NOT NULL,
  field smallint NOT NULL,
  term text COLLATE "C" NOT NULL,
  positions integer[] NOT NULL
);
`;

/** The indexes no insert needs, built once the first rows are in: one sort costs far less than keeping them row by row. */
const indexes = (SCHEMA: string) => `
ALTER TABLE ${SCHEMA}.record_terms ADD PRIMARY KEY (term, record_id, field);
CREATE INDEX record_terms_record ON ${SCHEMA}.record_terms (record_id);
CREATE INDEX records_project_scope ON ${SCHEMA}.records (project, scope);
CREATE INDEX records_terms ON ${SCHEMA}.records USING gin (terms);
CREATE INDEX supersessions_successor ON ${SCHEMA}.supersessions (successor);
`;

/**
 * Creates the schema, or makes it again when its layout is another version's, inside the caller's transaction.
 * Tables it makes have no secondary index yet: the caller writes the rows, then calls `createIndexes` before
 * committing (no other session can see the new tables until then).
 */
export async function migrate(client: Database): Promise<'created' | 'current' | 'migrated'> {
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${client.schema}`);
  // The snapshot names the records as loads left them: every load that changes a record counts it up by one.
  await client.query(`CREATE TABLE IF NOT EXISTS ${client.schema}.layout (version integer NOT NULL, snapshot bigint NOT NULL DEFAULT 0)`);
  // Two loads at once would otherwise both find no layout and both create the tables.
  await client.query(`LOCK TABLE ${client.schema}.layout IN EXCLUSIVE MODE`);
  const { rows } = await client.query<{ version: number }>(`SELECT version FROM ${client.schema}.layout`);
  const found = rows[0]?.version;
  if (found === LAYOUT) return 'current';
  for (const table of ['record_terms', 'supersessions', 'record_claims', 'record_labels', 'record_purposes', 'record_roles', 'records'])
    await client.query(`DROP TABLE IF EXISTS ${client.schema}.${table}`);
  await client.query(tables(client.schema));
  // An older layout's table has no snapshot column; where it has one, the count goes on, so no number names two record sets.
  await client.query(`ALTER TABLE ${client.schema}.layout ADD COLUMN IF NOT EXISTS snapshot bigint NOT NULL DEFAULT 0`);
  if (found === undefined) await client.query(`INSERT INTO ${client.schema}.layout (version, snapshot) VALUES ($1, 0)`, [LAYOUT]);
  else await client.query(`UPDATE ${client.schema}.layout SET version = $1`, [LAYOUT]);
  return found === undefined ? 'created' : 'migrated';
}

/** Counts the snapshot up by one, in the caller's transaction (which holds the layout's lock): the records have changed. */
export async function nextSnapshot(client: Database): Promise<number> {
  const { rows } = await client.query<{ snapshot: string }>(`UPDATE ${client.schema}.layout SET snapshot = snapshot + 1 RETURNING snapshot`);
  return Number(rows[0]?.snapshot ?? 0);
}

/** Builds the indexes of tables `migrate` has just made. */
export async function createIndexes(client: Database): Promise<void> {
  await client.query(indexes(client.schema));
}

/** The layout the database holds, or null when `load` never ran there. */
export async function layoutOf(client: Database): Promise<number | null> {
  const { rows } = await client.query<{ present: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS present`, [`${client.schema}.layout`]);
  if (rows[0]?.present !== true) return null;
  const found = await client.query<{ version: number }>(`SELECT version FROM ${client.schema}.layout`);
  return found.rows[0]?.version ?? null;
}
