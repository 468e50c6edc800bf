import { hash } from 'node:crypto';
import { MAX_LINE_CHARS } from '../../core/format/json-text';
import { ENGINE_VERSION } from '../../core/version';

/*
 * A records file cut into lines as bytes, for a load that looks each line up by its hash before reading it: a line the
 * database holds byte for byte is never decoded, so reloading a large file makes no string of its unchanged lines.
 * The lines are the ones `createJsonlLineSplitter` (src/core/format/input-files.ts) cuts from the decoded text, with
 * the same numbers (line-bytes.test.ts compares them).
 */

/** Where the lines go, numbered from 1 as an editor numbers them. */
export interface ByteLineSink {
  /** A line that is not blank, without its line break (nor a `\r` before it): a view of the chunk it came in. */
  line(bytes: Buffer, lineNumber: number): void;
  /** A line over MAX_LINE_CHARS characters, dropped as it streams past. */
  overlong(lineNumber: number): void;
}

export interface ByteLineSplitter {
  /** Feeds any slice of the file; a line or a character may be split across chunks. Its bytes must stay as given. */
  push(chunk: Uint8Array): void;
  /** Hands on the last line when the file did not end in a newline. */
  finish(): void;
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/**
 * A line of more bytes than this is over MAX_LINE_CHARS whatever it holds: UTF-8 takes at most three bytes for each
 * UTF-16 unit a string counts. Up to it, a long line is decoded to be counted as the text splitter counts it.
 */
const SURELY_OVERLONG_BYTES = 3 * MAX_LINE_CHARS;

/** Whether `trim` leaves nothing of the line: ASCII white space alone, or, past a byte beyond ASCII, its text. */
function isBlank(line: Buffer): boolean {
  for (const byte of line) {
    if (byte === 0x20 || (byte >= 0x09 && byte <= 0x0d)) continue;
    return byte < 0x80 ? false : line.toString('utf8').trim() === '';
  }
  return true;
}

const isOverlong = (raw: Buffer) => raw.length > MAX_LINE_CHARS && raw.toString('utf8').length > MAX_LINE_CHARS;

export function createByteLineSplitter(sink: ByteLineSink): ByteLineSplitter {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNumber = 0;
  /** The current line is surely overlong: its bytes are dropped up to its newline, and it is reported once. */
  let overlong = false;
  /** The file's first bytes, held until there are enough to tell whether they are a byte order mark. */
  let opening: Buffer | null = Buffer.alloc(0);

  const take = (raw: Buffer) => {
    lineNumber += 1;
    if (overlong || isOverlong(raw)) {
      overlong = false;
      sink.overlong(lineNumber);
      return;
    }
    const line = raw.at(-1) === CARRIAGE_RETURN ? raw.subarray(0, -1) : raw;
    if (!isBlank(line)) sink.line(line, lineNumber);
  };

  const hold = (bytes: Buffer) => {
    if (overlong) return;
    pendingBytes += bytes.length;
    pending.push(bytes);
    if (pendingBytes <= SURELY_OVERLONG_BYTES) return;
    overlong = true;
    pending = [];
    pendingBytes = 0;
  };

  const cut = (bytes: Buffer) => {
    let newline = bytes.indexOf(NEWLINE);
    if (newline === -1) {
      hold(bytes);
      return;
    }
    hold(bytes.subarray(0, newline));
    take(pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending));
    pending = [];
    pendingBytes = 0;
    let start = newline + 1;
    newline = bytes.indexOf(NEWLINE, start);
    while (newline !== -1) {
      take(bytes.subarray(start, newline));
      start = newline + 1;
      newline = bytes.indexOf(NEWLINE, start);
    }
    if (start < bytes.length) hold(bytes.subarray(start));
  };

  return {
    push(chunk) {
      let bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      if (opening !== null) {
        // A byte order mark may open the file (editors on Windows write one); it is not part of the first line.
        opening = Buffer.concat([opening, bytes]);
        if (opening.length < BOM.length && !opening.includes(NEWLINE)) return;
        bytes = opening.subarray(0, BOM.length).equals(BOM) ? opening.subarray(BOM.length) : opening;
        opening = null;
      }
      cut(bytes);
    },
    finish() {
      if (opening !== null) {
        cut(opening.equals(BOM) ? Buffer.alloc(0) : opening);
        opening = null;
      }
      if (overlong || pendingBytes > 0) take(Buffer.concat(pending));
      pending = [];
      pendingBytes = 0;
    },
  };
}

const LINE_HASH_PREFIX = Buffer.from(`context-compiler ${ENGINE_VERSION}\n`);

/**
 * The hash a line is known by in `documents.line_hash`, hex: SHA-256 of the engine's version and the line's bytes.
 * The version is in it because another version may read the same bytes as another record (a new field, a fingerprint
 * computed otherwise): after an upgrade every line is read again once, and only records whose fingerprint changed are
 * written. Each line is copied after the version into one buffer kept for the next, and hashed in one call: a hash
 * object per line made a million of them for the collector to finalise.
 */
export function createLineHasher(): (line: Uint8Array) => string {
  let scratch = Buffer.alloc(0);
  return (line) => {
    const length = LINE_HASH_PREFIX.length + line.length;
    if (scratch.length < length) {
      scratch = Buffer.allocUnsafe(Math.max(2 * length, 64 * 1024));
      LINE_HASH_PREFIX.copy(scratch);
    }
    scratch.set(line, LINE_HASH_PREFIX.length);
    return hash('sha256', scratch.subarray(0, length), 'hex');
  };
}
