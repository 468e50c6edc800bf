import { z } from 'zod';
import { MAX_LINE_CHARS, stripBom } from './json-text';
import { recordSchema } from './record';
import { parseRecordInput } from './record-parser.generated';

/*
 * An input file as it arrives: which kind it is (records, contract, scenario, receipt), recognised from its first
 * characters; and a records file as JSONL, cut into lines as it streams, each line read by the record schema with its
 * compiled parser.
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

export type FileKind = 'records' | 'contract' | 'scenario' | 'receipt';

/** What a file was recognised as, and the field names that gave it away (for messages). */
export interface RecognisedKind {
  readonly kind: FileKind;
  readonly by: readonly string[];
}

const RECEIPT_FIELDS = [
  'receiptId',
  'schemaVersion',
  'engineVersion',
  'contractFingerprint',
  'recordSetDigest',
  'packetFingerprint',
  'decisionBlockedBy',
  'tokensUsed',
];
const SCENARIO_FIELDS = ['contract', 'controls', 'lateChanges', 'records'];
const CONTRACT_FIELDS = [
  'task',
  'principals',
  'asOf',
  'purpose',
  'scopes',
  'allowedSourceClasses',
  'allowedAuthorityClasses',
  'acceptedReviewStates',
  'forbiddenLifecycle',
  'forbiddenSensitivity',
  'denyLabels',
  'requiredRecords',
  'requiredPropositions',
  'typedEvidenceOnly',
  'tokenBudget',
  'naiveTopK',
  'identities',
];
const RECORD_FIELDS = [
  'title',
  'text',
  'tokens',
  'scope',
  'knownAt',
  'validFrom',
  'validTo',
  'lifecycle',
  'supersedes',
  'sourceClass',
  'authorityClass',
  'reviewState',
  'provenance',
  'sensitivity',
  'access',
  'evidence',
  'relevance',
];

/** Field names to kind, most specific first: a scenario holds a contract and records, a receipt a trace of ids. */
function classify(keys: ReadonlySet<string>): RecognisedKind | null {
  const found = (fields: readonly string[]) => fields.filter((field) => keys.has(field));
  const receipt = found(RECEIPT_FIELDS);
  if (keys.has('receiptId') || receipt.length >= 2) return { kind: 'receipt', by: receipt };
  const scenario = found(SCENARIO_FIELDS);
  if (scenario.length > 0) return { kind: 'scenario', by: scenario };
  const contract = found(CONTRACT_FIELDS);
  if (contract.length > 0) return { kind: 'contract', by: contract };
  const record = found(RECORD_FIELDS);
  // Only records have an id and none of the fields above: even a bare {"id": 1} is a (bad) records line.
  if (keys.has('id') || record.length >= 2)
    return { kind: 'records', by: keys.has('id') ? ['id', ...record.slice(0, 3)] : record.slice(0, 4) };
  return null;
}

function keysOfObject(text: string): Set<string> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? new Set(Object.keys(value)) : null;
  } catch {
    return null;
  }
}

/** Enough of a broken or cut-off file to find its field names. */
const SCAN_CHARS = 64 * 1024;

/** Field names written in the text, for a file that is not valid JSON (cut off, or a line too long to read whole). */
function keysInText(text: string): Set<string> {
  const keys = new Set<string>();
  for (const match of text.slice(0, SCAN_CHARS).matchAll(/"([A-Za-z]{1,40})"\s*:/g))
    if (match[1] !== undefined) keys.add(match[1]);
  return keys;
}

/**
 * Tells what a file is from its content, not its name (users rename files). `text` may be only the head
 * of a large file (`complete` false). A broken file is still recognised from its field names, so the
 * error can say what it was read as and what is wrong, instead of that it is nothing.
 */
export function recogniseFileKind(input: string, complete = true): RecognisedKind | null {
  const text = stripBom(input).trimStart();
  if (!text.startsWith('{')) return null;
  const newline = text.indexOf('\n');
  const firstLine = newline === -1 ? text : text.slice(0, newline);
  const firstKeys = keysOfObject(firstLine);
  const first = firstKeys && classify(firstKeys);
  if (first?.kind === 'records' || (first && newline === -1)) return first;
  const wholeKeys = complete && newline !== -1 ? keysOfObject(text) : null;
  if (wholeKeys) return classify(wholeKeys);
  if (firstKeys) return null;
  // Not JSON as far as we can read: one line of records, or a document, cut off or broken.
  const lineGuess = classify(keysInText(firstLine));
  if (lineGuess?.kind === 'records') return lineGuess;
  return classify(keysInText(text));
}

export function detectFileKind(text: string): FileKind | null {
  return recogniseFileKind(text)?.kind ?? null;
}

const ARTICLES: Record<FileKind, string> = {
  records: 'a records JSONL file',
  contract: 'a contract',
  scenario: 'a scenario',
  receipt: 'a receipt',
};

/** "a contract (recognised by principals, asOf)": for messages about a file that was recognised but is invalid. */
export function describeRecognised(recognised: RecognisedKind): string {
  return `${ARTICLES[recognised.kind]}${recognised.by.length > 0 ? ` (recognised by ${recognised.by.slice(0, 4).join(', ')})` : ''}`;
}
