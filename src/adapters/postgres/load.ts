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

/** Records per statement: a batch is one JSON array per table, one round trip each. */
const BATCH = 1_000;

/** PostgreSQL's text cannot hold U+0000, which a JSON string may: such a record is refused where it is, before anything is written. */
function nulIssue(file: string, item: CheckedRecord, line: number | undefined): InputIssue | null {
  const { record } = item;
  const fields: [string, unknown][] = [
    ['id', record.id], ['title', record.title], ['text', record.text], ['project', record.project], ['scope', record.scope], ['subject', record.subject],
    ['sourceClass', record.sourceClass], ['authorityClass', record.authorityClass], ['sensitivity', record.sensitivity],
    ['access.roles', record.access.roles], ['access.purposes', record.access.purposes], ['access.labels', record.access.labels],
    ['supersedes', record.supersedes], ['evidence', record.evidence], ['provenance', record.provenance],
  ];
  for (const [path, value] of fields) {
    if (JSON.stringify(value ?? null).includes('\\u0000')) return inputIssue({ file, line, path }, 'NUL_IN_TEXT');
  }
  return null;
}

function recordRow(item: CheckedRecord, position: number, tokens: RecordTokens) {
  const { record } = item;
  const terms = new Set([...tokens.title.keys(), ...tokens.text.keys()]);
  return {
    id: record.id,
    position,
    fingerprint: item.fingerprint,
    document: JSON.stringify(record),
    project: record.project,
    scope: record.scope,
    subject: record.subject,
    known_at: item.knownAt,
    valid_from: item.validFrom,
    valid_to: item.validTo,
    lifecycle: record.lifecycle,
    source_class: record.sourceClass,
    authority_class: record.authorityClass,
    review_state: record.reviewState,
    provenance_ok: item.provenanceVerified,
    sensitivity: record.sensitivity,
    evidence_class: record.evidence?.class ?? null,
    title_tokens: tokens.titleTokens,
    text_tokens: tokens.textTokens,
    terms: [...terms],
  };
}

const RECORD_COLUMNS = `id text, position integer, fingerprint text, document text, project text, scope text, subject text, known_at bigint, valid_from bigint,
  valid_to bigint, lifecycle text, source_class text, authority_class text, review_state text, provenance_ok boolean, sensitivity text, evidence_class text,
  title_tokens integer, text_tokens integer, terms text[]`;

const PAIR_TABLES = [
  ['record_roles', 'record_id, role', (item: CheckedRecord) => item.record.access.roles],
  ['record_purposes', 'record_id, purpose', (item: CheckedRecord) => item.record.access.purposes],
  ['record_labels', 'record_id, label', (item: CheckedRecord) => item.record.access.labels],
  ['record_claims', 'record_id, proposition', (item: CheckedRecord) => (item.record.evidence === null ? [] : [...item.record.evidence.supports, ...item.record.evidence.contradicts])],
] as const;

/**
 * Between tokens: FTS5's unicode61 tokenizer splits at every control character, so no term holds U+0001.
 * The term rows (about a hundred a record) travel as a few delimited strings split by string_to_array:
 * parsing array literals (`text[]`, `integer[]` per row) cost the server several times as much.
 */
const TERM_SEPARATOR = '\u0001';

function termColumns(tokens: readonly RecordTokens[]): [string, string, string, string] {
  const records: number[] = [];
  const fields: number[] = [];
  const terms: string[] = [];
  const positions: string[] = [];
  tokens.forEach((found, index) => {
    for (const [field, map] of [[0, found.title], [1, found.text]] as const) {
      for (const [term, at] of map) {
        records.push(index + 1);
        fields.push(field);
        terms.push(term);
        positions.push(at.join(','));
      }
    }
  });
  return [records.join(','), fields.join(','), terms.join(TERM_SEPARATOR), positions.join(TERM_SEPARATOR)];
}

/**
 * One statement a batch, every table at once: it is sent whole, so the server writes it while Node tokenises
 * the next batch. The list tables' foreign keys are checked at the end of the statement, after the records.
 */
function insertBatch(client: Database, items: readonly { item: CheckedRecord; position: number }[], tokens: readonly RecordTokens[]): Promise<unknown> {
  const rows = items.map(({ item, position }, index) => recordRow(item, position, tokens[index] as RecordTokens));
  const pairs = (values: (item: CheckedRecord) => readonly string[]) => JSON.stringify(items.flatMap(({ item }) => values(item).map((value) => [item.record.id, value])));
  const pairInserts = PAIR_TABLES.map(([table, columns], index) => `${table} AS (INSERT INTO ${client.schema}.${table} (${columns}) SELECT x->>0, x->>1 FROM jsonb_array_elements($${index + 2}::jsonb) x ON CONFLICT DO NOTHING)`);
  const supersessions = JSON.stringify(items.flatMap(({ item }) => item.record.supersedes.map((target) => [target, item.record.id])));
  return client.query(
    `WITH records AS (INSERT INTO ${client.schema}.records SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(${RECORD_COLUMNS})),
  ${pairInserts.join(',\n  ')},
  supersessions AS (INSERT INTO ${client.schema}.supersessions (target, successor) SELECT x->>0, x->>1 FROM jsonb_array_elements($6::jsonb) x ON CONFLICT DO NOTHING)
INSERT INTO ${client.schema}.record_terms SELECT r.id, u.field::smallint, u.term, string_to_array(u.positions, ',')::integer[]
  FROM unnest(string_to_array($8, ','), string_to_array($9, ','), string_to_array($10, E'\\x01'), string_to_array($11, E'\\x01')) AS u(record, field, term, positions)
  JOIN unnest($7::text[]) WITH ORDINALITY AS r(id, record) ON r.record = u.record::bigint`,
    [JSON.stringify(rows), ...PAIR_TABLES.map(([, , values]) => pairs(values)), supersessions, items.map(({ item }) => item.record.id), ...termColumns(tokens)],
  );
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
    if (issue !== null) return err({ pass: 'validate', code: 'INVALID_INPUT', message: `${issue.file}${issue.line === undefined ? '' : `:${issue.line}`}: ${issue.path}: ${issue.message}`, recordId: item.record.id, issues: [issue] });
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
    let written: Promise<unknown> = Promise.resolve();
    for (let start = 0; start < writes.length; start += BATCH) {
      const slice = writes.slice(start, start + BATCH);
      const tokens = tokeniser.records(slice.map(({ item }) => [item.record.title, item.record.text]));
      await written;
      written = insertBatch(client, slice, tokens);
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
