import { ok, type CompileError, type Result } from '../core/errors';
import { createJsonlRecordReader, joinRecordParts, type RecordsPart } from '../core/passes/validate';
import { LoadCancelled, streamInto, streamRecords, type RecordsFileReader } from './file-intake';

/**
 * Reading a records file is parsing, validating and hashing every line on one thread: at 100,000 records
 * about 4 s of the 7 s before the packet. Lines are independent, so a large file is cut at a newline near
 * its middle and the two halves are read at once, the second by a helper worker on the other core.
 *
 * Only a file that reads cleanly takes this path to the end. Each half numbers its lines from 1 and sees
 * only its own ids, so a half with a problem, or an id given in both halves, sends the whole file through
 * the one-pass reader, which words every problem exactly as it always has (a refused file costs a second read).
 */

/** Below this a helper's start (its script and parser loaded) is not worth it: the 10,000-record file is 17 MB. */
const READ_IN_PARTS_FROM_BYTES = 8 * 2 ** 20;

/**
 * Reads the records of `part` (whole lines, numbered from 1) somewhere else, reporting its bytes read.
 * Resolves null when the part has a problem, and rejects when it could not be read there at all (the helper
 * did not start, or it was stopped through `signal`).
 */
export type PartReader = (part: Blob, name: string, onBytes: (done: number) => void, signal: AbortSignal) => Promise<RecordsPart | null>;

/** Reads `blob`'s records here, as one part of a file. */
export async function readPart(blob: Blob, name: string, onBytes: (done: number) => void, signal: AbortSignal): Promise<Result<RecordsPart, CompileError>> {
  const reader = createJsonlRecordReader(name);
  await streamInto(reader, blob, onBytes, signal);
  return reader.finishPart();
}

/** What the compiler worker asks a helper: the records of this part of a file. */
export interface PartRequest {
  readonly blob: Blob;
  readonly name: string;
}

export type PartReply =
  | { readonly kind: 'progress'; readonly done: number }
  | { readonly kind: 'part'; readonly part: RecordsPart }
  | { readonly kind: 'refused' }
  // The part could not be read there (the file changed on disk, say): the compiler worker reads it, and reports what it finds.
  | { readonly kind: 'failed'; readonly reason: string };

/** Never cancelled from inside: the compiler worker stops a helper by terminating it. */
const running = new AbortController().signal;

/**
 * A helper's answer to a request: progress as it reads, then the part, a refusal, or why it failed. Whatever goes
 * wrong (reading the file, sending the records back) is said, or the compiler worker would wait for ever.
 */
export async function answerPartRequest({ blob, name }: PartRequest, reply: (message: PartReply) => void): Promise<void> {
  try {
    const part = await readPart(blob, name, (done) => reply({ kind: 'progress', done }), running);
    reply(part.ok ? { kind: 'part', part: part.value } : { kind: 'refused' });
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

/** A records file reader that reads a large file in two halves at once, the second through `readElsewhere`. */
export function readRecordsInParts(readElsewhere: PartReader, fromBytes = READ_IN_PARTS_FROM_BYTES): RecordsFileReader {
  return async (file, onProgress, signal) => {
    const { blob, name } = file;
    const boundary = blob.size >= fromBytes ? await lineBoundaryFrom(blob, Math.floor(blob.size / 2)) : null;
    if (boundary === null) return streamRecords(file, onProgress, signal);

    let firstBytes = 0;
    let secondBytes = 0;
    const report = () => onProgress({ file: name, phase: 'reading', done: firstBytes + secondBytes, total: blob.size });
    const second = blob.slice(boundary);
    // Stops the helper when the load is cancelled or the first half decides the outcome.
    const helper = new AbortController();
    const stopHelper = () => helper.abort();
    signal.addEventListener('abort', stopHelper);
    try {
      const onSecondBytes = (done: number) => {
        secondBytes = done;
        report();
      };
      // Settles with null when the helper could not read the half: it is then read here.
      const fromHelper = readElsewhere(second, name, onSecondBytes, helper.signal).then(
        (part) => ({ part }),
        () => null,
      );
      const first = await readPart(
        blob.slice(0, boundary),
        name,
        (done) => {
          firstBytes = done;
          report();
        },
        signal,
      );
      if (!first.ok) {
        stopHelper();
        return streamRecords(file, onProgress, signal);
      }
      const helped = await fromHelper;
      if (signal.aborted) throw new LoadCancelled();
      const secondPart = helped !== null ? helped.part : await readPart(second, name, onSecondBytes, signal).then((here) => (here.ok ? here.value : null));
      const joined = secondPart === null ? null : joinRecordParts(name, [first.value, secondPart]);
      return joined === null ? streamRecords(file, onProgress, signal) : ok(joined);
    } finally {
      signal.removeEventListener('abort', stopHelper);
      stopHelper();
    }
  };
}
