import type { Sha256 } from '../../core/fingerprints';
import type { CompileError } from '../../core/errors';
import { compileError, err, issueAt, ok, type Result } from '../../core/errors';
import { invalidInput, MAX_REPORTED_ISSUES } from '../../core/format/input-issues';
import { quoteValue } from '../../core/format/json-text';
import type { RecordSet } from '../../core/phases/1-validate/validate';
import { inputIssue } from '../../core/issues';
import { copyRecords, deleteRecordRows, type RecordRows } from './copy-rows';
import {
  BATCH,
  isRefused,
  lineBatches,
  type RecordChunks,
  prepareBatch,
  type Line,
  type PreparedBatch,
  type Problems,
} from './load-batch';
import { keepBrokenLinks } from './broken-links';
import { keepRecordSetDigest } from './record-set-digest';
import {
  createIndexes,
  currentSnapshot,
  migrate,
  nextSnapshot,
  remakeTables,
  requireLayout,
  type Database,
} from './schema';
import type { Tokeniser } from './tokens';
import { keepRowsBefore, logChanges } from './change-log';

export interface LoadReport {
  readonly layout: 'created' | 'current' | 'upgraded' | 'migrated';
  readonly inserted: number;
  readonly updated: number;
  readonly deleted: number;
  readonly unchanged: number;
  /** The snapshot the records are at once the load is committed: counted up only when a record changed. */
  readonly snapshot: number;
}

/**
 * `replace`: the database then holds exactly the file's records. `upsert`: the file's records are added or replace
 * those with their ids; no other is touched.
 */
export type LoadMode = 'replace' | 'upsert';

export interface LoadOptions {
  readonly mode?: LoadMode;
  /** Called after each batch: lines read so far, and records written. */
  readonly onProgress?: (lines: number, written: number) => void;
}

/** Records written by one load past which its tables' statistics are brought up to date before it commits. */
const BULK_WRITES = 10_000;

interface Counts {
  inserted: number;
  updated: number;
  unchanged: number;
}

/**
 * Brings the records to the file's, in one transaction, reading the file as it streams: a batch of lines
 * at a time is looked up by hash, and only lines the database does not hold are read, validated, tokenised
 * and written, so loading the same file again reads and writes no record. Which line holds which id is
 * kept in a temporary table, not in memory: duplicate ids are found there at the end, and (replacing) the
 * records no line holds any more are deleted. A refused file rolls everything back: nothing is half-written.
 */
export async function loadRecordLines(
  sha256: Sha256,
  client: Database,
  file: string,
  chunks: RecordChunks,
  tokeniser: Tokeniser,
  options: LoadOptions = {},
): Promise<Result<LoadReport, CompileError>> {
  await client.query('BEGIN');
  try {
    await withoutJit(client);
    await compressDocumentsFast(client);
    const loaded = await loadInTransaction(sha256, client, file, chunks, tokeniser, options);
    await client.query(loaded.ok ? 'COMMIT' : 'ROLLBACK');
    return loaded;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

async function loadInTransaction(
  sha256: Sha256,
  client: Database,
  file: string,
  chunks: RecordChunks,
  tokeniser: Tokeniser,
  { mode = 'replace', onProgress }: LoadOptions,
): Promise<Result<LoadReport, CompileError>> {
  const layout = await migrate(client);
  // One load at a time: a second waits here instead of interleaving its rows with this one's. Compiles still read.
  await client.query(`LOCK TABLE ${client.schema}.records IN EXCLUSIVE MODE`);
  await client.query(
    'CREATE TEMPORARY TABLE load_seen (id text COLLATE "C" NOT NULL, line integer NOT NULL) ON COMMIT DROP',
  );
  await createChangedTable(client);
  // New tables hold no record; an upgrade in place changes indexes, not records.
  const newTables = layout === 'created' || layout === 'migrated';
  const filling = await fillsEmptyTables(client, newTables);
  const counts: Counts = { inserted: 0, updated: 0, unchanged: 0 };
  const problems: Problems = { shown: [], count: 0, nul: null };
  // Filling, a batch is read while the one before it is written: two batches held. Reloading, a batch's line hashes
  // are looked up while the next batch is read, so the server's index probes overlap Node's reading and hashing: a
  // third batch is held, of lines that are mostly known and never parsed.
  const lookAhead = filling ? 0 : 1;
  const lookingUp: { readonly lines: readonly Line[]; readonly known: Promise<ReadonlyMap<string, string>> }[] = [];
  let writing: Promise<number> | null = null;
  const reportWritten = (lastLine: number) => onProgress?.(lastLine, counts.inserted + counts.updated);
  const prepareNext = async (next: (typeof lookingUp)[number]) => {
    const prepared = await prepareBatch(sha256, file, next.lines, await next.known, tokeniser, problems);
    // One batch written at a time, while the next is read, validated and tokenised: server and Node at once.
    if (writing !== null) reportWritten(await writing);
    writing = writeBatch(client, prepared, problems, counts, filling).then(() => prepared.lastLine);
    writing.catch(() => undefined);
  };
  for await (const lines of lineBatches(chunks)) {
    // Sent before the previous batch's writes, so the answer does not wait behind their COPY. The connection runs one
    // statement at a time, in the order they were sent.
    const known = filling ? Promise.resolve(NOTHING_KNOWN) : knownLines(client, lines);
    // Awaited once its turn comes (as the write is): until then a failure must not count as unhandled.
    known.catch(() => undefined);
    lookingUp.push({ lines, known });
    const next = lookingUp.length > lookAhead ? lookingUp.shift() : undefined;
    if (next !== undefined) await prepareNext(next);
  }
  for (const next of lookingUp.splice(0)) await prepareNext(next);
  if (writing !== null) reportWritten(await writing);

  const refusal = await refusalOf(client, file, problems);
  if (refusal !== null) return err(refusal);
  const deleted = mode === 'replace' && !filling ? await deleteUnseen(client) : 0;
  const changed = counts.inserted + counts.updated + deleted > 0 || newTables;
  // The indexes first: the digest's chunks are read through them.
  if (filling) await createIndexes(client);
  if (changed) {
    await keepBrokenLinks(client, filling ? 'all' : 'changed');
    await keepRecordSetDigest(client, filling);
  }
  // A new table, or one a load rewrote in bulk, has statistics that no longer say how many rows it holds: the
  // next load's look-ups by line hash would scan every document, and a compile's plans would guess.
  if (filling || counts.inserted + counts.updated + deleted >= BULK_WRITES)
    await client.query(`ANALYZE ${client.schema}.records, ${client.schema}.documents, ${client.schema}.postings`);
  const snapshot = changed ? await nextSnapshot(client) : await currentSnapshot(client);
  if (changed) await logChanges(client, snapshot, filling);
  return ok({ layout, ...counts, deleted, snapshot });
}

/**
 * Whether this load writes into tables that held no record when it began: then it has nothing to look up, and writes
 * into tables without indexes, built once at its end (schema.ts). A new layout's tables are such; empty tables of the
 * current layout are made again so (their lock keeps compiles of the empty set waiting until the load commits).
 * Looking each batch's lines up in a table being filled would also cost more with every batch: until the load commits,
 * the table has no statistics, and the planner scans it whole for each batch.
 */
async function fillsEmptyTables(client: Database, newTables: boolean): Promise<boolean> {
  if (newTables) return true;
  // Only the tables a load made: a coordinator's partitioned tables over its shards are not made again here.
  const { rows } = await client.query<{ empty: boolean }>(
    `SELECT NOT EXISTS (SELECT 1 FROM ${client.schema}.records) AND (SELECT relkind = 'r' FROM pg_class ` +
      `WHERE oid = $1::regclass) AS empty`,
    [`${client.schema}.records`],
  );
  if (rows[0]?.empty !== true) return false;
  await remakeTables(client);
  return true;
}

const NOTHING_KNOWN: ReadonlyMap<string, string> = new Map();

/** A hex hash as a `bytea` parameter's text. */
const byteaHex = (hex: string) => `\\x${hex}`;

/** Which of these lines the database holds byte for byte: hex hash -> the id its record has. */
async function knownLines(client: Database, lines: readonly Line[]): Promise<Map<string, string>> {
  // Hashes go and come back as hex text, the form they are compared in: no Buffer per line on either side.
  const { rows } = await client.query<{ line_hash: string; id: string }>(
    `SELECT encode(line_hash, 'hex') AS line_hash, id FROM ${client.schema}.documents ` +
      'WHERE line_hash = ANY($1::bytea[])',
    [lines.flatMap((line) => (line.hash === null ? [] : [byteaHex(line.hash)]))],
  );
  return new Map(rows.map((row) => [row.line_hash, row.id]));
}

/**
 * Writes a prepared batch: which id each line holds, then its records: new ids inserted, changed records replaced, a
 * record equal by fingerprint only given its new line's hash. Nothing once the file is refused.
 */
async function writeBatch(
  client: Database,
  batch: PreparedBatch,
  problems: Problems,
  counts: Counts,
  filling: boolean,
): Promise<void> {
  counts.unchanged += batch.unchanged;
  const { fresh } = batch;
  if (batch.seen.length > 0) await client.copyFrom('COPY load_seen (id, line) FROM STDIN', batch.seen);
  if (fresh.length === 0 || isRefused(problems)) return;
  if (filling) {
    // An id two batches hold is written twice here, and refused with the file before any unique index is built.
    counts.inserted += fresh.length;
    await copyRecords(
      client,
      fresh.map((record) => record.rows),
    );
    return;
  }
  const stored = await client.query<{ id: string; fingerprint: string }>(
    `SELECT id, fingerprint FROM ${client.schema}.records WHERE id = ANY($1::text[])`,
    [fresh.map((record) => record.id)],
  );
  const before = new Map(stored.rows.map((row) => [row.id, row.fingerprint]));
  const writes: RecordRows[] = [];
  const written: string[] = [];
  const replaced: string[] = [];
  const rehashed: { readonly id: string; readonly lineHash: string }[] = [];
  for (const record of fresh) {
    const fingerprint = before.get(record.id);
    if (fingerprint === record.fingerprint) rehashed.push(record);
    else {
      if (fingerprint !== undefined) replaced.push(record.id);
      writes.push(record.rows);
      written.push(record.id);
    }
  }
  counts.unchanged += rehashed.length;
  counts.updated += replaced.length;
  counts.inserted += writes.length - replaced.length;
  if (rehashed.length > 0)
    await client.query(
      `UPDATE ${client.schema}.documents d SET line_hash = x.hash FROM unnest($1::text[], $2::bytea[]) AS ` +
        `x(id, hash) WHERE d.id = x.id`,
      [rehashed.map(({ id }) => id), rehashed.map(({ lineHash }) => byteaHex(lineHash))],
    );
  await deleteRecordRows(client, replaced);
  if (writes.length === 0) return;
  await client.query('INSERT INTO load_changed SELECT unnest($1::text[])', [written]);
  await copyRecords(client, writes);
}

/**
 * The file's refusal, with duplicate ids found among the lines it held (file, line and field each), as reading it whole
 * refuses it; null when it has none.
 */
async function refusalOf(client: Database, file: string, problems: Problems): Promise<CompileError | null> {
  const { rows } = await client.query<{ id: string; line: number; first: number; total: string }>(
    `WITH copies AS (SELECT id, min(line) AS first FROM load_seen GROUP BY id HAVING count(*) > 1)
     SELECT s.id, s.line, c.first, count(*) OVER () AS total FROM load_seen s JOIN copies c USING (id) WHERE s.line <> c.first ORDER BY s.line LIMIT $1`,
    [MAX_REPORTED_ISSUES],
  );
  const duplicates = rows.map((row) =>
    inputIssue({ file, line: row.line, path: 'id' }, 'DUPLICATE_ID', {
      id: quoteValue(row.id),
      first: `line ${row.first}`,
    }),
  );
  const count = problems.count + Number(rows[0]?.total ?? 0);
  if (count > 0) {
    const issues = [...problems.shown, ...duplicates]
      .sort((a, b) => (a.line ?? 0) - (b.line ?? 0))
      .slice(0, MAX_REPORTED_ISSUES);
    return invalidInput(file, issues, count, 'records file');
  }
  if (problems.nul === null) return null;
  const { issue, recordId } = problems.nul;
  return compileError(
    { pass: 'validate', code: 'INVALID_INPUT', recordId, issues: [issue] },
    'ISSUE_AT',
    issueAt(issue),
  );
}

/** Deletes every record no line of the file held, with its document and postings; how many. */
async function deleteUnseen(client: Database): Promise<number> {
  await client.query('ANALYZE load_seen');
  const { rows } = await client.query<{ deleted: number }>(
    `WITH gone AS (DELETE FROM ${client.schema}.records r WHERE NOT EXISTS (SELECT 1 FROM load_seen s WHERE s.id = r.id) RETURNING *),
     kept AS (${keepRowsBefore(client.schema, 'gone')}),
     documents AS (DELETE FROM ${client.schema}.documents d USING gone WHERE d.id = gone.id),
     postings AS (DELETE FROM ${client.schema}.postings t USING gone WHERE t.record_id = gone.id),
     changed AS (INSERT INTO load_changed SELECT id FROM gone)
     SELECT count(*)::integer AS deleted FROM gone`,
  );
  return rows[0]?.deleted ?? 0;
}

/**
 * For the rest of the caller's transaction: compiling a statement's expressions (PostgreSQL turns JIT on for
 * costly plans) costs more than running the statements that keep the digest after one record changed.
 */
async function withoutJit(client: Database): Promise<void> {
  await client.query('SET LOCAL jit = off');
}

/**
 * For the rest of the caller's transaction, where the server was built with lz4: a long document is compressed as it
 * is written, and lz4 compresses them in a fraction of the time pglz, the default, needs (docs/ADAPTERS.md).
 */
async function compressDocumentsFast(client: Database): Promise<void> {
  const { rows } = await client.query<{ lz4: boolean }>(
    `SELECT 'lz4' = ANY (enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`,
  );
  if (rows[0]?.lz4 === true) await client.query(`SET LOCAL default_toast_compression = lz4`);
}

/** The ids a load or delete wrote or removed, for the digest's chunks (record-set-digest.ts). */
async function createChangedTable(client: Database): Promise<void> {
  await client.query('CREATE TEMPORARY TABLE load_changed (id text COLLATE "C" NOT NULL) ON COMMIT DROP');
}

/** A record set's records as the lines of a file (one JSON record a line), a thousand lines a chunk. */
function* recordSetLines(recordSet: RecordSet): Generator<string> {
  for (let start = 0; start < recordSet.records.length; start += BATCH)
    yield recordSet.records
      .slice(start, start + BATCH)
      .map((record) => `${JSON.stringify(record)}\n`)
      .join('');
}

/**
 * Brings the database's records to exactly this record set's (its records, not its duplicates), as
 * `loadRecordLines` loads a file holding them a line each.
 */
export async function loadRecordSet(
  sha256: Sha256,
  client: Database,
  file: string,
  recordSet: RecordSet,
  tokeniser: Tokeniser,
  options: LoadOptions = {},
): Promise<Result<LoadReport, CompileError>> {
  return loadRecordLines(sha256, client, file, recordSetLines(recordSet), tokeniser, options);
}

export interface DeleteReport {
  readonly deleted: number;
  /** The ids given that no record had, in the order given. */
  readonly absent: readonly string[];
  readonly snapshot: number;
}

/** Deletes the records with these ids, and nothing else, in one transaction. */
export async function deleteRecords(
  client: Database,
  ids: readonly string[],
): Promise<Result<DeleteReport, CompileError>> {
  const layout = await requireLayout(client);
  if (!layout.ok) return layout;
  await client.query('BEGIN');
  try {
    await withoutJit(client);
    await client.query(`LOCK TABLE ${client.schema}.layout IN EXCLUSIVE MODE`);
    await client.query(`LOCK TABLE ${client.schema}.records IN EXCLUSIVE MODE`);
    await createChangedTable(client);
    const gone = new Set(await deleteRecordRows(client, ids));
    if (gone.size > 0) {
      await client.query('INSERT INTO load_changed SELECT unnest($1::text[])', [[...gone]]);
      await keepBrokenLinks(client, 'changed');
      await keepRecordSetDigest(client, false);
    }
    const snapshot = gone.size > 0 ? await nextSnapshot(client) : await currentSnapshot(client);
    if (gone.size > 0) await logChanges(client, snapshot, false);
    await client.query('COMMIT');
    return ok({ deleted: gone.size, absent: ids.filter((id) => !gone.has(id)), snapshot });
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
