import { findLoneSurrogate } from '../../canonical';
import { scenarioRecordIds, undeclaredMentions } from '../../change-text';
import { contractSchema, type Contract } from '../../format/contract';
import { invalidInput, jsonTextIssue, zodInputIssues, MAX_REPORTED_ISSUES } from '../../format/input-issues';
import { createJsonLocator, MAX_LINE_CHARS, parseJsonText, quoteValue, type JsonLocator } from '../../format/json-text';
import { recordSchema, type SourceRecord } from '../../format/record';
import { compiledRecordSchema, createJsonlLineSplitter } from '../../format/input-files';
import { scenarioSchema, type ScenarioFile } from '../../format/scenario';
import {
  err,
  formatPath,
  ok,
  type CompileError,
  type InputIssue,
  type Result,
  type SourceLocation,
  type UnreadableRecord,
} from '../../errors';
import { CanonicalBytes } from '../../canonical-bytes';
import { contentHashOf, recordFingerprint, type Sha256 } from '../../fingerprints';
import { parseInstant } from '../../format/time';
import { inputIssue } from '../../issues';
import { endsChunk } from '../../tree-digest';

export { MAX_REPORTED_ISSUES };

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
  /** `endsChunk(id)`: where the receipt's digest trees cut their chunks at this record (src/core/tree-digest.ts). */
  readonly endsDigestChunk: boolean;
}

export interface RecordSet extends RecordsBesides {
  /** The records in the order they were supplied. */
  readonly records: readonly SourceRecord[];
  /** Their ids, in the same order: what the id order depends on, read without walking 100,000 records. */
  readonly ids: readonly string[];
  /** What validation established about each record, aligned with `records`. */
  readonly checked: readonly CheckedRecord[];
  readonly byId: ReadonlyMap<string, CheckedRecord>;
  readonly locations: ReadonlyMap<string, SourceLocation>;
  /**
   * The records that supersede another, in the same order: all that supersession depends on. A derived set
   * finds them without reading every record, which a toggle of one record should not have to do.
   */
  readonly successors: readonly CheckedRecord[];
}

/** A record read after another with its id: which copy stands depends on which the caller may see. */
export interface DuplicateRecord {
  readonly checked: CheckedRecord;
  readonly location: SourceLocation;
}

/** What a records file holds besides its records: lines that could not be read, and records whose id was taken. */
export interface RecordsBesides {
  /** Lines of the records file that could not be read as records, in file order (see `UnreadableRecord`). */
  readonly unreadable: readonly UnreadableRecord[];
  /** Records whose id an earlier line holds: the compilation settles them with the contract (`settleDuplicates`). */
  readonly duplicates: readonly DuplicateRecord[];
}

const NOTHING_BESIDES: RecordsBesides = { unreadable: [], duplicates: [] };

export const supersedesAny = (item: CheckedRecord): boolean => item.record.supersedes.length > 0;

/** What validation establishes about a record whose text and fingerprint form have been hashed. */
function checkedRecord(record: SourceRecord, textHash: string, fingerprint: string): CheckedRecord {
  return {
    record,
    fingerprint,
    provenanceVerified: record.provenance !== null && record.provenance.contentHash === textHash,
    // The schema refused every instant that does not parse, so these are never NaN.
    knownAt: parseInstant(record.knownAt) ?? Number.NaN,
    validFrom: parseInstant(record.validFrom) ?? Number.NaN,
    validTo: record.validTo === null ? null : (parseInstant(record.validTo, 'end') ?? Number.NaN),
    endsDigestChunk: endsChunk(record.id),
  };
}

/**
 * `checkRecord` for many records in turn, through scratch bytes of its own for each fingerprint's canonical form:
 * a fresh buffer for each record costs more than writing the form.
 */
export function createRecordChecker(sha256: Sha256): (record: SourceRecord) => CheckedRecord {
  const scratch = new CanonicalBytes();
  return (record) => {
    const textHash = contentHashOf(sha256, record.text);
    return checkedRecord(record, textHash, recordFingerprint(sha256, record, textHash, scratch));
  };
}

/** Hashes the text once: for the provenance check and, through its digest, for the fingerprint. */
export function checkRecord(sha256: Sha256, record: SourceRecord): CheckedRecord {
  return createRecordChecker(sha256)(record);
}

/** `checkRecord` of each record, in order. */
export function checkRecords(sha256: Sha256, records: readonly SourceRecord[]): CheckedRecord[] {
  const check = createRecordChecker(sha256);
  return records.map((record) => check(record));
}

export { detectFileKind, type FileKind } from '../../format/input-files';

export interface JsonlRecordReader {
  /** Feeds any slice of the file; lines may be split across chunks. */
  push(chunk: string): void;
  /** Records read so far (for progress). */
  readonly count: number;
  finish(): Result<RecordSet, CompileError>;
  /** What was read, as one part of a file read in several (see `joinRecordParts`). */
  finishPart(): Result<RecordsPart, CompileError>;
}

/**
 * The records of one run of whole lines of a file, read on its own (in another worker, say). Lines are
 * numbered from 1 within the part; `lineCount` is how many the part holds, so the next part's numbers
 * can be moved past them.
 */
export interface RecordsPart {
  readonly checked: readonly CheckedRecord[];
  /** The line of each record, within the part. */
  readonly lines: readonly number[];
  readonly lineCount: number;
  /**
   * Unreadable lines and duplicate records of the part; a part that has any is joined by reading the file in one pass.
   */
  readonly besides: RecordsBesides;
}

/** A line of a records file read as a record, or the issues that make it unreadable (file, line and field each). */
export type RecordLine =
  { readonly ok: true; readonly record: SourceRecord } | { readonly ok: false; readonly issues: readonly InputIssue[] };

/** Reads one line of a records file (see `createJsonlLineSplitter`) as the record schema reads it. */
export function readRecordLine(file: string, lineNumber: number, line: string): RecordLine {
  const json = parseJsonText(line);
  if (!json.ok) return { ok: false, issues: [jsonTextIssue(file, json.error, lineNumber)] };
  const parsed = compiledRecordSchema.safeParse(json.value);
  if (!parsed.success)
    return {
      ok: false,
      issues: zodInputIssues({ file, line: lineNumber, schema: recordSchema }, parsed.error, json.value),
    };
  return { ok: true, record: parsed.data };
}

/** Why a line over MAX_LINE_CHARS was not read. */
export function overlongLineIssue(file: string, lineNumber: number): InputIssue {
  return inputIssue({ file, line: lineNumber, path: '(root)' }, 'LINE_TOO_LONG', { max: MAX_LINE_CHARS });
}

/** Reads records one line at a time so a large export never has to be one string. */
export function createJsonlRecordReader(sha256: Sha256, file: string): JsonlRecordReader {
  const checked: CheckedRecord[] = [];
  const locations = new Map<string, SourceLocation>();
  const unreadable: UnreadableRecord[] = [];
  const duplicates: DuplicateRecord[] = [];
  const check = createRecordChecker(sha256);

  const lines = createJsonlLineSplitter({
    line(text, lineNumber) {
      const read = readRecordLine(file, lineNumber, text);
      if (!read.ok) {
        unreadable.push({ location: { file, line: lineNumber }, issues: read.issues });
        return;
      }
      // Checked as each record is read, not all in `finish`, while the record is still in the cache.
      if (locations.has(read.record.id)) {
        duplicates.push({ checked: check(read.record), location: { file, line: lineNumber } });
        return;
      }
      locations.set(read.record.id, { file, line: lineNumber });
      checked.push(check(read.record));
    },
    overlong(lineNumber) {
      unreadable.push({ location: { file, line: lineNumber }, issues: [overlongLineIssue(file, lineNumber)] });
    },
  });

  return {
    push: (chunk) => lines.push(chunk),
    get count() {
      return locations.size;
    },
    finish() {
      lines.finish();
      return ok(recordSetOf(checked, locations, { unreadable, duplicates }));
    },
    finishPart() {
      lines.finish();
      return ok({
        checked,
        lines: checked.map((item) => locations.get(item.record.id)?.line ?? 0),
        lineCount: lines.lineCount,
        besides: { unreadable, duplicates },
      });
    },
  };
}

/**
 * The record set of a file read as consecutive parts, the same as reading it in one pass gives; null when an
 * id occurs twice or a line is unreadable, since only a reader that saw the whole file can place them all
 * (read the file in one pass).
 */
export function joinRecordParts(file: string, parts: readonly RecordsPart[]): RecordSet | null {
  const checked: CheckedRecord[] = [];
  const locations = new Map<string, SourceLocation>();
  let linesBefore = 0;
  for (const part of parts) {
    if (part.besides.unreadable.length > 0 || part.besides.duplicates.length > 0) return null;
    for (const [index, item] of part.checked.entries()) {
      if (locations.has(item.record.id)) return null;
      locations.set(item.record.id, { file, line: linesBefore + (part.lines[index] ?? 0) });
      checked.push(item);
    }
    linesBefore += part.lineCount;
  }
  return recordSetOf(checked, locations);
}

export function parseRecordsJsonl(sha256: Sha256, file: string, text: string): Result<RecordSet, CompileError> {
  const reader = createJsonlRecordReader(sha256, file);
  reader.push(text);
  return reader.finish();
}

/**
 * A record set of records already checked, in the order given (ids must be unique), with what its file held
 * besides them (a set derived from another keeps the other's).
 */
export function recordSetOf(
  checked: readonly CheckedRecord[],
  locations: ReadonlyMap<string, SourceLocation> = new Map(),
  besides: RecordsBesides = NOTHING_BESIDES,
): RecordSet {
  const byId = new Map<string, CheckedRecord>();
  for (const item of checked) byId.set(item.record.id, item);
  return {
    records: checked.map((item) => item.record),
    ids: checked.map((item) => item.record.id),
    checked,
    byId,
    locations,
    successors: checked.filter(supersedesAny),
    unreadable: besides.unreadable,
    duplicates: besides.duplicates,
  };
}

/**
 * The strict reading, for a tool that writes records somewhere (a database load) rather than compiling them:
 * the file's unreadable lines and duplicate ids as a refusal with file, line and field, or null when it has none.
 */
export function unreadableRecordsError(recordSet: RecordSet): CompileError | null {
  const issues: InputIssue[] = recordSet.unreadable.flatMap((item) => item.issues);
  for (const duplicate of recordSet.duplicates) {
    const { id } = duplicate.checked.record;
    issues.push(
      inputIssue({ file: duplicate.location.file, line: duplicate.location.line, path: 'id' }, 'DUPLICATE_ID', {
        id: quoteValue(id),
        first: `line ${recordSet.locations.get(id)?.line ?? '?'}`,
      }),
    );
  }
  if (issues.length === 0) return null;
  issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return invalidInput(
    recordSet.unreadable[0]?.location.file ?? recordSet.duplicates[0]?.location.file ?? 'records',
    issues,
    issues.length,
    'records file',
  );
}

/** Checks each record (see `checkRecord`) and builds the set: for records that did not come through a reader. */
export function createRecordSet(
  sha256: Sha256,
  records: readonly SourceRecord[],
  locations: ReadonlyMap<string, SourceLocation> = new Map(),
): RecordSet {
  return recordSetOf(checkRecords(sha256, records), locations);
}

/** JSON text as a value, or the input error naming where the text stops being JSON. */
export function parseJson(file: string, text: string, kind: string): Result<unknown, CompileError> {
  const json = parseJsonText(text);
  return json.ok ? json : err(invalidInput(file, [jsonTextIssue(file, json.error)], 1, kind));
}

export function parseContractJson(file: string, text: string): Result<Contract, CompileError> {
  const json = parseJson(file, text, 'contract');
  if (!json.ok) return json;
  return validateContract(file, json.value, createJsonLocator(text));
}

export function validateContract(file: string, value: unknown, locator?: JsonLocator): Result<Contract, CompileError> {
  const surrogate = findLoneSurrogate(value);
  if (surrogate !== null)
    return err(
      invalidInput(
        file,
        [inputIssue({ file, line: locator?.lineOf(surrogate), path: formatPath(surrogate) }, 'LONE_SURROGATE')],
        1,
        'contract',
      ),
    );
  const parsed = contractSchema.safeParse(value);
  if (!parsed.success)
    return err(
      invalidInput(
        file,
        zodInputIssues({ file, locator, schema: contractSchema }, parsed.error, value),
        parsed.error.issues.length,
        'contract',
      ),
    );
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
  sha256: Sha256,
  file: string,
  text: string,
  readSibling: (name: string) => string | null,
): Result<LoadedScenario, CompileError> {
  const json = parseJson(file, text, 'scenario');
  if (!json.ok) return json;
  const locator = createJsonLocator(text);
  const parsed = scenarioSchema.safeParse(json.value);
  if (!parsed.success)
    return err(
      invalidInput(
        file,
        zodInputIssues({ file, locator, schema: scenarioSchema }, parsed.error, json.value),
        parsed.error.issues.length,
        'scenario',
      ),
    );
  const scenario = parsed.data;
  if (typeof scenario.records === 'string') {
    const siblingText = readSibling(scenario.records);
    if (siblingText === null) {
      return err(
        invalidInput(
          file,
          [
            inputIssue({ file, line: locator.lineOf(['records']), path: 'records' }, 'RECORDS_NOT_SUPPLIED', {
              records: scenario.records,
            }),
          ],
          undefined,
          'scenario',
        ),
      );
    }
    const recordSet = parseRecordsJsonl(sha256, scenario.records, siblingText);
    if (!recordSet.ok) return recordSet;
    return checkChangeTexts(file, { scenario, recordSet: recordSet.value }, locator);
  }
  const locations = new Map<string, SourceLocation>();
  const issues: InputIssue[] = [];
  scenario.records.forEach((record, index) => {
    const first = locations.get(record.id);
    if (first)
      issues.push(
        inputIssue(
          { file, line: locator.lineOf(['records', index, 'id']), path: `records[${index}].id` },
          'DUPLICATE_ID',
          { id: quoteValue(record.id), first: `records[${first.line}]` },
        ),
      );
    else locations.set(record.id, { file, line: index });
  });
  if (issues.length > 0) return err(invalidInput(file, issues, undefined, 'scenario'));
  // Inline records have no line of their own; the location keeps the file and drops the index.
  const inlineLocations = new Map([...locations.keys()].map((id) => [id, { file }]));
  return checkChangeTexts(
    file,
    { scenario, recordSet: createRecordSet(sha256, scenario.records, inlineLocations) },
    locator,
  );
}

/**
 * A scenario whose records file the reader streamed apart from it (the CLI from disk, the app from the drop),
 * joined to those records and checked as an inline one is: every reader finishes a scenario here.
 */
export function joinScenarioRecords(
  file: string,
  text: string,
  scenario: ScenarioFile,
  recordSet: RecordSet,
): Result<LoadedScenario, CompileError> {
  return checkChangeTexts(file, { scenario, recordSet }, createJsonLocator(text));
}

/**
 * Refuses a scenario whose control or late-change text names a record it does not declare (src/core/change-text.ts).
 */
export function checkChangeTexts(
  file: string,
  loaded: LoadedScenario,
  locator?: JsonLocator,
): Result<LoadedScenario, CompileError> {
  const issues = undeclaredMentions(
    file,
    loaded.scenario,
    scenarioRecordIds(loaded.scenario, loaded.recordSet.ids),
    locator,
  );
  return issues.length > 0 ? err(invalidInput(file, issues, issues.length, 'scenario')) : ok(loaded);
}
