import type { z } from 'zod';
import { findLoneSurrogate } from '../canonical';
import { contractSchema, type Contract } from '../format/contract';
import type { SourceRecord } from '../format/record';
import { compiledRecordSchema } from '../format/record-parser';
import { scenarioSchema, type ScenarioFile } from '../format/scenario';
import { err, formatPath, ok, type CompileError, type InputIssue, type Result, type SourceLocation } from '../errors';
import { contentHashOf } from '../hash';

/** Enough issues to fix a file in one go, without flooding a screen when every line is wrong. */
export const MAX_REPORTED_ISSUES = 50;

export interface RecordSet {
  readonly records: readonly SourceRecord[];
  readonly byId: ReadonlyMap<string, SourceRecord>;
  readonly locations: ReadonlyMap<string, SourceLocation>;
  /** Ids whose provenance exists and whose content hash matches their text. */
  readonly verifiedProvenance: ReadonlySet<string>;
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
  const records: SourceRecord[] = [];
  /** Whether each record's provenance checks out, worked out as it is read (see `readLine`). */
  const verified: boolean[] = [];
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
    records.push(parsed.data);
    // Hashed as each record is read, not all in `finish`: over 100,000 records in a Chromium worker that
    // measured 0.6-1.5 s less (the same in Node). Once the file has a problem it will be refused: no more hashing.
    if (issueCount === 0) verified.push(provenanceMatches(parsed.data));
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
      return records.length;
    },
    finish() {
      if (pending !== '') {
        readLine(pending);
        pending = '';
      }
      if (issueCount > 0) return err(invalidInput(file, issues, issueCount));
      records.forEach((record, index) => verifiedCache.set(record, verified[index] ?? false));
      return ok(createRecordSet(records, locations));
    },
  };
}

export function parseRecordsJsonl(file: string, text: string): Result<RecordSet, CompileError> {
  const reader = createJsonlRecordReader(file);
  reader.push(text);
  return reader.finish();
}

const verifiedCache = new WeakMap<SourceRecord, boolean>();

function provenanceMatches(record: SourceRecord): boolean {
  return record.provenance !== null && record.provenance.contentHash === contentHashOf(record.text);
}

/** Whether a record's provenance is present and its content hash matches its text (hashed once per record object). */
export function hasVerifiedProvenance(record: SourceRecord): boolean {
  const cached = verifiedCache.get(record);
  if (cached !== undefined) return cached;
  const verified = provenanceMatches(record);
  verifiedCache.set(record, verified);
  return verified;
}

export function createRecordSet(records: readonly SourceRecord[], locations: ReadonlyMap<string, SourceLocation> = new Map()): RecordSet {
  const byId = new Map<string, SourceRecord>();
  const verifiedProvenance = new Set<string>();
  for (const record of records) {
    byId.set(record.id, record);
    if (hasVerifiedProvenance(record)) verifiedProvenance.add(record.id);
  }
  return { records, byId, locations, verifiedProvenance };
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
