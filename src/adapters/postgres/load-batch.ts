import type { Sha256 } from '../../core/fingerprints';
import { isAscii } from 'node:buffer';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { InputIssue } from '../../core/errors';
import { MAX_REPORTED_ISSUES } from '../../core/format/input-issues';
import { createRecordChecker, overlongLineIssue, readRecordLine } from '../../core/phases/1-validate/validate';
import { copyLine, nulIssue, recordRows, type RecordRows, type RecordToWrite } from './copy-rows';
import { createByteLineSplitter, createLineHasher } from './line-bytes';
import type { RecordTokens, Tokeniser } from './tokens';

/** Lines per batch: one look-up of their hashes, then one COPY a table for the records among them that changed. */
export const BATCH = 1_000;
/** A batch is cut short at this many bytes of lines, so a file of long lines is held a few megabytes at a time. */
const BATCH_BYTES = 2_000_000;
/**
 * Records read between two turns of the event loop: the previous batch's statements and COPY data go out in those
 * turns, so the server is never left waiting while Node reads a whole batch.
 */
export const RECORDS_PER_TURN = 25;

export interface Line {
  readonly number: number;
  /** Null for a line over MAX_LINE_CHARS, whose bytes were never kept; decoded only when its hash is not known. */
  readonly bytes: Buffer | null;
  /** Null with the bytes; hex (`createLineHasher`). */
  readonly hash: string | null;
}

/** The file's problems, in line order: the first MAX_REPORTED_ISSUES of them and how many there are. */
export interface Problems {
  readonly shown: InputIssue[];
  count: number;
  /** The first record holding U+0000 (refused only when the file has no other problem, as a whole reading would). */
  nul: { readonly issue: InputIssue; readonly recordId: string } | null;
}

export const isRefused = (problems: Problems) => problems.count > 0 || problems.nul !== null;

const addProblems = (problems: Problems, issues: readonly InputIssue[]) => {
  problems.count += issues.length;
  for (const issue of issues) if (problems.shown.length < MAX_REPORTED_ISSUES) problems.shown.push(issue);
};

/** A records file's chunks as they are read: its bytes, or text (standard input, tests), which is taken as UTF-8. */
export type RecordChunks = AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;

/**
 * The file's non-blank lines, a batch at a time, each with its hash. The file is read only as fast as batches are
 * taken, so the lines held are those of the batch taken and of one chunk of the file.
 */
export async function* lineBatches(chunks: RecordChunks): AsyncGenerator<Line[]> {
  let batch: Line[] = [];
  let batchBytes = 0;
  const ready: Line[][] = [];
  const add = (line: Line, length: number) => {
    batch.push(line);
    batchBytes += length;
    if (batch.length < BATCH && batchBytes < BATCH_BYTES) return;
    ready.push(batch);
    batch = [];
    batchBytes = 0;
  };
  const hashOf = createLineHasher();
  const lines = createByteLineSplitter({
    line: (bytes, number) => add({ number, bytes, hash: hashOf(bytes) }, bytes.length),
    overlong: (number) => add({ number, bytes: null, hash: null }, 0),
  });
  for await (const chunk of chunks) {
    lines.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
    yield* ready.splice(0);
  }
  lines.finish();
  yield* ready.splice(0);
  if (batch.length > 0) yield batch;
}

/** A line's text: ASCII decoded as Latin-1, which gives the same string several times faster than UTF-8 does. */
const decodeLine = (bytes: Buffer) => (isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8'));

/** A record read from a changed line, with its rows already built for COPY. */
export interface PreparedRecord {
  readonly id: string;
  readonly fingerprint: string;
  readonly lineHash: string;
  readonly rows: RecordRows;
}

/** A batch read and tokenised, ready to be written: nothing in it waits for the database. */
export interface PreparedBatch {
  /** `load_seen`'s COPY lines: which id each line holds. */
  readonly seen: readonly string[];
  /** Empty once the file is refused: nothing more is written. */
  readonly fresh: readonly PreparedRecord[];
  /** How many of its lines the database held byte for byte. */
  readonly unchanged: number;
  /** The number of its last line. */
  readonly lastLine: number;
}

/**
 * Reads a batch: lines whose hash the database holds (`known`, hex hash -> id) are known by their id without being
 * read; the others are read and validated, and, while the file has no problem, their records tokenised and their rows
 * built. A record whose stored fingerprint turns out equal is then not written (load-records.ts): its rows are built
 * for nothing, which happens only to lines whose bytes changed but not their record.
 */
export async function prepareBatch(
  sha256: Sha256,
  file: string,
  lines: readonly Line[],
  known: ReadonlyMap<string, string>,
  tokeniser: Tokeniser,
  problems: Problems,
): Promise<PreparedBatch> {
  const seen: string[] = [];
  const ids = new Set<string>();
  const prepared: PreparedRecord[] = [];
  const check = createRecordChecker(sha256);
  let pending: RecordToWrite[] = [];
  // Records are tokenised and made rows a few at a time, at each turn: a parsed record and its tokens are dropped
  // while they are young, instead of a whole batch of them outliving several collections of the young generation.
  const makeRows = () => {
    const tokens = tokeniser.records(pending.map(({ item }) => [item.record.title, item.record.text]));
    for (const [index, write] of pending.entries())
      prepared.push({
        id: write.item.record.id,
        fingerprint: write.item.fingerprint,
        lineHash: write.lineHash,
        rows: recordRows(write, tokens[index] as RecordTokens),
      });
    pending = [];
  };
  let unchanged = 0;
  for (const [index, line] of lines.entries()) {
    if (index % RECORDS_PER_TURN === RECORDS_PER_TURN - 1) {
      if (pending.length > 0 && !isRefused(problems)) makeRows();
      await nextTurn();
    }
    if (line.bytes === null || line.hash === null) {
      addProblems(problems, [overlongLineIssue(file, line.number)]);
      continue;
    }
    const id = known.get(line.hash);
    if (id !== undefined) {
      seen.push(copyLine([id, line.number]));
      unchanged += 1;
      continue;
    }
    const text = decodeLine(line.bytes);
    const read = readRecordLine(file, line.number, text);
    if (!read.ok) {
      addProblems(problems, read.issues);
      continue;
    }
    seen.push(copyLine([read.record.id, line.number]));
    // Once the file is refused nothing more is written; its lines are still read for every problem they hold.
    if (isRefused(problems) || ids.has(read.record.id)) continue;
    ids.add(read.record.id);
    const item = check(read.record);
    // A record's U+0000 comes from an escape in its line (JSON allows no raw control character in a string).
    const nul = text.includes('\\u0000') || text.includes('\0') ? nulIssue(file, item, line.number) : null;
    if (nul !== null) problems.nul = { issue: nul, recordId: item.record.id };
    else pending.push({ item, lineHash: line.hash });
  }
  const lastLine = lines.at(-1)?.number ?? 0;
  if (isRefused(problems)) return { seen, fresh: [], unchanged, lastLine };
  if (pending.length > 0) makeRows();
  return { seen, fresh: prepared, unchanged, lastLine };
}
