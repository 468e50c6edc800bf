import { z } from 'zod';
import { MAX_LINE_CHARS, stripBom } from './json-text';
import { recordSchema } from './record';
import { parseRecordInput } from './record-parser.generated';

/*
 * A records file as JSONL: cut into lines as it streams, each line read by the record schema with its compiled parser.
 */

/** Where a JSONL file's lines go, numbered from 1 as an editor numbers them. */
export interface JsonlLineSink {
  /** A line that is not blank, without its line break (a `\r` before the newline is dropped too). */
  line(text: string, lineNumber: number): void;
  /** A line over MAX_LINE_CHARS: its text is dropped as it streams past, so it is never held whole. */
  overlong(lineNumber: number): void;
}

export interface JsonlLineSplitter {
  /** Feeds any slice of the file; lines may be split across chunks. */
  push(chunk: string): void;
  /** Hands on the last line when the file did not end in a newline. */
  finish(): void;
  /** Lines seen so far, blank ones included. */
  readonly lineCount: number;
}

/**
 * Cuts a JSONL file into lines as it streams: a byte order mark opening the file is dropped, blank lines are
 * counted but not handed on, and only the unfinished tail of a chunk is carried to the next.
 */
export function createJsonlLineSplitter(sink: JsonlLineSink): JsonlLineSplitter {
  let pending = '';
  let lineNumber = 0;
  /** The current line is over MAX_LINE_CHARS: its text is dropped up to its newline, and it is reported once. */
  let overlong = false;

  const take = (raw: string) => {
    lineNumber += 1;
    if (overlong || raw.length > MAX_LINE_CHARS) {
      overlong = false;
      sink.overlong(lineNumber);
      return;
    }
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() !== '') sink.line(line, lineNumber);
  };

  return {
    push(input) {
      // A byte order mark may open the file (editors on Windows write one); it is not part of the first line.
      const chunk = lineNumber === 0 && pending === '' ? stripBom(input) : input;
      let newline = chunk.indexOf('\n');
      if (newline === -1) {
        if (!overlong && pending.length + chunk.length > MAX_LINE_CHARS) {
          overlong = true;
          pending = '';
        }
        if (!overlong) pending += chunk;
        return;
      }
      const carried = pending;
      pending = '';
      if (carried.length + newline > MAX_LINE_CHARS) overlong = true;
      if (overlong) take('');
      else take(carried === '' ? chunk.slice(0, newline) : carried + chunk.slice(0, newline));
      let start = newline + 1;
      newline = chunk.indexOf('\n', start);
      while (newline !== -1) {
        take(chunk.slice(start, newline));
        start = newline + 1;
        newline = chunk.indexOf('\n', start);
      }
      pending = chunk.slice(start);
    },
    finish() {
      if (overlong || pending !== '') {
        take(pending);
        pending = '';
      }
    },
    get lineCount() {
      return lineNumber;
    },
  };
}

/**
 * `recordSchema` with zod's ahead-of-time compiled parser installed (`z.withParser`). The generated code
 * (`record-parser.generated.ts`, written from the schema by `scripts/generate-record-parser.ts`) returns a
 * valid record without zod's interpreter, which reading a large JSONL file spends most of its validation
 * time in; whatever it refuses is parsed again by `recordSchema` itself, so every issue, path and message
 * is zod's own. The code is a plain module because the app never compiles strings (jitless zod).
 */
export const compiledRecordSchema = z.withParser(recordSchema, parseRecordInput);
