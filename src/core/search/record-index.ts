import type { SourceRecord } from '../format/record';
import { recordTimes } from '../passes/resolve';
import { hasVerifiedProvenance } from '../passes/validate';
import { replacedPositions } from '../replaced-positions';
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
  /**
   * Ids whose admission may have changed: every inserted, updated or deleted record, and every record
   * one of them supersedes (before or after), because a successor's state decides its target's.
   */
  readonly touched: ReadonlySet<string>;
}

export interface RecordIndex {
  /** Brings the index to exactly these records, touching only rows whose record object changed. */
  sync(records: readonly SourceRecord[], onProgress?: (done: number, total: number) => void): SyncReport;
  readonly size: number;
  /** Changes whenever something a ranking reads changes (title, text, declared relevance, or the set of rows). */
  readonly rankingGeneration: number;
}

const PROGRESS_EVERY = 2_000;
/** Records per batched INSERT: big enough that statement overhead vanishes, small enough to keep copies short. */
const BATCH_SIZE = 500;

/**
 * Inserts go in batches: each table gets one JSON array per batch and one statement execution, so a
 * record costs a JSON.stringify instead of a dozen bind/step/reset round trips into WASM. SQLite's
 * JSON reader returns the very integers, strings and doubles that binding them one by one would.
 */
const BATCH_INSERTS = {
  records: `INSERT INTO records SELECT value->>0, value->>1, value->>2, value->>3, value->>4, value->>5, value->>6, value->>7, value->>8,
    value->>9, value->>10, value->>11, value->>12, value->>13, value->>14, value->>15, value->>16 FROM json_each(?)`,
  text: 'INSERT INTO record_text (rowid, title, text) SELECT value->>0, value->>1, value->>2 FROM json_each(?)',
  role: 'INSERT OR IGNORE INTO record_roles SELECT value->>0, value->>1 FROM json_each(?)',
  purpose: 'INSERT OR IGNORE INTO record_purposes SELECT value->>0, value->>1 FROM json_each(?)',
  label: 'INSERT OR IGNORE INTO record_labels SELECT value->>0, value->>1 FROM json_each(?)',
  claim: 'INSERT OR IGNORE INTO record_claims SELECT value->>0, value->>1 FROM json_each(?)',
  supersession: 'INSERT OR IGNORE INTO supersessions SELECT value->>0, value->>1 FROM json_each(?)',
} as const;

type BatchTable = keyof typeof BATCH_INSERTS;

interface IndexedEntry {
  readonly record: SourceRecord;
  readonly rowid: number;
  /** The sync that last saw this id among the wanted records; older entries are deleted. */
  seenIn: number;
}

export function createRecordIndex(driver: SqlDriver): RecordIndex {
  driver.exec(SCHEMA);
  const indexed = new Map<string, IndexedEntry>();
  let nextRowid = 1;
  let generation = 0;
  let rankingGeneration = 0;
  let lastSynced: readonly SourceRecord[] | null = null;

  const inserts = Object.fromEntries(Object.entries(BATCH_INSERTS).map(([table, sql]) => [table, driver.prepare(sql)])) as Record<BatchTable, SqlStatement>;
  const statements = {
    deleteText: driver.prepare('DELETE FROM record_text WHERE rowid = ?'),
    deletes: [
      'DELETE FROM records WHERE rowid = ?',
      'DELETE FROM record_roles WHERE record_rowid = ?',
      'DELETE FROM record_purposes WHERE record_rowid = ?',
      'DELETE FROM record_labels WHERE record_rowid = ?',
      'DELETE FROM record_claims WHERE record_rowid = ?',
    ].map((sql) => driver.prepare(sql)),
    deleteSupersessions: driver.prepare('DELETE FROM supersessions WHERE successor = ?'),
  };

  const emptyBatch = (): Record<BatchTable, SqlValue[][]> => ({ records: [], text: [], role: [], purpose: [], label: [], claim: [], supersession: [] });
  let batch = emptyBatch();
  const queuedRowids = new Set<number>();

  const pairs = (rows: SqlValue[][], rowid: number, values: readonly string[]) => {
    for (const value of values) rows.push([rowid, value]);
  };

  const queueInsert = (record: SourceRecord, rowid: number, withText: boolean) => {
    const times = recordTimes(record);
    batch.records.push([
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
    ]);
    if (withText) batch.text.push([rowid, record.title, record.text]);
    pairs(batch.role, rowid, record.access.roles);
    pairs(batch.purpose, rowid, record.access.purposes);
    pairs(batch.label, rowid, record.access.labels);
    if (record.evidence) pairs(batch.claim, rowid, [...record.evidence.supports, ...record.evidence.contradicts]);
    for (const target of record.supersedes) batch.supersession.push([target, record.id]);
    queuedRowids.add(rowid);
  };

  const flush = () => {
    if (queuedRowids.size === 0) return;
    for (const table of Object.keys(inserts) as BatchTable[]) {
      if (batch[table].length > 0) inserts[table].run([JSON.stringify(batch[table])]);
    }
    batch = emptyBatch();
    queuedRowids.clear();
  };

  const remove = (id: string, rowid: number, withText: boolean) => {
    // A record listed twice is queued and then replaced: its queued rows must land before they are deleted.
    if (queuedRowids.has(rowid)) flush();
    if (withText) statements.deleteText.run([rowid]);
    for (const statement of statements.deletes) statement.run([rowid]);
    statements.deleteSupersessions.run([id]);
  };

  return {
    sync(records, onProgress) {
      // Record arrays are never changed once built, so the array synced last time needs no walk.
      if (records === lastSynced) {
        onProgress?.(records.length, records.length);
        return { inserted: 0, updated: 0, deleted: 0, touched: new Set<string>() };
      }
      let inserted = 0;
      let updated = 0;
      let deleted = 0;
      const touched = new Set<string>();
      const touch = (record: SourceRecord) => {
        touched.add(record.id);
        for (const target of record.supersedes) touched.add(target);
      };
      generation += 1;
      const replace = (record: SourceRecord, current: IndexedEntry) => {
        // A control that only changes metadata leaves the full-text index, and so every bm25 score, alone.
        const sameText = current.record.title === record.title && current.record.text === record.text;
        if (!sameText || current.record.relevance !== record.relevance) rankingGeneration += 1;
        touch(current.record);
        remove(record.id, current.rowid, !sameText);
        queueInsert(record, current.rowid, !sameText);
        indexed.set(record.id, { record, rowid: current.rowid, seenIn: generation });
        updated += 1;
        touch(record);
        if (queuedRowids.size === BATCH_SIZE) flush();
      };
      const replaced = lastSynced === null ? null : replacedPositions(lastSynced, records);
      driver.transaction(() => {
        if (replaced !== null) {
          // The same ids in the same places as last time: only the replaced objects need work, and nothing can be gone.
          for (const position of replaced) {
            const record = records[position] as SourceRecord;
            const current = indexed.get(record.id);
            if (current) replace(record, current);
          }
          flush();
          return;
        }
        for (const [position, record] of records.entries()) {
          const current = indexed.get(record.id);
          if (current?.record === record) {
            current.seenIn = generation;
            continue;
          }
          if (current) {
            replace(record, current);
          } else {
            const rowid = nextRowid++;
            queueInsert(record, rowid, true);
            indexed.set(record.id, { record, rowid, seenIn: generation });
            inserted += 1;
            rankingGeneration += 1;
            touch(record);
            if (queuedRowids.size === BATCH_SIZE) flush();
          }
          if (onProgress && (inserted + updated) % PROGRESS_EVERY === 0) onProgress(position + 1, records.length);
        }
        flush();
        for (const [id, entry] of indexed) {
          if (entry.seenIn === generation) continue;
          touch(entry.record);
          remove(id, entry.rowid, true);
          indexed.delete(id);
          deleted += 1;
          rankingGeneration += 1;
        }
      });
      lastSynced = records;
      onProgress?.(records.length, records.length);
      return { inserted, updated, deleted, touched };
    },
    get size() {
      return indexed.size;
    },
    get rankingGeneration() {
      return rankingGeneration;
    },
  };
}
