import { createReadStream } from 'node:fs';
import { utf8Text } from './utf8-text';
import { readFile, stat } from 'node:fs/promises';
import { compileError, err, ok, type CompileError, type InputIssue, type Result } from '../core/errors';
import { inputIssue } from '../core/issues';
import { MAX_DOCUMENT_BYTES } from '../core/format/json-text';
import type { RecordSet } from '../core/phases/1-validate/validate';
import { library } from './library';

/** A file that could not be read, as plain data naming it: never a stack trace. */
export function fileError(display: string, issue: InputIssue): CompileError {
  return compileError({ pass: 'validate', code: 'INVALID_INPUT', issues: [issue] }, 'FILE_PROBLEM', {
    file: display,
    problem: issue.message,
  });
}

/** A file that could not be read, as an issue saying why. */
export function unreadable(display: string, error: unknown): InputIssue {
  return inputIssue({ file: display, path: '(root)' }, 'FILE_UNREADABLE', { reason: describeFileSystemError(error) });
}

/** What a file-system error means for the person who named the file. */
export function describeFileSystemError(error: unknown): string {
  const code = error !== null && typeof error === 'object' && 'code' in error ? String(error.code) : '';
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'is a directory; give a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied: this user may not read it';
    case 'ENOTDIR':
      return 'a folder named in the path is a file';
    case 'ELOOP':
      return 'too many symbolic links in the path';
    case 'ENAMETOOLONG':
      return 'the path is too long';
    case 'EMFILE':
    case 'ENFILE':
      return 'too many files are open; try again';
    case 'EIO':
      return 'the disk reported an input/output error';
    default:
      return `cannot be read (${code === '' ? (error instanceof Error ? error.message : String(error)) : code})`;
  }
}

const MB = 1024 * 1024;
/**
 * Bytes read at a time. Each chunk is decoded to one string, held until its lines are read: below V8's large-object
 * size such strings cost the collector less (docs/ADAPTERS.md, the reload).
 */
const CHUNK_BYTES = 64 * 1024;

/** The name a user gives for standard input, as other command-line tools take it. */
export const STANDARD_INPUT = '-';

/**
 * Standard input as text (decoded across chunk boundaries), for the file named `-`; main.ts lets one option name it.
 */
function standardInput(): AsyncIterable<string> {
  process.stdin.setEncoding('utf8');
  return process.stdin as AsyncIterable<string>;
}

async function readAll(source: AsyncIterable<string>, limit: number): Promise<string | null> {
  let text = '';
  for await (const chunk of source) {
    text += chunk;
    if (text.length > limit) return null;
  }
  return text;
}

/**
 * Reads a JSON document (contract, scenario, receipt) whole, after checking it is a file of a size a document can have.
 */
export async function readDocument(path: string, display: string): Promise<Result<string, CompileError>> {
  if (display === STANDARD_INPUT) {
    const text = await readAll(standardInput(), MAX_DOCUMENT_BYTES);
    if (text === null)
      return err(
        fileError(
          'standard input',
          inputIssue({ file: 'standard input', path: '(root)' }, 'DOCUMENT_TOO_LARGE', {
            megabytes: MAX_DOCUMENT_BYTES / MB,
            limit: MAX_DOCUMENT_BYTES / MB,
          }),
        ),
      );
    return ok(text);
  }
  try {
    const info = await stat(path);
    if (info.isDirectory()) return err(fileError(display, unreadable(display, { code: 'EISDIR' })));
    if (info.size > MAX_DOCUMENT_BYTES) {
      return err(
        fileError(
          display,
          inputIssue({ file: display, path: '(root)' }, 'DOCUMENT_TOO_LARGE', {
            megabytes: Math.round(info.size / MB),
            limit: MAX_DOCUMENT_BYTES / MB,
          }),
        ),
      );
    }
    return ok(await readFile(path, 'utf8'));
  } catch (error) {
    return err(fileError(display, unreadable(display, error)));
  }
}

/**
 * A records file that could not be opened or read while the library read it: thrown out of its chunks, caught by
 * `readingFiles`.
 */
class UnreadFile extends Error {
  constructor(readonly error: CompileError) {
    super(error.message);
  }
}

/**
 * A records file as the library reads it: chunks of text (`-` is standard input), opened when first read, with
 * progress. A file that cannot be opened or read stops the reading where it happens: wrap the call in `readingFiles`.
 */
export function recordsFileChunks(
  path: string,
  display: string,
  progress?: (text: string) => void,
): { readonly name: string; readonly chunks: AsyncIterable<string> } {
  if (display === STANDARD_INPUT) return { name: 'standard input', chunks: standardInput() };
  async function* chunks(): AsyncGenerator<string> {
    let failed: CompileError | null = null;
    try {
      const info = await stat(path);
      if (info.isDirectory()) failed = fileError(display, unreadable(display, { code: 'EISDIR' }));
      else {
        const stream = createReadStream(path, { highWaterMark: CHUNK_BYTES });
        for await (const chunk of utf8Text(stream)) {
          yield chunk;
          progress?.(`reading ${display}: ${Math.floor((stream.bytesRead / Math.max(info.size, 1)) * 100)}%`);
        }
      }
    } catch (error) {
      failed = fileError(display, unreadable(display, error));
    }
    if (failed !== null) throw new UnreadFile(failed);
  }
  return { name: display, chunks: chunks() };
}

/**
 * The library's answer, or the error of a records file it could not read (first, as that is where the reading stopped).
 */
export async function readingFiles<T>(
  answer: () => Promise<Result<T, CompileError>>,
): Promise<Result<T, CompileError>> {
  try {
    return await answer();
  } catch (error) {
    if (error instanceof UnreadFile) return err(error.error);
    throw error;
  }
}

/** Streams a records file through the library's line reader, as the app does: never one string, whatever its size. */
export async function streamRecordsFile(
  path: string,
  display: string,
  progress?: (text: string) => void,
): Promise<Result<RecordSet, CompileError>> {
  const { name, chunks } = recordsFileChunks(path, display, progress);
  return readingFiles(async () => library.readRecords(chunks, name));
}

/**
 * A records file as it is read, for a reader that streams it into something else (a database load): the file's bytes,
 * or standard input's text.
 */
export interface RecordsFileChunks {
  readonly chunks: AsyncIterable<Uint8Array | string>;
  /** How much of the file has been read, from 0 to 1; null for standard input, whose size is unknown. */
  fraction(): number | null;
  /** Why reading failed midway, as `streamRecordsFile` reports it; null while it has not. */
  failure(): CompileError | null;
}

/**
 * Opens a records file to be streamed (`-` is standard input): a file that cannot be opened is refused here, before
 * anything reads it.
 */
export async function openRecordsFile(path: string, display: string): Promise<Result<RecordsFileChunks, CompileError>> {
  if (display === STANDARD_INPUT) return ok({ chunks: standardInput(), fraction: () => null, failure: () => null });
  let size: number;
  try {
    const info = await stat(path);
    if (info.isDirectory()) return err(fileError(display, unreadable(display, { code: 'EISDIR' })));
    size = info.size;
  } catch (error) {
    return err(fileError(display, unreadable(display, error)));
  }
  const stream = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  let failed: CompileError | null = null;
  async function* chunks(): AsyncGenerator<Uint8Array> {
    try {
      // The bytes as read, a new buffer each time: the load hashes each line's bytes and decodes only changed lines.
      for await (const chunk of stream) yield chunk as Buffer;
    } catch (error) {
      failed = fileError(display, unreadable(display, error));
      throw error;
    }
  }
  return ok({ chunks: chunks(), fraction: () => stream.bytesRead / Math.max(size, 1), failure: () => failed });
}
