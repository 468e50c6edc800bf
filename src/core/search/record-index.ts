import type { SourceRecord } from '../format/record';
import { recordTimes } from '../passes/resolve';
import { hasVerifiedProvenance } from '../passes/validate';
import type { SqlDriver, SqlStatement, SqlValue } from './driver';

/**
 * The gated columns are plain columns and side tables so that admission lowers to one parameterised
 * WHERE; text lives only in a contentless FTS5 table (rowid = records.rowid) to keep memory down.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS records (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  project TEXT NOT NULL,
  scope TEXT NOT NULL,
  subject TEXT,
  known_at INTEGER NOT NULL,
  valid_from INTEGER NOT NULL,
  valid_to INTEGER,
  lifecycle TEXT NOT NULL,
  source_class TEXT NOT NULL,
  authority_class TEXT NOT NULL,
  review_state TEXT NOT NULL,
  provenance_ok INTEGER NOT NULL,
  sensitivity TEXT NOT NULL,
  evidence_class TEXT,
  tokens INTEGER NOT NULL,
  relevance REAL
);
CREATE TABLE IF NOT EXISTS record_roles (record_rowid INTEGER NOT NULL, role TEXT NOT NULL, PRIMARY KEY (record_rowid, role)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS record_purposes (record_rowid INTEGER NOT NULL, purpose TEXT NOT NULL, PRIMARY KEY (record_rowid, purpose)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS record_labels (record_rowid INTEGER NOT NULL, label TEXT NOT NULL, PRIMARY KEY (record_rowid, label)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS record_claims (record_rowid INTEGER NOT NULL, proposition TEXT NOT NULL, PRIMARY KEY (record_rowid, proposition)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS supersessions (target TEXT NOT NULL, successor TEXT NOT NULL, PRIMARY KEY (target, successor)) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS record_text USING fts5(title, text, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
CREATE TEMP TABLE IF NOT EXISTS identity_names (name TEXT NOT NULL, identity TEXT NOT NULL);
CREATE TEMP TABLE IF NOT EXISTS accepted_evidence (proposition TEXT NOT NULL, class TEXT NOT NULL);
`;

export interface SyncReport {
  readonly inserted: number;
  readonly updated: number;
  readonly deleted: number;
}

export interface RecordIndex {
  /** Brings the index to exactly these records, touching only rows whose record object changed. */
  sync(records: readonly SourceRecord[], onProgress?: (done: number, total: number) => void): SyncReport;
  readonly size: number;
}

const PROGRESS_EVERY = 2_000;

export function createRecordIndex(driver: SqlDriver): RecordIndex {
  driver.exec(SCHEMA);
  const indexed = new Map<string, { record: SourceRecord; rowid: number }>();
  let nextRowid = 1;

  const statements = {
    record: driver.prepare('INSERT INTO records VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)'),
    text: driver.prepare('INSERT INTO record_text (rowid, title, text) VALUES (?,?,?)'),
    role: driver.prepare('INSERT OR IGNORE INTO record_roles VALUES (?,?)'),
    purpose: driver.prepare('INSERT OR IGNORE INTO record_purposes VALUES (?,?)'),
    label: driver.prepare('INSERT OR IGNORE INTO record_labels VALUES (?,?)'),
    claim: driver.prepare('INSERT OR IGNORE INTO record_claims VALUES (?,?)'),
    supersession: driver.prepare('INSERT OR IGNORE INTO supersessions VALUES (?,?)'),
    deletes: [
      'DELETE FROM records WHERE rowid = ?',
      'DELETE FROM record_text WHERE rowid = ?',
      'DELETE FROM record_roles WHERE record_rowid = ?',
      'DELETE FROM record_purposes WHERE record_rowid = ?',
      'DELETE FROM record_labels WHERE record_rowid = ?',
      'DELETE FROM record_claims WHERE record_rowid = ?',
    ].map((sql) => driver.prepare(sql)),
    deleteSupersessions: driver.prepare('DELETE FROM supersessions WHERE successor = ?'),
  };

  const insertRows = (statement: SqlStatement, rowid: number, values: readonly string[]) => {
    for (const value of values) statement.run([rowid, value]);
  };

  const insert = (record: SourceRecord, rowid: number) => {
    const times = recordTimes(record);
    const row: SqlValue[] = [
      rowid,
      record.id,
      record.project,
      record.scope,
      record.subject,
      times.knownAt,
      times.validFrom,
      times.validTo,
      record.lifecycle,
      record.sourceClass,
      record.authorityClass,
      record.reviewState,
      hasVerifiedProvenance(record) ? 1 : 0,
      record.sensitivity,
      record.evidence?.class ?? null,
      record.tokens,
      record.relevance,
    ];
    statements.record.run(row);
    statements.text.run([rowid, record.title, record.text]);
    insertRows(statements.role, rowid, record.access.roles);
    insertRows(statements.purpose, rowid, record.access.purposes);
    insertRows(statements.label, rowid, record.access.labels);
    if (record.evidence) insertRows(statements.claim, rowid, [...record.evidence.supports, ...record.evidence.contradicts]);
    for (const target of record.supersedes) statements.supersession.run([target, record.id]);
  };

  const remove = (id: string, rowid: number) => {
    for (const statement of statements.deletes) statement.run([rowid]);
    statements.deleteSupersessions.run([id]);
  };

  return {
    sync(records, onProgress) {
      let inserted = 0;
      let updated = 0;
      let deleted = 0;
      const wanted = new Set<string>();
      driver.transaction(() => {
        for (const [position, record] of records.entries()) {
          wanted.add(record.id);
          const current = indexed.get(record.id);
          if (current?.record === record) continue;
          if (current) {
            remove(record.id, current.rowid);
            insert(record, current.rowid);
            indexed.set(record.id, { record, rowid: current.rowid });
            updated += 1;
          } else {
            const rowid = nextRowid++;
            insert(record, rowid);
            indexed.set(record.id, { record, rowid });
            inserted += 1;
          }
          if (onProgress && (inserted + updated) % PROGRESS_EVERY === 0) onProgress(position + 1, records.length);
        }
        for (const [id, entry] of indexed) {
          if (wanted.has(id)) continue;
          remove(id, entry.rowid);
          indexed.delete(id);
          deleted += 1;
        }
      });
      onProgress?.(records.length, records.length);
      return { inserted, updated, deleted };
    },
    get size() {
      return indexed.size;
    },
  };
}
