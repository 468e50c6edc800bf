import type { CompileError, InputIssue } from '../../core/errors';
import { err, ok, type Result } from '../../core/errors';
import { inputIssue } from '../../core/reasons';
import type { CheckedRecord, RecordSet } from '../../core/passes/validate';
import { createIndexes, migrate, type Database } from './schema';
import type { RecordTokens, Tokeniser } from './tokens';

export interface LoadReport {
  readonly layout: 'created' | 'current' | 'migrated';
  readonly inserted: number;
  readonly updated: number;
  readonly deleted: number;
  readonly unchanged: number;
}

/** Records per batch: one COPY a table. */
const BATCH = 1_000;

/** PostgreSQL's text cannot hold U+0000, which a JSON string may: such a record is refused where it is, before anything is written. */
function nulIssue(file: string, item: CheckedRecord, line: number | undefined): InputIssue | null {
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
const copyLine = (values: readonly (string | number | boolean | null)[]) => `${values.map(copyValue).join('\t')}\n`;
/** A text[] literal: each element quoted, its quotes and backslashes escaped. */
const textArray = (values: Iterable<string>) => `{${Array.from(values, (value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;

function recordLine(item: CheckedRecord, position: number, tokens: RecordTokens): string {
  const { record } = item;
  return copyLine([
    record.id,
    position,
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
function* termLines(items: readonly { item: CheckedRecord }[], tokens: readonly RecordTokens[]): Generator<string> {
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
 * A batch is one COPY a table, the records first so the list tables' foreign keys find them. COPY has no
 * ON CONFLICT: a list's repeated value is written once here, as the primary keys require. The promise is
 * not awaited before the next batch is tokenised, so the server writes while Node works.
 */
async function copyBatch(client: Database, items: readonly { item: CheckedRecord; position: number }[], tokens: readonly RecordTokens[]): Promise<void> {
  await client.copyFrom(
    `COPY ${client.schema}.records FROM STDIN`,
    items.map(({ item, position }, index) => recordLine(item, position, tokens[index] as RecordTokens)),
  );
  for (const [table, columns, values] of PAIR_TABLES) {
    const lines = items.flatMap(({ item }) => Array.from(new Set(values(item)), (value) => copyLine([item.record.id, value])));
    if (lines.length > 0) await client.copyFrom(`COPY ${client.schema}.${table} (${columns}) FROM STDIN`, lines);
  }
  await client.copyFrom(`COPY ${client.schema}.record_terms FROM STDIN`, termLines(items, tokens));
}

/**
 * Brings the database's records to exactly this record set, in one transaction: a record whose fingerprint
 * and place are unchanged is not written, so loading the same file again writes nothing; a failure rolls
 * everything back, so nothing is ever half-written. The record set was validated as the browser validates it.
 */
export async function loadRecordSet(
  client: Database,
  file: string,
  recordSet: RecordSet,
  tokeniser: Tokeniser,
  onProgress?: (done: number, total: number) => void,
): Promise<Result<LoadReport, CompileError>> {
  for (const item of recordSet.checked) {
    const issue = nulIssue(file, item, recordSet.locations.get(item.record.id)?.line);
    if (issue !== null)
      return err({
        pass: 'validate',
        code: 'INVALID_INPUT',
        message: `${issue.file}${issue.line === undefined ? '' : `:${issue.line}`}: ${issue.path}: ${issue.message}`,
        recordId: item.record.id,
        issues: [issue],
      });
  }
  await client.query('BEGIN');
  try {
    const layout = await migrate(client);
    // One load at a time: a second waits here instead of interleaving its rows with this one's.
    await client.query(`LOCK TABLE ${client.schema}.records IN EXCLUSIVE MODE`);
    const { rows } = await client.query<{ id: string; fingerprint: string; position: number }>(`SELECT id, fingerprint, position FROM ${client.schema}.records`);
    const stored = new Map(rows.map((row) => [row.id, row]));
    const writes: { item: CheckedRecord; position: number }[] = [];
    const moved: [string, number][] = [];
    const gone: string[] = [];
    let updated = 0;
    recordSet.checked.forEach((item, position) => {
      const found = stored.get(item.record.id);
      stored.delete(item.record.id);
      if (found === undefined) writes.push({ item, position });
      else if (found.fingerprint !== item.fingerprint) {
        gone.push(item.record.id);
        writes.push({ item, position });
        updated += 1;
      } else if (found.position !== position) moved.push([item.record.id, position]);
    });
    const deleted = stored.size;
    for (const id of stored.keys()) gone.push(id);
    if (gone.length > 0) {
      await client.query(`DELETE FROM ${client.schema}.record_terms WHERE record_id = ANY($1::text[])`, [gone]);
      await client.query(`DELETE FROM ${client.schema}.records WHERE id = ANY($1::text[])`, [gone]);
    }
    if (moved.length > 0) {
      await client.query(`UPDATE ${client.schema}.records r SET position = (x->>1)::integer FROM jsonb_array_elements($1::jsonb) x WHERE r.id = x->>0`, [JSON.stringify(moved)]);
    }
    // A batch is written while the next is tokenised: the server and Node work at once.
    let written: Promise<void> = Promise.resolve();
    for (let start = 0; start < writes.length; start += BATCH) {
      const slice = writes.slice(start, start + BATCH);
      const tokens = tokeniser.records(slice.map(({ item }) => [item.record.title, item.record.text]));
      await written;
      written = copyBatch(client, slice, tokens);
      onProgress?.(Math.min(start + BATCH, writes.length), writes.length);
    }
    await written;
    if (layout !== 'current') await createIndexes(client);
    await client.query('COMMIT');
    return ok({ layout, inserted: writes.length - updated, updated, deleted, unchanged: recordSet.checked.length - writes.length });
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
