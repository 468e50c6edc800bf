import { createHash } from 'node:crypto';
import type { CompileError, InputIssue } from '../../core/errors';
import { compileError, err, issueAt, ok, type Result } from '../../core/errors';
import { invalidInput, MAX_REPORTED_ISSUES } from '../../core/format/input-issues';
import { quoteValue } from '../../core/format/json-text';
import { createJsonlLineSplitter } from '../../core/format/jsonl-lines';
import { checkRecord, overlongLineIssue, readRecordLine, type RecordSet } from '../../core/passes/validate';
import { inputIssue } from '../../core/issues';
import { ENGINE_VERSION } from '../../core/version';
import { copyLine, copyRecords, deleteRecordRows, nulIssue, type RecordToWrite } from './copy-rows';
import { keepBrokenLinks } from './broken-links';
import { keepRecordSetDigest } from './record-set-digest';
import { createIndexes, migrate, nextSnapshot, requireLayout, type Database } from './schema';
import type { Tokeniser } from './tokens';

export interface LoadReport {
  readonly layout: 'created' | 'current' | 'migrated';
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

/** Lines per batch: one look-up of their hashes, then one COPY a table for the records among them that changed. */
const BATCH = 1_000;
/** Records written by one load past which its tables' statistics are brought up to date before it commits. */
const BULK_WRITES = 10_000;
/** A batch is cut short at this many characters of lines, so a file of long lines is held a few megabytes at a time. */
const BATCH_CHARS = 2_000_000;

/**
 * The hash a line is known by in `documents.line_hash`. It covers the engine's version: another version may
 * read the same bytes as another record (a new field, a fingerprint computed otherwise), so after an upgrade
 * every line is read again once and only records whose fingerprint changed are written.
 */
function lineHash(line: string): Buffer {
  return createHash('sha256').update(`context-compiler ${ENGINE_VERSION}\n`).update(line).digest();
}

interface Line {
  readonly number: number;
  /** Null for a line over MAX_LINE_CHARS, whose text was never kept. */
  readonly text: string | null;
}

interface Counts {
  inserted: number;
  updated: number;
  unchanged: number;
}

/** The file's problems, in line order: the first MAX_REPORTED_ISSUES of them and how many there are. */
interface Problems {
  readonly shown: InputIssue[];
  count: number;
  /** The first record holding U+0000 (refused only when the file has no other problem, as a whole reading would). */
  nul: { readonly issue: InputIssue; readonly recordId: string } | null;
}

const addProblems = (problems: Problems, issues: readonly InputIssue[]) => {
  problems.count += issues.length;
  for (const issue of issues) if (problems.shown.length < MAX_REPORTED_ISSUES) problems.shown.push(issue);
};

/**
 * Brings the records to the file's, in one transaction, reading the file as it streams: a batch of lines
 * at a time is looked up by hash, and only lines the database does not hold are read, validated, tokenised
 * and written, so loading the same file again reads and writes no record. Which line holds which id is
 * kept in a temporary table, not in memory: duplicate ids are found there at the end, and (replacing) the
 * records no line holds any more are deleted. A refused file rolls everything back: nothing is half-written.
 */
export async function loadRecordLines(
  client: Database,
  file: string,
  chunks: AsyncIterable<string> | Iterable<string>,
  tokeniser: Tokeniser,
  options: LoadOptions = {},
): Promise<Result<LoadReport, CompileError>> {
  await client.query('BEGIN');
  try {
    await withoutJit(client);
    const loaded = await loadInTransaction(client, file, chunks, tokeniser, options);
    await client.query(loaded.ok ? 'COMMIT' : 'ROLLBACK');
    return loaded;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

async function loadInTransaction(
  client: Database,
  file: string,
  chunks: AsyncIterable<string> | Iterable<string>,
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
  const counts: Counts = { inserted: 0, updated: 0, unchanged: 0 };
  const problems: Problems = { shown: [], count: 0, nul: null };
  // A batch's records are written while the next batch is read and tokenised: the server and Node work at once.
  let written: Promise<void> = Promise.resolve();
  const batch: Line[] = [];
  let batchChars = 0;
  const lines = createJsonlLineSplitter({
    line: (text, number) => {
      batch.push({ number, text });
      batchChars += text.length;
    },
    overlong: (number) => batch.push({ number, text: null }),
  });
  const flush = async (all: boolean) => {
    while (batch.length >= BATCH || batchChars >= BATCH_CHARS || (all && batch.length > 0)) {
      const taken = batch.splice(0, BATCH);
      batchChars = batch.reduce((sum, line) => sum + (line.text?.length ?? 0), 0);
      written = (await loadBatch(client, file, taken, tokeniser, { counts, problems, written })).written;
      // Awaited before the next batch writes, and at the end: marked handled now so a failure waits there to be thrown.
      written.catch(() => undefined);
      onProgress?.(lines.lineCount, counts.inserted + counts.updated);
    }
  };
  for await (const chunk of chunks) {
    lines.push(chunk);
    await flush(false);
  }
  lines.finish();
  await flush(true);
  await written;

  const refusal = await refusalOf(client, file, problems);
  if (refusal !== null) return err(refusal);
  const deleted = mode === 'replace' ? await deleteUnseen(client) : 0;
  const changed = counts.inserted + counts.updated + deleted > 0 || layout !== 'current';
  // A new layout's indexes first: the digest's chunks are read through them.
  if (layout !== 'current') await createIndexes(client);
  if (changed) {
    await keepBrokenLinks(client);
    await keepRecordSetDigest(client, layout !== 'current');
  }
  // A new table, or one a load rewrote in bulk, has statistics that no longer say how many rows it holds: the
  // next load's look-ups by line hash would scan every document, and a compile's plans would guess.
  if (layout !== 'current' || counts.inserted + counts.updated + deleted >= BULK_WRITES)
    await client.query(`ANALYZE ${client.schema}.records, ${client.schema}.documents, ${client.schema}.postings`);
  const snapshot = changed ? await nextSnapshot(client) : await currentSnapshot(client);
  return ok({ layout, ...counts, deleted, snapshot });
}

/**
 * One batch of lines: those whose hash the database holds are known by their id without being read; the
 * others are read, and those whose record the database does not hold as it is (by fingerprint) are written.
 * Returns the batch's writes still under way, which the next batch awaits before it writes.
 */
async function loadBatch(
  client: Database,
  file: string,
  lines: readonly Line[],
  tokeniser: Tokeniser,
  state: { readonly counts: Counts; readonly problems: Problems; readonly written: Promise<void> },
): Promise<{ readonly written: Promise<void> }> {
  const { counts, problems } = state;
  const hashes = lines.map((line) => (line.text === null ? null : lineHash(line.text)));
  const { rows } = await client.query<{ line_hash: Buffer; id: string }>(
    `SELECT line_hash, id FROM ${client.schema}.documents WHERE line_hash = ANY($1::bytea[])`,
    [hashes.filter((hash) => hash !== null)],
  );
  const known = new Map(rows.map((row) => [row.line_hash.toString('hex'), row.id]));
  const seen: string[] = [];
  const fresh = new Map<string, RecordToWrite>();
  for (const [index, line] of lines.entries()) {
    const hash = hashes[index];
    if (line.text === null || hash === undefined || hash === null) {
      addProblems(problems, [overlongLineIssue(file, line.number)]);
      continue;
    }
    const id = known.get(hash.toString('hex'));
    if (id !== undefined) {
      seen.push(copyLine([id, line.number]));
      counts.unchanged += 1;
      continue;
    }
    const read = readRecordLine(file, line.number, line.text);
    if (!read.ok) {
      addProblems(problems, read.issues);
      continue;
    }
    seen.push(copyLine([read.record.id, line.number]));
    // Once the file is refused nothing more is written; its lines are still read for every problem they hold.
    if (problems.count > 0 || problems.nul !== null || fresh.has(read.record.id)) continue;
    const item = checkRecord(read.record);
    const nul = nulIssue(file, item, line.number);
    if (nul !== null) problems.nul = { issue: nul, recordId: item.record.id };
    else fresh.set(item.record.id, { item, lineHash: hash });
  }
  if (seen.length > 0) await client.copyFrom('COPY load_seen (id, line) FROM STDIN', seen);
  if (fresh.size === 0 || problems.count > 0 || problems.nul !== null) return { written: state.written };
  return writeFresh(client, [...fresh.values()], tokeniser, state);
}

/**
 * Writes the records read from changed lines: new ids inserted, changed records replaced, a record equal by fingerprint
 * only given its new line's hash.
 */
async function writeFresh(
  client: Database,
  fresh: readonly RecordToWrite[],
  tokeniser: Tokeniser,
  state: { readonly counts: Counts; readonly written: Promise<void> },
): Promise<{ readonly written: Promise<void> }> {
  const { counts } = state;
  const { rows } = await client.query<{ id: string; fingerprint: string }>(
    `SELECT id, fingerprint FROM ${client.schema}.records WHERE id = ANY($1::text[])`,
    [fresh.map(({ item }) => item.record.id)],
  );
  const stored = new Map(rows.map((row) => [row.id, row.fingerprint]));
  const writes: RecordToWrite[] = [];
  const replaced: string[] = [];
  const rehashed: RecordToWrite[] = [];
  for (const write of fresh) {
    const before = stored.get(write.item.record.id);
    if (before === write.item.fingerprint) rehashed.push(write);
    else {
      if (before !== undefined) replaced.push(write.item.record.id);
      writes.push(write);
    }
  }
  counts.unchanged += rehashed.length;
  counts.updated += replaced.length;
  counts.inserted += writes.length - replaced.length;
  const tokens = tokeniser.records(writes.map(({ item }) => [item.record.title, item.record.text]));
  // The last batch's rows are all in before these delete or update any: a list row must never outlive its record.
  await state.written;
  if (rehashed.length > 0)
    await client.query(
      `UPDATE ${client.schema}.documents d SET line_hash = x.hash FROM unnest($1::text[], $2::bytea[]) AS x(id, hash) WHERE d.id = x.id`,
      [rehashed.map(({ item }) => item.record.id), rehashed.map(({ lineHash: hash }) => Buffer.from(hash))],
    );
  await deleteRecordRows(client, replaced);
  if (writes.length > 0)
    await client.query('INSERT INTO load_changed SELECT unnest($1::text[])', [
      writes.map(({ item }) => item.record.id),
    ]);
  return { written: writes.length === 0 ? Promise.resolve() : copyRecords(client, writes, tokens) };
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
    `WITH gone AS (DELETE FROM ${client.schema}.records r WHERE NOT EXISTS (SELECT 1 FROM load_seen s WHERE s.id = r.id) RETURNING id),
     documents AS (DELETE FROM ${client.schema}.documents d USING gone WHERE d.id = gone.id),
     postings AS (DELETE FROM ${client.schema}.postings t USING gone WHERE t.record_id = gone.id),
     changed AS (INSERT INTO load_changed SELECT id FROM gone)
     SELECT count(*)::integer AS deleted FROM gone`,
  );
  return rows[0]?.deleted ?? 0;
}

/**
 * For the rest of the caller's transaction: compiling a statement's expressions (PostgreSQL 15 turns JIT on for
 * costly plans) took longer than running the statements that keep the digest after one record changed.
 */
async function withoutJit(client: Database): Promise<void> {
  await client.query('SET LOCAL jit = off');
}

/** The ids a load or delete wrote or removed, for the digest's chunks (record-set-digest.ts). */
async function createChangedTable(client: Database): Promise<void> {
  await client.query('CREATE TEMPORARY TABLE load_changed (id text COLLATE "C" NOT NULL) ON COMMIT DROP');
}

async function currentSnapshot(client: Database): Promise<number> {
  const { rows } = await client.query<{ snapshot: string }>(`SELECT snapshot FROM ${client.schema}.layout`);
  return Number(rows[0]?.snapshot ?? 0);
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
  client: Database,
  file: string,
  recordSet: RecordSet,
  tokeniser: Tokeniser,
  options: LoadOptions = {},
): Promise<Result<LoadReport, CompileError>> {
  return loadRecordLines(client, file, recordSetLines(recordSet), tokeniser, options);
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
      await keepBrokenLinks(client);
      await keepRecordSetDigest(client, false);
    }
    const snapshot = gone.size > 0 ? await nextSnapshot(client) : await currentSnapshot(client);
    await client.query('COMMIT');
    return ok({ deleted: gone.size, absent: ids.filter((id) => !gone.has(id)), snapshot });
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
