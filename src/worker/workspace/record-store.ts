import type { SourceLocation } from '../../core/errors';
import type { SourceRecord } from '../../core/format/record';
import { compiledRecordSchema } from '../../core/format/input-files';
import { recordSetOf, type CheckedRecord, type RecordSet } from '../../core/phases/1-validate/validate';
import type { SqlDriver } from '../../adapters/sqlite/driver';
import { endsChunk } from '../../core/tree-digest';

/**
 * The records of a loaded file as validation left them, kept in the workspace database so that a reload
 * can rebuild its RecordSet without reading, parsing and hashing the file again. One row per record: a JSON
 * array of what the receipt needs (fingerprint, provenance verified, instants, line) and the record itself.
 * Rows of a set are written in file order, so rowid order is file order.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS stored_sets (id TEXT NOT NULL, file TEXT NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (id, file)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS stored_records (rowid INTEGER PRIMARY KEY, load TEXT NOT NULL, file TEXT NOT NULL, doc TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS stored_records_load ON stored_records (load, file);
`;

/** Records read back per query: one string of a few MB at the benchmark's text, parsed at once. */
const READ_CHUNK = 5_000;

type StoredDoc = readonly [
  fingerprint: string,
  provenanceVerified: 0 | 1,
  knownAt: number,
  validFrom: number,
  validTo: number | null,
  line: number | null,
  record: SourceRecord,
];

const isInstant = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * Storage is a boundary like any file: a document is read back through the record schema (its compiled parser).
 * The six values before the record are checked here rather than by a zod tuple, which cost about as much as the
 * record's own parser (docs/DECISIONS.md). Null for anything else.
 */
function readStoredDoc(value: unknown): StoredDoc | null {
  if (!Array.isArray(value) || value.length !== 7) return null;
  const [fingerprint, provenanceVerified, knownAt, validFrom, validTo, line, record] = value as unknown[];
  if (
    typeof fingerprint !== 'string' ||
    (provenanceVerified !== 0 && provenanceVerified !== 1) ||
    !isInstant(knownAt) ||
    !isInstant(validFrom)
  )
    return null;
  if ((validTo !== null && !isInstant(validTo)) || (line !== null && !Number.isSafeInteger(line))) return null;
  const parsed = compiledRecordSchema.safeParse(record);
  return parsed.success
    ? [fingerprint, provenanceVerified, knownAt, validFrom, validTo, line as number | null, parsed.data]
    : null;
}

export interface StoredProgress {
  readonly done: number;
  readonly total: number;
  /** Bytes of record documents written so far, to say how much space a full disk refused. */
  readonly bytes: number;
}

export interface RecordStore {
  /** Writes the record set of one file of load `load`, a slice per step, each slice in its own transaction. */
  writeSteps(load: string, file: string, recordSet: RecordSet, slice: number): Generator<StoredProgress, void>;
  /**
   * The record sets stored in full for a load, by file name (a file written only in part is not among them);
   * null when a stored document does not validate, so that the load's files are read again instead.
   */
  read(load: string): Map<string, RecordSet> | null;
  /**
   * Drops every load but these (an unsaved load, or one the saved workspace no longer names) and any set stored in
   * part.
   */
  retain(loads: readonly string[]): void;
  remove(load: string): void;
  clear(): void;
}

export function createRecordStore(driver: SqlDriver): RecordStore {
  driver.exec(SCHEMA);
  const insert = driver.prepare('INSERT INTO stored_records (load, file, doc) VALUES (?, ?, ?)');

  const remove = (load: string) =>
    driver.transaction(() => {
      driver.all('DELETE FROM stored_records WHERE load = ?', [load]);
      driver.all('DELETE FROM stored_sets WHERE id = ?', [load]);
    });

  return {
    *writeSteps(load, file, recordSet, slice) {
      const checked = recordSet.checked;
      let bytes = 0;
      for (let start = 0; start < checked.length; start += slice) {
        // A row at a time: bound without a copy, a document costs less than escaping it again inside a JSON array.
        driver.transaction(() => {
          for (const item of checked.slice(start, start + slice)) {
            const doc = JSON.stringify(storedDocOf(item, recordSet.locations.get(item.record.id)));
            bytes += doc.length;
            insert.run([load, file, doc]);
          }
        });
        yield { done: Math.min(start + slice, checked.length), total: checked.length, bytes };
      }
      // The set counts only once all its rows are in: a load stopped halfway is never read back.
      driver.all('INSERT OR REPLACE INTO stored_sets (id, file, count) VALUES (?, ?, ?)', [load, file, checked.length]);
    },

    read(load) {
      const sets = new Map<string, RecordSet>();
      for (const [storedFile, storedCount] of driver.all('SELECT file, count FROM stored_sets WHERE id = ?', [load])) {
        const file = String(storedFile);
        const count = Number(storedCount);
        const checked: CheckedRecord[] = [];
        const locations = new Map<string, SourceLocation>();
        let after = 0;
        for (;;) {
          const [chunk] = driver.all(
            "SELECT '[' || coalesce(group_concat(doc, ','), '') || ']', max(rowid) FROM (SELECT rowid, doc FROM stored_records WHERE load = ? AND file = ? AND rowid > ? ORDER BY rowid LIMIT ?)",
            [load, file, after, READ_CHUNK],
          );
          const docs: unknown = JSON.parse(String(chunk?.[0] ?? '[]'));
          if (!Array.isArray(docs) || docs.length === 0) break;
          after = Number(chunk?.[1]);
          for (const doc of docs) {
            const stored = readStoredDoc(doc);
            // A document this version cannot read: the file is read again instead.
            if (stored === null) return null;
            const [fingerprint, provenanceVerified, knownAt, validFrom, validTo, line, record] = stored;
            checked.push({
              record,
              fingerprint,
              provenanceVerified: provenanceVerified === 1,
              knownAt,
              validFrom,
              validTo,
              endsDigestChunk: endsChunk(record.id),
            });
            if (line !== null) locations.set(record.id, { file, line });
          }
        }
        if (checked.length !== count) return null;
        sets.set(file, recordSetOf(checked, locations));
      }
      return sets;
    },

    retain(loads) {
      const keep = JSON.stringify(loads);
      driver.transaction(() => {
        driver.all('DELETE FROM stored_records WHERE load NOT IN (SELECT value FROM json_each(?))', [keep]);
        // Rows of a set whose storing was stopped (the tab closed meanwhile): never read, so not kept.
        driver.exec(
          'DELETE FROM stored_records WHERE NOT EXISTS (SELECT 1 FROM stored_sets s WHERE s.id = ' +
            'stored_records.load AND s.file = stored_records.file)',
        );
        driver.all('DELETE FROM stored_sets WHERE id NOT IN (SELECT value FROM json_each(?))', [keep]);
      });
    },

    remove,

    clear() {
      driver.exec('DELETE FROM stored_records; DELETE FROM stored_sets;');
    },
  };
}

function storedDocOf(item: CheckedRecord, location: SourceLocation | undefined): StoredDoc {
  return [
    item.fingerprint,
    item.provenanceVerified ? 1 : 0,
    item.knownAt,
    item.validFrom,
    item.validTo,
    location?.line ?? null,
    item.record,
  ];
}
