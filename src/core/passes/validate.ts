import type { z } from 'zod';
import { findLoneSurrogate } from '../canonical';
import { contractSchema, type Contract } from '../format/contract';
import type { SourceRecord } from '../format/record';
import { compiledRecordSchema } from '../format/record-parser';
import { receiptSchema } from '../format/receipt';
import { scenarioSchema, type ScenarioFile } from '../format/scenario';
import type { Receipt } from '../result';
import { SCHEMA_VERSION } from './attest';
import { err, formatPath, ok, type CompileError, type InputIssue, type Result, type SourceLocation } from '../errors';
import { recordFingerprint } from '../fingerprints';
import { parseInstant } from '../format/time';
import { contentHashOf } from '../hash';

/** Enough issues to fix a file in one go, without flooding a screen when every line is wrong. */
export const MAX_REPORTED_ISSUES = 50;

/**
 * A record and what validation established about it, worked out once when the record is read (or
 * patched by a control) and never again: compiling reads these instead of hashing 100,000 texts.
 */
export interface CheckedRecord {
  readonly record: SourceRecord;
  /** See `recordFingerprint`: the leaf of the record-set digest, and how an index recognises a record it holds. */
  readonly fingerprint: string;
  /** Provenance is present and its content hash matches the text. */
  readonly provenanceVerified: boolean;
  /** The record's instants in epoch milliseconds (a bare `validTo` date means the end of that day). */
  readonly knownAt: number;
  readonly validFrom: number;
  readonly validTo: number | null;
}

export interface RecordSet {
  /** The records in the order they were supplied. */
  readonly records: readonly SourceRecord[];
  /** What validation established about each record, aligned with `records`. */
  readonly checked: readonly CheckedRecord[];
  readonly byId: ReadonlyMap<string, CheckedRecord>;
  readonly locations: ReadonlyMap<string, SourceLocation>;
}

/** Hashes the text once: for the provenance check and, through its digest, for the fingerprint. */
export function checkRecord(record: SourceRecord): CheckedRecord {
  const textHash = contentHashOf(record.text);
  return {
    record,
    fingerprint: recordFingerprint(record, textHash),
    provenanceVerified: record.provenance !== null && record.provenance.contentHash === textHash,
    // The schema refused every instant that does not parse, so these are never NaN.
    knownAt: parseInstant(record.knownAt) ?? Number.NaN,
    validFrom: parseInstant(record.validFrom) ?? Number.NaN,
    validTo: record.validTo === null ? null : (parseInstant(record.validTo, 'end') ?? Number.NaN),
  };
}

export type FileKind = 'records' | 'contract' | 'scenario' | 'receipt';

function zodIssues(file: string, error: z.ZodError, line?: number, prefix: readonly PropertyKey[] = []): InputIssue[] {
  return error.issues.map((issue) => {
    let message = issue.message;
    if (issue.code === 'unrecognized_keys') message = `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}: not part of the format`;
    return { file, line, path: formatPath([...prefix, ...issue.path]), message };
  });
}

function jsonSyntaxIssue(file: string, text: string, error: unknown, lineOffset?: number): InputIssue {
  const message = error instanceof Error ? error.message : String(error);
  const position = /position (\d+)/.exec(message);
  const line = lineOffset ?? (position ? text.slice(0, Number(position[1])).split('\n').length : undefined);
  return { file, line, path: '(root)', message: `not valid JSON: ${message.replace(/^JSON\.parse: /, '')}` };
}

const LONE_SURROGATE_MESSAGE = 'a string with a lone UTF-16 surrogate (an unpaired \\uD800-\\uDFFF escape): not valid Unicode, so it has no canonical form';

/** The issue for a lone surrogate in `value` (parsed from `text`), or null: canonical JSON cannot carry one. */
function loneSurrogateIssue(file: string, value: unknown, text?: string, line?: number): InputIssue | null {
  const path = findLoneSurrogate(value, text);
  return path === null ? null : { file, line, path: formatPath(path), message: LONE_SURROGATE_MESSAGE };
}

function invalidInput(file: string, issues: InputIssue[], totalIssues = issues.length): CompileError {
  const shown = issues.slice(0, MAX_REPORTED_ISSUES);
  const more = totalIssues > shown.length ? ` (first ${shown.length} shown)` : '';
  return {
    pass: 'validate',
    code: issues.some((issue) => issue.message.startsWith('duplicate id')) && issues.length === 1 ? 'DUPLICATE_ID' : 'INVALID_INPUT',
    message: `${file}: ${totalIssues} problem${totalIssues === 1 ? '' : 's'}${more}`,
    issues: shown,
  };
}

export interface JsonlRecordReader {
  /** Feeds any slice of the file; lines may be split across chunks. */
  push(chunk: string): void;
  /** Records read so far (for progress). */
  readonly count: number;
  finish(): Result<RecordSet, CompileError>;
}

/** Reads records one line at a time so a large export never has to be one string. */
export function createJsonlRecordReader(file: string): JsonlRecordReader {
  const checked: CheckedRecord[] = [];
  const locations = new Map<string, SourceLocation>();
  const issues: InputIssue[] = [];
  let issueCount = 0;
  let pending = '';
  let lineNumber = 0;

  const report = (issue: InputIssue) => {
    issueCount += 1;
    if (issues.length < MAX_REPORTED_ISSUES) issues.push(issue);
  };

  const readLine = (raw: string) => {
    lineNumber += 1;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      report(jsonSyntaxIssue(file, line, error, lineNumber));
      return;
    }
    const surrogate = loneSurrogateIssue(file, value, line, lineNumber);
    if (surrogate) {
      report(surrogate);
      return;
    }
    const parsed = compiledRecordSchema.safeParse(value);
    if (!parsed.success) {
      for (const issue of zodIssues(file, parsed.error, lineNumber)) report(issue);
      return;
    }
    const first = locations.get(parsed.data.id);
    if (first) {
      report({ file, line: lineNumber, path: 'id', message: `duplicate id "${parsed.data.id}": first defined at line ${first.line}` });
      return;
    }
    locations.set(parsed.data.id, { file, line: lineNumber });
    // Checked as each record is read, not all in `finish`: over 100,000 records in a Chromium worker that
    // measured 0.6-1.5 s less (the same in Node). Once the file has a problem it will be refused: no more hashing.
    if (issueCount === 0) checked.push(checkRecord(parsed.data));
  };

  return {
    push(chunk) {
      // Lines are cut from the chunk itself: the unfinished tail is the only text carried to the next push.
      let newline = chunk.indexOf('\n');
      if (newline === -1) {
        pending += chunk;
        return;
      }
      const head = chunk.slice(0, newline);
      const carried = pending;
      pending = '';
      readLine(carried === '' ? head : carried + head);
      let start = newline + 1;
      newline = chunk.indexOf('\n', start);
      while (newline !== -1) {
        readLine(chunk.slice(start, newline));
        start = newline + 1;
        newline = chunk.indexOf('\n', start);
      }
      pending = chunk.slice(start);
    },
    get count() {
      return locations.size;
    },
    finish() {
      if (pending !== '') {
        readLine(pending);
        pending = '';
      }
      if (issueCount > 0) return err(invalidInput(file, issues, issueCount));
      return ok(recordSetOf(checked, locations));
    },
  };
}

export function parseRecordsJsonl(file: string, text: string): Result<RecordSet, CompileError> {
  const reader = createJsonlRecordReader(file);
  reader.push(text);
  return reader.finish();
}

/** A record set of records already checked, in the order given (ids must be unique). */
export function recordSetOf(checked: readonly CheckedRecord[], locations: ReadonlyMap<string, SourceLocation> = new Map()): RecordSet {
  const byId = new Map<string, CheckedRecord>();
  for (const item of checked) byId.set(item.record.id, item);
  return { records: checked.map((item) => item.record), checked, byId, locations };
}

/** Checks each record (see `checkRecord`) and builds the set: for records that did not come through a reader. */
export function createRecordSet(records: readonly SourceRecord[], locations: ReadonlyMap<string, SourceLocation> = new Map()): RecordSet {
  return recordSetOf(records.map(checkRecord), locations);
}

function parseJson(file: string, text: string): Result<unknown, CompileError> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return err(invalidInput(file, [jsonSyntaxIssue(file, text, error)]));
  }
  const surrogate = loneSurrogateIssue(file, value, text);
  return surrogate ? err(invalidInput(file, [surrogate])) : ok(value);
}

export function parseContractJson(file: string, text: string): Result<Contract, CompileError> {
  const json = parseJson(file, text);
  if (!json.ok) return json;
  return validateContract(file, json.value);
}

export function validateContract(file: string, value: unknown): Result<Contract, CompileError> {
  const surrogate = loneSurrogateIssue(file, value);
  if (surrogate) return err(invalidInput(file, [surrogate]));
  const parsed = contractSchema.safeParse(value);
  if (!parsed.success) return err(invalidInput(file, zodIssues(file, parsed.error)));
  return ok(parsed.data);
}

/**
 * Parses a saved receipt. A receipt of another format version is refused with that reason first (its
 * fields differ, so listing them as unknown would hide the point): it has to be compiled again.
 */
export function parseReceiptJson(file: string, text: string): Result<Receipt, CompileError> {
  const json = parseJson(file, text);
  if (!json.ok) return json;
  const version = json.value !== null && typeof json.value === 'object' && 'schemaVersion' in json.value ? json.value.schemaVersion : undefined;
  if (typeof version === 'string' && version !== SCHEMA_VERSION) {
    return err(invalidInput(file, [{ file, path: 'schemaVersion', message: `a ${version} receipt; this engine reads ${SCHEMA_VERSION} receipts: compile the inputs again for a current one` }]));
  }
  const parsed = receiptSchema.safeParse(json.value);
  if (!parsed.success) return err(invalidInput(file, zodIssues(file, parsed.error)));
  return ok(parsed.data);
}

export interface LoadedScenario {
  readonly scenario: ScenarioFile;
  readonly recordSet: RecordSet;
}

/**
 * Parses a scenario. Its records are inline, or a sibling JSONL file that `readSibling` supplies
 * (the CLI reads the disk; the app looks among the files the user dropped together).
 */
export function parseScenarioJson(
  file: string,
  text: string,
  readSibling: (name: string) => string | null,
): Result<LoadedScenario, CompileError> {
  const json = parseJson(file, text);
  if (!json.ok) return json;
  const parsed = scenarioSchema.safeParse(json.value);
  if (!parsed.success) return err(invalidInput(file, zodIssues(file, parsed.error)));
  const scenario = parsed.data;
  if (typeof scenario.records === 'string') {
    const siblingText = readSibling(scenario.records);
    if (siblingText === null) {
      return err(invalidInput(file, [{ file, path: 'records', message: `names "${scenario.records}", which was not supplied alongside the scenario` }]));
    }
    const recordSet = parseRecordsJsonl(scenario.records, siblingText);
    return recordSet.ok ? ok({ scenario, recordSet: recordSet.value }) : recordSet;
  }
  const locations = new Map<string, SourceLocation>();
  const issues: InputIssue[] = [];
  scenario.records.forEach((record, index) => {
    const first = locations.get(record.id);
    if (first) issues.push({ file, path: `records[${index}].id`, message: `duplicate id "${record.id}": first defined at records[${first.line}]` });
    else locations.set(record.id, { file, line: index });
  });
  if (issues.length > 0) return err(invalidInput(file, issues));
  // Inline records have no line of their own; the location keeps the file and drops the index.
  const inlineLocations = new Map([...locations.keys()].map((id) => [id, { file }]));
  return ok({ scenario, recordSet: createRecordSet(scenario.records, inlineLocations) });
}

/**
 * Tells what a dropped file is from its content, not its name: users rename files.
 * Returns null when nothing fits, so the caller can say so instead of guessing.
 */
export function detectFileKind(text: string): FileKind | null {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('{')) return null;
  const firstLine = trimmed.slice(0, trimmed.indexOf('\n') === -1 ? undefined : trimmed.indexOf('\n'));
  try {
    const head = JSON.parse(firstLine) as unknown;
    if (head !== null && typeof head === 'object' && 'id' in head && 'text' in head) return 'records';
  } catch {
    // Not a one-object-per-line file: fall through to whole-document detection.
  }
  try {
    const whole = JSON.parse(trimmed) as unknown;
    if (whole === null || typeof whole !== 'object') return null;
    if ('receiptId' in whole) return 'receipt';
    if ('contract' in whole && 'records' in whole) return 'scenario';
    if ('task' in whole && 'principals' in whole) return 'contract';
    if ('id' in whole && 'text' in whole) return 'records';
  } catch {
    return null;
  }
  return null;
}
