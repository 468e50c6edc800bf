import type { InputIssue } from '../../core/errors';
import { inputIssue } from '../../core/reasons';
import type { CheckedRecord } from '../../core/phases/1-validate/validate';
import type { Database } from './schema';
import type { RecordTokens } from './tokens';

/** PostgreSQL's text cannot hold U+0000, which a JSON string may: such a record is refused where it is, before anything is written. */
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
function copyValue(value: string | number | boolean | null): string {
  return value === null ? '\\N' : String(value).replace(/[\\\n\r\t]/g, (found) => COPY_ESCAPES[found] ?? found);
}
export const copyLine = (values: readonly (string | number | boolean | null)[]) => `${values.map(copyValue).join('\t')}\n`;
/** A text[] literal: each element quoted, its quotes and backslashes escaped. */
const textArray = (values: Iterable<string>) => `{${Array.from(values, (value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
/** A bytea in COPY's text format: hex, its backslash escaped for COPY. */
const byteaValue = (bytes: Uint8Array) => `\\x${Buffer.from(bytes).toString('hex')}`;

/** A record to write, with the hash of the line it was read from (see load.ts). */
export interface RecordToWrite {
  readonly item: CheckedRecord;
  readonly lineHash: Uint8Array;
}

function recordLine({ item, lineHash }: RecordToWrite, tokens: RecordTokens): string {
  const { record } = item;
  return copyLine([
    record.id,
    byteaValue(lineHash),
    item.fingerprint,
    JSON.stringify(record),
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
    tokens.titleTokens,
    tokens.textTokens,
    textArray(new Set([...tokens.title.keys(), ...tokens.text.keys()])),
  ]);
}

const PAIR_TABLES = [
  ['record_roles', 'record_id, role', (item: CheckedRecord) => item.record.access.roles],
  ['record_purposes', 'record_id, purpose', (item: CheckedRecord) => item.record.access.purposes],
  ['record_labels', 'record_id, label', (item: CheckedRecord) => item.record.access.labels],
  ['record_claims', 'record_id, proposition', (item: CheckedRecord) => (item.record.evidence === null ? [] : [...item.record.evidence.supports, ...item.record.evidence.contradicts])],
  // A supersession's row is (target, successor): the record is the successor.
  ['supersessions', 'successor, target', (item: CheckedRecord) => item.record.supersedes],
] as const;

/** One line per term of each record's title (field 0) and text (field 1), with its positions as an integer[] literal. */
function* termLines(items: readonly RecordToWrite[], tokens: readonly RecordTokens[]): Generator<string> {
  for (const [index, { item }] of items.entries()) {
    const found = tokens[index] as RecordTokens;
    const lines: string[] = [];
    for (const [field, map] of [
      [0, found.title],
      [1, found.text],
    ] as const) {
      for (const [term, at] of map) lines.push(copyLine([item.record.id, field, term, `{${at.join(',')}}`]));
    }
    yield lines.join('');
  }
}

/**
 * Writes records none of whose ids the tables hold: one COPY a table, the records first so the list tables'
 * foreign keys find them. COPY has no ON CONFLICT: a list's repeated value is written once here, as the
 * primary keys require.
 */
export async function copyRecords(client: Database, items: readonly RecordToWrite[], tokens: readonly RecordTokens[]): Promise<void> {
  await client.copyFrom(
    `COPY ${client.schema}.records FROM STDIN`,
    items.map((write, index) => recordLine(write, tokens[index] as RecordTokens)),
  );
  for (const [table, columns, values] of PAIR_TABLES) {
    const lines = items.flatMap(({ item }) => Array.from(new Set(values(item)), (value) => copyLine([item.record.id, value])));
    if (lines.length > 0) await client.copyFrom(`COPY ${client.schema}.${table} (${columns}) FROM STDIN`, lines);
  }
  await client.copyFrom(`COPY ${client.schema}.record_terms FROM STDIN`, termLines(items, tokens));
}

/** Deletes these records with their list rows (the foreign keys cascade) and their terms (which have none). */
export async function deleteRecordRows(client: Database, ids: readonly string[]): Promise<readonly string[]> {
  if (ids.length === 0) return [];
  await client.query(`DELETE FROM ${client.schema}.record_terms WHERE record_id = ANY($1::text[])`, [ids]);
  const { rows } = await client.query<{ id: string }>(`DELETE FROM ${client.schema}.records WHERE id = ANY($1::text[]) RETURNING id`, [ids]);
  return rows.map((row) => row.id);
}
