import type { InputIssue } from '../../core/errors';
import { inputIssue } from '../../core/issues';
import type { CheckedRecord } from '../../core/phases/1-validate/validate';
import type { Database } from './schema';
import type { RecordTokens } from './tokens';
import { keepRowsBefore } from './change-log';

/**
 * PostgreSQL's text cannot hold U+0000, which a JSON string may: such a record is refused where it is, before anything
 * is written.
 */
export function nulIssue(file: string, item: CheckedRecord, line: number | undefined): InputIssue | null {
  const { record } = item;
  const fields: [string, unknown][] = [
    ['id', record.id],
    ['title', record.title],
    ['text', record.text],
    ['project', record.project],
    ['scope', record.scope],
    ['subject', record.subject],
    ['sourceClass', record.sourceClass],
    ['authorityClass', record.authorityClass],
    ['sensitivity', record.sensitivity],
    ['access.roles', record.access.roles],
    ['access.purposes', record.access.purposes],
    ['access.labels', record.access.labels],
    ['supersedes', record.supersedes],
    ['evidence', record.evidence],
    ['provenance', record.provenance],
  ];
  for (const [path, value] of fields) {
    if (JSON.stringify(value ?? null).includes('\\u0000')) return inputIssue({ file, line, path }, 'NUL_IN_TEXT');
  }
  return null;
}

/** A value as COPY's text format writes it: NULL as \N, and the four characters it would read as delimiters escaped. */
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
/**
 * Global for `replace`; `search` ignores the flag and `lastIndex`, so the same expression also finds whether any is
 * there.
 */
const COPY_DELIMITERS = /[\\\n\r\t]/g;
function copyValue(value: string | number | boolean | null): string {
  if (value === null) return '\\N';
  const text = String(value);
  return text.search(COPY_DELIMITERS) === -1
    ? text
    : text.replace(COPY_DELIMITERS, (found) => COPY_ESCAPES[found] ?? found);
}
export const copyLine = (values: readonly (string | number | boolean | null)[]) =>
  `${values.map(copyValue).join('\t')}\n`;
/** A text[] literal: each element quoted, its quotes and backslashes escaped. */
const textArray = (values: Iterable<string>) =>
  `{${Array.from(values, (value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
/** A bytea given in hex, in COPY's text format: its backslash escaped for COPY. */
const byteaValue = (hex: string) => `\\x${hex}`;

/** A record to write, with the hash of the line it was read from, in hex (see load-records.ts). */
export interface RecordToWrite {
  readonly item: CheckedRecord;
  readonly lineHash: string;
}

/** The record's row of the narrow table (schema.ts), in its columns' order. */
function recordLine({ item }: RecordToWrite, tokens: RecordTokens): string {
  const { record } = item;
  return copyLine([
    record.id,
    item.fingerprint,
    item.endsDigestChunk,
    record.project,
    record.scope,
    record.subject,
    item.knownAt,
    item.validFrom,
    item.validTo,
    record.lifecycle,
    record.sourceClass,
    record.authorityClass,
    record.reviewState,
    item.provenanceVerified,
    record.sensitivity,
    record.evidence?.class ?? null,
    // Sets: a value repeated in the file is held once, as the evaluator's membership tests read it.
    textArray(new Set(record.access.roles)),
    textArray(new Set(record.access.purposes)),
    textArray(new Set(record.access.labels)),
    textArray(new Set(record.evidence === null ? [] : [...record.evidence.supports, ...record.evidence.contradicts])),
    textArray(new Set(record.supersedes)),
    tokens.titleTokens,
    tokens.textTokens,
    record.tokens,
    record.relevance,
  ]);
}

const documentLine = ({ item, lineHash }: RecordToWrite) =>
  copyLine([item.record.id, byteaValue(lineHash), JSON.stringify(item.record)]);

// Most terms occur once in a text: their array is written without joining one.
const positionsArray = (at: readonly number[] | undefined) =>
  at === undefined ? '{}' : at.length === 1 ? `{${at[0]}}` : `{${at.join(',')}}`;

/** A term's line: its frequency and positions in the title and in the text. Numbers need no COPY escapes. */
const postingLine = (
  term: string,
  id: string,
  title: readonly number[] | undefined,
  text: readonly number[] | undefined,
) =>
  `${copyValue(term)}\t${id}\t${title?.length ?? 0}\t${text?.length ?? 0}\t${positionsArray(title)}\t${positionsArray(text)}\n`;

/** One line per term of the record, as one string. */
function postingLines({ item }: RecordToWrite, found: RecordTokens): string {
  const id = copyValue(item.record.id);
  const lines: string[] = [];
  for (const [term, title] of found.title) lines.push(postingLine(term, id, title, found.text.get(term)));
  for (const [term, text] of found.text) if (!found.title.has(term)) lines.push(postingLine(term, id, undefined, text));
  return lines.join('');
}

/** A record's COPY text for each of its tables: all a load keeps of it between reading it and writing it. */
export interface RecordRows {
  readonly record: string;
  readonly document: string;
  readonly postings: string;
}

export const recordRows = (write: RecordToWrite, tokens: RecordTokens): RecordRows => ({
  record: recordLine(write, tokens),
  document: documentLine(write),
  postings: postingLines(write, tokens),
});

/** Writes records none of whose ids the tables hold: one COPY a table. */
export async function copyRecords(client: Database, rows: readonly RecordRows[]): Promise<void> {
  await client.copyFrom(
    `COPY ${client.schema}.records FROM STDIN`,
    rows.map((row) => row.record),
  );
  await client.copyFrom(
    `COPY ${client.schema}.documents FROM STDIN`,
    rows.map((row) => row.document),
  );
  await client.copyFrom(
    `COPY ${client.schema}.postings FROM STDIN`,
    rows.map((row) => row.postings),
  );
}

/** Deletes these records with their documents and postings, keeping their rows as they were (change-log.ts). */
export async function deleteRecordRows(client: Database, ids: readonly string[]): Promise<readonly string[]> {
  if (ids.length === 0) return [];
  await client.query(`DELETE FROM ${client.schema}.postings WHERE record_id = ANY($1::text[])`, [ids]);
  await client.query(`DELETE FROM ${client.schema}.documents WHERE id = ANY($1::text[])`, [ids]);
  const { rows } = await client.query<{ id: string }>(
    `WITH gone AS (DELETE FROM ${client.schema}.records WHERE id = ANY($1::text[]) RETURNING *),
     kept AS (${keepRowsBefore(client.schema, 'gone')}) SELECT id FROM gone`,
    [ids],
  );
  return rows.map((row) => row.id);
}
