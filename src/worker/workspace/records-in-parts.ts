import type { Sha256 } from '../../core/fingerprints';
import { err, ok, type CompileError, type Result } from '../../core/errors';
import {
  createJsonlRecordReader,
  joinRecordParts,
  recordSetOf,
  unreadableRecordsError,
  type RecordsPart,
} from '../../core/phases/1-validate/validate';
import { LoadCancelled, streamInto, streamRecords, type RecordsFileReader } from './file-intake';

/**
 * Reading a records file is parsing, validating and hashing every line on one thread: most of the time before
 * the packet of a large file (docs/DECISIONS.md). Lines are independent, so a large file is cut at newlines into
 * pieces, and two readers take them from either end until they meet: this worker from the front, a helper
 * worker on the other core from the back. Whichever is faster reads more (the helper starts later, and its
 * records must be copied back), so neither waits long for the other.
 *
 * Only a file that reads cleanly takes this path to the end. Each piece numbers its lines from 1 and sees
 * only its own ids, so a piece with a problem, or an id given in two pieces, sends the whole file through
 * the one-pass reader, which words every problem exactly as it always has (a refused file costs a second read).
 */

/** Below this a helper's start (its script and parser loaded) costs more than the half of the read it takes over. */
const READ_IN_PARTS_FROM_BYTES = 8 * 2 ** 20;
/**
 * Pieces a file is cut into. When the two readers meet, one may still be reading its last piece while the
 * other has none left, so pieces are small; each costs a request to the helper and a reader, so not tiny.
 */
const PIECES = 32;

/** Reads parts of one file somewhere else, one at a time, until it is ended. */
export interface PartHelper {
  /**
   * The records of `part` (whole lines, numbered from 1), reporting its bytes read. Resolves null when the
   * part has a problem, and rejects when it could not be read there at all (the helper did not start, failed,
   * or was ended).
   */
  read(part: Blob, onBytes: (done: number) => void): Promise<RecordsPart | null>;
  end(): void;
}

export type StartPartHelper = (name: string) => PartHelper;

/** Reads `blob`'s records here, as one part of a file. */
export async function readPart(
  sha256: Sha256,
  blob: Blob,
  name: string,
  onBytes: (done: number) => void,
  signal: AbortSignal,
): Promise<Result<RecordsPart, CompileError>> {
  const reader = createJsonlRecordReader(sha256, name);
  await streamInto(reader, blob, onBytes, signal);
  const part = reader.finishPart();
  // A line that is not a record, or an id given twice, is placed by a reader of the whole file: this part is refused.
  const unplaced = part.ok ? unreadableRecordsError(recordSetOf([], new Map(), part.value.besides)) : null;
  return unplaced === null ? part : err(unplaced);
}

/**
 * A part sent back as JSON text (`PartReply`), as it was: every value of a checked record is a string, a
 * finite number, a boolean, null, or an array or plain object of them (a record's -0 comes back as 0, which
 * every output writes it as anyway).
 */
export function partFromJson(json: string): RecordsPart {
  return JSON.parse(json) as RecordsPart;
}

/** What the compiler worker asks a helper: the records of this part of a file. */
export interface PartRequest {
  readonly blob: Blob;
  readonly name: string;
}

export type PartReply =
  | { readonly kind: 'progress'; readonly done: number }
  // The part as JSON text: the compiler worker parses it in well under half the time it takes to receive the
  // same records as a structured clone (docs/DECISIONS.md), and the helper sends about half of a large file.
  | { readonly kind: 'part'; readonly partJson: string }
  | { readonly kind: 'refused' }
  // The part could not be read there (the file changed on disk, say): the compiler worker reads it, and reports what it
  // finds.
  | { readonly kind: 'failed'; readonly reason: string };

/** Never cancelled from inside: the compiler worker stops a helper by terminating it. */
const running = new AbortController().signal;

/**
 * A helper's answer to a request: progress as it reads, then the part, a refusal, or why it failed. Whatever goes
 * wrong (reading the file, sending the records back) is said, or the compiler worker would wait for ever.
 */
export async function answerPartRequest(
  sha256: Sha256,
  { blob, name }: PartRequest,
  reply: (message: PartReply) => void,
): Promise<void> {
  try {
    const part = await readPart(sha256, blob, name, (done) => reply({ kind: 'progress', done }), running);
    reply(part.ok ? { kind: 'part', partJson: JSON.stringify(part.value) } : { kind: 'refused' });
  } catch (error) {
    reply({ kind: 'failed', reason: error instanceof Error ? error.message : String(error) });
  }
}

/** Bytes looked at first for the newline that ends the first part; doubled each time none is found. */
const FIRST_WINDOW_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

/**
 * The offset just after the first newline at or after `from`, or null if there is none before the last byte.
 * Bytes, not characters: in UTF-8 the byte 0x0A is always a newline, never part of another character.
 */
export async function lineBoundaryFrom(blob: Blob, from: number): Promise<number | null> {
  let window = FIRST_WINDOW_BYTES;
  for (let start = from; start < blob.size; start += window, window *= 2) {
    const bytes = new Uint8Array(await blob.slice(start, start + window).arrayBuffer());
    const at = bytes.indexOf(NEWLINE);
    if (at !== -1) return start + at + 1 < blob.size ? start + at + 1 : null;
  }
  return null;
}

/** The offsets that cut `blob` into about `count` pieces of whole lines: 0, then each cut, then its size. */
export async function pieceCuts(blob: Blob, count: number): Promise<number[]> {
  const cuts = [0];
  for (let piece = 1; piece < count; piece += 1) {
    const from = Math.max(Math.floor((blob.size * piece) / count), cuts.at(-1) as number);
    const cut = await lineBoundaryFrom(blob, from);
    if (cut === null) break;
    cuts.push(cut);
  }
  cuts.push(blob.size);
  return cuts;
}

/** A records file reader that reads a large file's pieces from both ends at once, the back ones through a helper. */
export function readRecordsInParts(
  startHelper: StartPartHelper,
  fromBytes = READ_IN_PARTS_FROM_BYTES,
): RecordsFileReader {
  return async (sha256, file, onProgress, signal) => {
    const { blob, name } = file;
    const cuts = blob.size >= fromBytes ? await pieceCuts(blob, PIECES) : [];
    if (cuts.length < 3) return streamRecords(sha256, file, onProgress, signal);

    const pieces = cuts.slice(1).map((end, index) => blob.slice(cuts[index], end));
    const parts: (RecordsPart | undefined)[] = pieces.map(() => undefined);
    // The next piece each end takes: this worker counts up from the front, the helper down from the back.
    let front = 0;
    let back = pieces.length - 1;
    // Set when a piece has a problem: the file is then read in one pass, which words it.
    let refused = false;
    let piecesDone = 0;
    let frontBytes = 0;
    let helperBytes = 0;
    const report = () =>
      onProgress({ file: name, phase: 'reading', done: piecesDone + frontBytes + helperBytes, total: blob.size });

    const helper = startHelper(name);
    const stopHelper = () => helper.end();
    signal.addEventListener('abort', stopHelper);
    const helping = (async () => {
      while (front <= back && !refused) {
        const index = back;
        back -= 1;
        const piece = pieces[index] as Blob;
        try {
          const part = await helper.read(piece, (done) => {
            helperBytes = done;
            report();
          });
          piecesDone += piece.size;
          if (part === null) refused = true;
          else parts[index] = part;
        } catch {
          // Not read there: the piece goes back to this worker, and the helper takes no more.
          back += 1;
          return;
        } finally {
          helperBytes = 0;
        }
      }
    })();
    try {
      for (;;) {
        while (front <= back && !refused) {
          const index = front;
          front += 1;
          const piece = pieces[index] as Blob;
          const part = await readPart(
            sha256,
            piece,
            name,
            (done) => {
              frontBytes = done;
              report();
            },
            signal,
          );
          frontBytes = 0;
          piecesDone += piece.size;
          if (part.ok) parts[index] = part.value;
          else refused = true;
        }
        if (refused) stopHelper();
        // The helper's last piece, or a piece it gave back, which this worker then reads.
        await helping;
        if (signal.aborted) throw new LoadCancelled();
        if (refused || front > back) break;
      }
    } finally {
      signal.removeEventListener('abort', stopHelper);
      stopHelper();
    }
    const joined = refused ? null : joinRecordParts(name, parts as RecordsPart[]);
    return joined === null ? streamRecords(sha256, file, onProgress, signal) : ok(joined);
  };
}
