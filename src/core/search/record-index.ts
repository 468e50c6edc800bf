import { canonicalJson, sortedSetJson } from '../canonical';
import type { LoweredAdmission } from '../passes/lower-admission';
import type { CheckedRecord, RecordSet } from '../passes/validate';
import type { SqlDriver, SqlStatement, SqlValue } from './driver';

/** The one tokenizer of every text index, and of the tokens the PostgreSQL adapter stores (src/adapters/postgres/tokens.ts). */
export const TOKENIZER = "tokenize='unicode61 remove_diacritics 2'";

/**
 * The gated columns are plain columns and side tables so that admission lowers to one parameterised
 * WHERE. Text lives in two contentless FTS5 tables (rowid = records.rowid), never stored twice:
 * `admitted_text` holds exactly the records the last admission admitted, so bm25's statistics are the
 * admitted set's; `corpus_text` holds every record, for the naive and post-filter baselines only.
 * `corpus_text` is built a slice per transaction, and each commit writes a segment: FTS5 merges them 16 at
 * a time (4 by default) and at once only from 32 (16), which makes the build faster and its longest slice no
 * longer (docs/DECISIONS.md). Merging changes no score: bm25 reads counts, not how segments are laid out.
 * A record's roles, purposes and labels are one of a few distinct lists, each stored once (`role_lists` and the
 * like) and named by number in the record's row, instead of a row per role and purpose of every record.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS records (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  fingerprint TEXT NOT NULL,
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
  relevance REAL,
  roles INTEGER NOT NULL,
  purposes INTEGER NOT NULL,
  labels INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS records_project_scope ON records (project, scope);
CREATE TABLE IF NOT EXISTS role_lists (list INTEGER NOT NULL, role TEXT NOT NULL, PRIMARY KEY (list, role)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS purpose_lists (list INTEGER NOT NULL, purpose TEXT NOT NULL, PRIMARY KEY (list, purpose)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS label_lists (list INTEGER NOT NULL, label TEXT NOT NULL, PRIMARY KEY (list, label)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS record_claims (record_rowid INTEGER NOT NULL, proposition TEXT NOT NULL, PRIMARY KEY (record_rowid, proposition)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS supersessions (target TEXT NOT NULL, successor TEXT NOT NULL, PRIMARY KEY (target, successor)) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS admitted_text USING fts5(title, text, content='', contentless_delete=1, ${TOKENIZER});
CREATE VIRTUAL TABLE IF NOT EXISTS corpus_text USING fts5(title, text, content='', contentless_delete=1, ${TOKENIZER});
INSERT INTO corpus_text (corpus_text, rank) VALUES ('automerge', 16);
INSERT INTO corpus_text (corpus_text, rank) VALUES ('crisismerge', 32);
CREATE TEMP TABLE IF NOT EXISTS admitted (rowid INTEGER PRIMARY KEY);
CREATE TEMP TABLE IF NOT EXISTS identity_names (name TEXT NOT NULL, identity TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS temp.identity_names_name ON identity_names (name);
CREATE TEMP TABLE IF NOT EXISTS accepted_evidence (proposition TEXT NOT NULL, class TEXT NOT NULL);
CREATE TEMP TABLE IF NOT EXISTS principals (principal INTEGER PRIMARY KEY);
CREATE TEMP TABLE IF NOT EXISTS principal_roles (principal INTEGER NOT NULL, role TEXT NOT NULL, PRIMARY KEY (principal, role)) WITHOUT ROWID;
`;

/**
 * The layout of the tables above, kept in the database's `user_version`. A database written with another
 * layout (a workspace saved by an earlier version of the app) has its index tables dropped and rebuilt
 * from the records: they are derived data, and a row that no longer fits its table must not fail a load.
 */
const INDEX_LAYOUT = 2;
const INDEX_TABLES = ['records', 'record_roles', 'record_purposes', 'record_labels', 'role_lists', 'purpose_lists', 'label_lists', 'record_claims', 'supersessions', 'admitted_text', 'corpus_text'];

function useCurrentLayout(driver: SqlDriver): void {
  const layout = Number(driver.all('PRAGMA user_version')[0]?.[0] ?? 0);
  if (layout === INDEX_LAYOUT) return;
  driver.exec(INDEX_TABLES.map((table) => `DROP TABLE IF EXISTS ${table};`).join('\n'));
  driver.exec(`PRAGMA user_version = ${INDEX_LAYOUT};`);
}

export interface SliceProgress {
  readonly done: number;
  readonly total: number;
}

export interface SyncReport {
  readonly inserted: number;
  readonly updated: number;
  readonly deleted: number;
}

/** The SQL half of the compiler: the records as rows, the admission predicate run over them, and the text indexes. */
export interface RecordIndex {
  /**
   * Brings the records table to exactly these records. Only rows whose record changed are written; the
   * index tells changed records from unchanged ones by itself (the same object, or else the same
   * fingerprint, which is all it has for rows it found in the database when it opened), and shares that
   * with nothing else.
   */
  sync(recordSet: RecordSet, onProgress?: (done: number, total: number) => void): SyncReport;
  /**
   * The ids the lowered predicate admits. A new predicate runs over every row; the same predicate again
   * re-runs only over the rows synced since (and the rows they supersede or superseded), and the answer is
   * the last one with those rows' ids added or taken out. A returned set is never changed afterwards.
   */
  admit(lowered: LoweredAdmission): ReadonlySet<string>;
  /** Makes `admitted_text` hold exactly the rows the last `admit` admitted, taking texts from `recordSet`. */
  syncAdmittedText(recordSet: RecordSet): void;
  /** Makes `corpus_text` hold every record (the baselines' whole-corpus index). */
  syncCorpusText(recordSet: RecordSet, onProgress?: (done: number, total: number) => void): void;
  /**
   * `sync` a slice at a time, each slice in its own transaction, so a caller can yield between slices and
   * stop. Stopped early, the index stays consistent: the next `sync` looks at every record again.
   */
  syncSteps(recordSet: RecordSet, slice: number): Generator<SliceProgress, SyncReport>;
  /**
   * Indexes the text of up to `slice` rows per step into `corpus_text`, for the record set last synced in
   * full. Returns true once every row has its text, false when it stopped because a sync is under way.
   */
  corpusTextSteps(slice: number): Generator<SliceProgress, boolean>;
  /** The id of the record a row holds: a ranking reads rowids from a text index and names them with this. */
  idOfRow(rowid: number): string | undefined;
  /** Change whenever the rows of `admitted_text` / `corpus_text` change: what a ranking memo depends on. */
  readonly admittedTextGeneration: number;
  readonly corpusTextGeneration: number;
  readonly size: number;
}

const PROGRESS_EVERY = 2_000;
/** Records per batched INSERT: big enough that statement overhead vanishes, small enough to keep copies short. */
const BATCH_SIZE = 500;

/**
 * The side tables' rows go in batches: each table gets one JSON array per batch and one statement execution,
 * which for their two short columns costs no more than a row at a time and keeps the calls into WASM few.
 * `jsonb_each` reads the array once as binary JSON; with `json_each` every `value->>n` parsed the row's text
 * again. A record's own row is the other way round: eighteen `value->>n` extractions per row cost twice what
 * binding its columns does (the driver binds without copying), so it is written a row at a time.
 */
const BATCH_INSERTS = {
  claim: 'INSERT OR IGNORE INTO record_claims SELECT value->>0, value->>1 FROM jsonb_each(?)',
  supersession: 'INSERT OR IGNORE INTO supersessions SELECT value->>0, value->>1 FROM jsonb_each(?)',
} as const;

type BatchTable = keyof typeof BATCH_INSERTS;

interface IndexedRow {
  readonly rowid: number;
  readonly fingerprint: string;
  /** The record this row was last matched with in this session; null for a row found in the database. */
  checked: CheckedRecord | null;
  /** The last full sync that found this row's record in its record set: the rest are removed at its end. */
  seenIn: number;
}

/** A table of distinct lists of strings, each stored once and named by a number. */
interface ListTable {
  /** The number of the list holding exactly `values` (order and repeats aside), stored now if it is new. */
  numberOf(values: readonly string[]): number;
}

function createListTable(driver: SqlDriver, table: string, column: string): ListTable {
  const numbers = new Map<string, number>();
  const members = new Map<number, string[]>();
  for (const [list, value] of readPairs(driver, `SELECT list AS a, ${column} AS b FROM ${table} ORDER BY list`)) {
    const found = members.get(Number(list));
    if (found === undefined) members.set(Number(list), [String(value)]);
    else found.push(String(value));
  }
  // An empty list has no rows; it is number 0 in every database.
  numbers.set('[]', 0);
  // Keyed by the same spelling `numberOf` looks up: SQLite's order (UTF-8 bytes) is not JavaScript's (UTF-16 units).
  for (const [list, values] of members) numbers.set(sortedSetJson(values), list);
  let next = 1;
  for (const list of members.keys()) next = Math.max(next, list + 1);
  const insert = driver.prepare(`INSERT OR IGNORE INTO ${table} (list, ${column}) VALUES (?, ?)`);
  return {
    numberOf(values) {
      // Two lists holding the same strings share this spelling, whatever their order or repeats.
      const key = sortedSetJson(values);
      const known = numbers.get(key);
      if (known !== undefined) return known;
      const list = next++;
      for (const value of values) insert.run([list, value]);
      numbers.set(key, list);
      return list;
    },
  };
}

/** One column of a query's rows, read as one JSON array instead of a step per row through the WASM boundary. */
function readColumn(driver: SqlDriver, sql: string): SqlValue[] {
  const [row] = driver.all(`SELECT json_group_array(a) FROM (${sql})`);
  return JSON.parse(String(row?.[0] ?? '[]')) as SqlValue[];
}

/** Two columns, `a` and `b`, likewise. */
function readPairs(driver: SqlDriver, sql: string, params: readonly SqlValue[] = []): [SqlValue, SqlValue][] {
  const [row] = driver.all(`SELECT json_group_array(json_array(a, b)) FROM (${sql})`, params);
  return JSON.parse(String(row?.[0] ?? '[]')) as [SqlValue, SqlValue][];
}

export function createRecordIndex(driver: SqlDriver): RecordIndex {
  useCurrentLayout(driver);
  driver.exec(SCHEMA);
  const lists = {
    roles: createListTable(driver, 'role_lists', 'role'),
    purposes: createListTable(driver, 'purpose_lists', 'purpose'),
    labels: createListTable(driver, 'label_lists', 'label'),
  };
  const rows = new Map<string, IndexedRow>();
  const idByRowid = new Map<number, string>();
  const [stored] = driver.all('SELECT json_group_array(json_array(id, rowid, fingerprint)) FROM records');
  for (const [id, rowid, fingerprint] of JSON.parse(String(stored?.[0] ?? '[]')) as [string, number, string][]) {
    rows.set(id, { rowid, fingerprint, checked: null, seenIn: 0 });
    idByRowid.set(rowid, id);
  }
  let nextRowid = Number(driver.all('SELECT coalesce(max(rowid), 0) + 1 FROM records')[0]?.[0] ?? 1);
  /** The array last synced, so that a toggle (one object replaced in place) is found without a lookup per record. */
  let lastSynced: readonly CheckedRecord[] | null = null;
  /** Counts full syncs (`seenIn`). */
  let fullSyncs = 0;
  /** The set the rows hold, for texts looked up between steps; null while a sliced sync is under way. */
  let syncedSet: RecordSet | null = null;
  /** Rows whose admission may have changed since the last `admit`: written rows and what they supersede. */
  const touched = new Set<number>();
  /** Ids of rows deleted since the last `admit` (their `admitted` rows went with them). */
  const removedSinceAdmit = new Set<string>();
  let admissionKey: string | null = null;
  /** The ids `admitted` held at the last `admit`, as returned then: a new set replaces it, it is never changed. */
  let admittedIds: ReadonlySet<string> | null = null;
  let admittedTextGeneration = 0;
  let corpusTextGeneration = 0;
  /**
   * Whether every row is known to have its text in `corpus_text`: set when a sync of the texts ends, cleared
   * when a row is written without its text or a text is dropped. Spares each baselines call an anti-join
   * over every row that finds nothing (a toggle keeps the texts).
   */
  let corpusTextComplete = false;

  const inserts = Object.fromEntries(Object.entries(BATCH_INSERTS).map(([table, sql]) => [table, driver.prepare(sql)])) as Record<BatchTable, SqlStatement>;
  const statements = {
    deletes: [
      'DELETE FROM records WHERE rowid = ?',
      'DELETE FROM record_claims WHERE record_rowid = ?',
      'DELETE FROM admitted WHERE rowid = ?',
    ].map((sql) => driver.prepare(sql)),
    deleteSupersessions: driver.prepare('DELETE FROM supersessions WHERE successor = ?'),
    targetsOf: driver.prepare('SELECT r.rowid FROM supersessions s JOIN records r ON r.id = s.target WHERE s.successor = ?'),
    deleteAdmittedText: driver.prepare('DELETE FROM admitted_text WHERE rowid = ?'),
    deleteCorpusText: driver.prepare('DELETE FROM corpus_text WHERE rowid = ?'),
    // A row at a time: texts are long, and a JSON batch of them cost more to write, parse and collect
    // than the bind and step per row it saved.
    insertAdmittedText: driver.prepare('INSERT INTO admitted_text (rowid, title, text) VALUES (?, ?, ?)'),
    insertCorpusText: driver.prepare('INSERT INTO corpus_text (rowid, title, text) VALUES (?, ?, ?)'),
    insertRecord: driver.prepare(`INSERT INTO records VALUES (${Array.from({ length: 21 }, () => '?').join(', ')})`),
    hasAdmittedText: driver.prepare('SELECT 1 FROM admitted_text_docsize WHERE id = ?'),
    hasCorpusText: driver.prepare('SELECT 1 FROM corpus_text_docsize WHERE id = ?'),
  };

  const emptyBatch = (): Record<BatchTable, SqlValue[][]> => ({ claim: [], supersession: [] });
  let batch = emptyBatch();
  const queued = new Set<number>();

  const flush = () => {
    if (queued.size === 0) return;
    for (const table of Object.keys(inserts) as BatchTable[]) {
      if (batch[table].length > 0) inserts[table].run([JSON.stringify(batch[table])]);
    }
    batch = emptyBatch();
    queued.clear();
  };

  const queueInsert = (item: CheckedRecord, rowid: number) => {
    const { record } = item;
    statements.insertRecord.run([
      rowid,
      record.id,
      item.fingerprint,
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
      item.provenanceVerified ? 1 : 0,
      record.sensitivity,
      record.evidence?.class ?? null,
      record.tokens,
      record.relevance,
      lists.roles.numberOf(record.access.roles),
      lists.purposes.numberOf(record.access.purposes),
      lists.labels.numberOf(record.access.labels),
    ]);
    for (const proposition of record.evidence === null ? [] : [...record.evidence.supports, ...record.evidence.contradicts]) batch.claim.push([rowid, proposition]);
    for (const target of record.supersedes) {
      batch.supersession.push([target, record.id]);
      const targetRow = rows.get(target);
      if (targetRow !== undefined) touched.add(targetRow.rowid);
    }
    queued.add(rowid);
    touched.add(rowid);
    if (queued.size === BATCH_SIZE) flush();
  };

  /** A successor's state decides its targets' admission: the targets it had are looked at again too. */
  const touchTargetsOf = (id: string) => {
    for (const [rowid] of statements.targetsOf.all([id])) touched.add(Number(rowid));
  };

  const dropText = (rowid: number) => {
    if (statements.hasAdmittedText.all([rowid]).length > 0) {
      statements.deleteAdmittedText.run([rowid]);
      admittedTextGeneration += 1;
    }
    if (statements.hasCorpusText.all([rowid]).length > 0) {
      statements.deleteCorpusText.run([rowid]);
      corpusTextGeneration += 1;
      corpusTextComplete = false;
    }
  };

  const remove = (id: string, rowid: number, withText: boolean) => {
    // A record listed twice is queued and then replaced: its queued rows must land before they are deleted.
    if (queued.has(rowid)) flush();
    touchTargetsOf(id);
    if (withText) dropText(rowid);
    for (const statement of statements.deletes) statement.run([rowid]);
    removedSinceAdmit.add(id);
    statements.deleteSupersessions.run([id]);
  };

  /** Whether the row holds this record's text: same record object, or (for a row found on disk) the same fingerprint. */
  const sameText = (row: IndexedRow, item: CheckedRecord) =>
    row.checked === null ? row.fingerprint === item.fingerprint : row.checked.record.title === item.record.title && row.checked.record.text === item.record.text;

  const write = (item: CheckedRecord, row: IndexedRow | undefined): 'inserted' | 'updated' | 'kept' => {
    const id = item.record.id;
    if (row !== undefined && (row.checked === item || row.fingerprint === item.fingerprint)) {
      row.checked = item;
      row.seenIn = fullSyncs;
      return 'kept';
    }
    if (row !== undefined) {
      remove(id, row.rowid, !sameText(row, item));
      queueInsert(item, row.rowid);
      rows.set(id, { rowid: row.rowid, fingerprint: item.fingerprint, checked: item, seenIn: fullSyncs });
      return 'updated';
    }
    const rowid = nextRowid++;
    corpusTextComplete = false;
    queueInsert(item, rowid);
    rows.set(id, { rowid, fingerprint: item.fingerprint, checked: item, seenIn: fullSyncs });
    idByRowid.set(rowid, id);
    return 'inserted';
  };

  const insertTexts = (statement: SqlStatement, wanted: readonly [SqlValue, SqlValue][], recordSet: RecordSet, onProgress?: (done: number, total: number) => void) => {
    wanted.forEach(([rowid, id], index) => {
      const item = recordSet.byId.get(String(id));
      if (item === undefined) throw new Error(`the index holds ${id}, which the record set does not: sync the record set first`);
      statement.run([rowid, item.record.title, item.record.text]);
      if (onProgress && (index + 1) % PROGRESS_EVERY === 0) onProgress(index + 1, wanted.length);
    });
  };

  /** Removes every row whose record the current full sync did not see (at its end); returns how many. */
  const removeUnseen = (): number => {
    let removed = 0;
    for (const [id, row] of rows) {
      if (row.seenIn === fullSyncs) continue;
      remove(id, row.rowid, true);
      touched.delete(row.rowid);
      rows.delete(id);
      idByRowid.delete(row.rowid);
      removed += 1;
    }
    return removed;
  };

  return {
    sync(recordSet, onProgress) {
      const checked = recordSet.checked;
      const report = { inserted: 0, updated: 0, deleted: 0 };
      const count = (outcome: 'inserted' | 'updated' | 'kept') => {
        if (outcome !== 'kept') report[outcome] += 1;
      };
      // The very array the rows were last brought to (a compile after `index`, an edit of the contract alone): nothing to look at.
      if (checked !== lastSynced) {
        driver.transaction(() => {
          // The same ids in the same places as last time (a toggle replaces objects in place): only replaced objects need a look.
          // Objects are compared before ids: reading 100,000 ids, scattered through memory, cost more than the rest of a toggle's sync.
          const aligned =
            lastSynced !== null &&
            lastSynced.length === checked.length &&
            lastSynced.every((item, position) => {
              const now = checked[position];
              return item === now || item.record.id === now?.record.id;
            });
          if (aligned && lastSynced !== null) {
            for (let position = 0; position < checked.length; position += 1) {
              const item = checked[position] as CheckedRecord;
              if (item !== lastSynced[position]) count(write(item, rows.get(item.record.id)));
            }
          } else {
            fullSyncs += 1;
            checked.forEach((item, position) => {
              count(write(item, rows.get(item.record.id)));
              if (onProgress && (position + 1) % PROGRESS_EVERY === 0) onProgress(position + 1, checked.length);
            });
            flush();
            report.deleted += removeUnseen();
          }
          flush();
        });
      }
      lastSynced = checked;
      syncedSet = recordSet;
      onProgress?.(checked.length, checked.length);
      return report;
    },

    *syncSteps(recordSet, slice) {
      const checked = recordSet.checked;
      const report = { inserted: 0, updated: 0, deleted: 0 };
      const count = (outcome: 'inserted' | 'updated' | 'kept') => {
        if (outcome !== 'kept') report[outcome] += 1;
      };
      // Until the last slice the rows are part old set, part new: nothing may take them for either.
      lastSynced = null;
      syncedSet = null;
      fullSyncs += 1;
      for (let start = 0; start < checked.length; start += slice) {
        driver.transaction(() => {
          for (const item of checked.slice(start, start + slice)) count(write(item, rows.get(item.record.id)));
          flush();
        });
        yield { done: Math.min(start + slice, checked.length), total: checked.length };
      }
      driver.transaction(() => {
        report.deleted += removeUnseen();
      });
      lastSynced = checked;
      syncedSet = recordSet;
      return report;
    },

    *corpusTextSteps(slice) {
      const limit = Math.max(1, Math.floor(slice));
      // Rows are visited in rowid order from a cursor, so a step never scans what earlier steps indexed; a pass that
      // finds nothing starts again from the first row once, for rows written behind the cursor between steps.
      let cursor = 0;
      for (;;) {
        const recordSet = syncedSet;
        if (recordSet === null) return false;
        const total = recordSet.checked.length;
        const pending = readPairs(driver, `SELECT a, b FROM (SELECT r.rowid AS a, r.id AS b FROM records r WHERE r.rowid > ${cursor} AND NOT EXISTS (SELECT 1 FROM corpus_text_docsize d WHERE d.id = r.rowid) ORDER BY r.rowid LIMIT ${limit})`);
        if (pending.length === 0) {
          if (cursor === 0) {
            corpusTextComplete = true;
            return true;
          }
          cursor = 0;
          continue;
        }
        cursor = Number(pending[pending.length - 1]?.[0] ?? cursor);
        driver.transaction(() => insertTexts(statements.insertCorpusText, pending, recordSet));
        corpusTextGeneration += 1;
        const [indexed] = driver.all('SELECT count(*) FROM corpus_text_docsize');
        yield { done: Math.min(total, Number(indexed?.[0] ?? 0)), total };
      }
    },

    admit(lowered) {
      const key = canonicalJson([lowered.where, lowered.params, lowered.identityNames, lowered.acceptedEvidence, lowered.principals, lowered.principalRoles]);
      const rowids = JSON.stringify([...touched]);
      // The last answer, when it was for this predicate: only the rows looked at again can have changed since.
      const previous = key === admissionKey ? admittedIds : null;
      driver.transaction(() => {
        if (previous === null) {
          driver.exec('DELETE FROM identity_names; DELETE FROM accepted_evidence; DELETE FROM principals; DELETE FROM principal_roles; DELETE FROM admitted;');
          driver.all('INSERT INTO identity_names SELECT value->>0, value->>1 FROM json_each(?)', [JSON.stringify(lowered.identityNames)]);
          driver.all('INSERT INTO accepted_evidence SELECT value->>0, value->>1 FROM json_each(?)', [JSON.stringify(lowered.acceptedEvidence)]);
          driver.all('INSERT OR IGNORE INTO principal_roles SELECT value->>0, value->>1 FROM json_each(?)', [JSON.stringify(lowered.principalRoles)]);
          driver.all('INSERT INTO principals SELECT value FROM json_each(?)', [JSON.stringify(lowered.principals)]);
          driver.all(`INSERT INTO admitted SELECT r.rowid FROM records r WHERE ${lowered.where}`, lowered.params);
        } else if (touched.size > 0) {
          driver.all('DELETE FROM admitted WHERE rowid IN (SELECT value FROM json_each(?))', [rowids]);
          driver.all(`INSERT INTO admitted SELECT r.rowid FROM records r WHERE r.rowid IN (SELECT value FROM json_each(?)) AND (${lowered.where})`, [rowids, ...lowered.params]);
        }
      });
      admissionKey = key;
      let answer: ReadonlySet<string>;
      if (previous === null) {
        answer = new Set(readColumn(driver, 'SELECT r.id AS a FROM admitted JOIN records r ON r.rowid = admitted.rowid').map(String));
      } else if (touched.size > 0 || removedSinceAdmit.size > 0) {
        // Reading every admitted id back took longer than the admission itself: the rows re-run are read instead.
        const next = new Set(previous);
        for (const id of removedSinceAdmit) next.delete(id);
        const now = readPairs(driver, 'SELECT r.id AS a, EXISTS (SELECT 1 FROM admitted WHERE admitted.rowid = r.rowid) AS b FROM records r WHERE r.rowid IN (SELECT value FROM json_each(?))', [rowids]);
        for (const [id, admitted] of now) {
          if (admitted === 1) next.add(String(id));
          else next.delete(String(id));
        }
        answer = next;
      } else answer = previous;
      admittedIds = answer;
      touched.clear();
      removedSinceAdmit.clear();
      return answer;
    },

    syncAdmittedText(recordSet) {
      driver.transaction(() => {
        const gone = readColumn(driver, 'SELECT id AS a FROM admitted_text_docsize WHERE id NOT IN (SELECT rowid FROM admitted)');
        for (const rowid of gone) statements.deleteAdmittedText.run([Number(rowid)]);
        const wanted = readPairs(driver, 'SELECT admitted.rowid AS a, r.id AS b FROM admitted JOIN records r ON r.rowid = admitted.rowid WHERE admitted.rowid NOT IN (SELECT id FROM admitted_text_docsize)');
        insertTexts(statements.insertAdmittedText, wanted, recordSet);
        if (gone.length > 0 || wanted.length > 0) admittedTextGeneration += 1;
      });
    },

    syncCorpusText(recordSet, onProgress) {
      if (!corpusTextComplete) {
        driver.transaction(() => {
          const wanted = readPairs(driver, 'SELECT r.rowid AS a, r.id AS b FROM records r WHERE r.rowid NOT IN (SELECT id FROM corpus_text_docsize)');
          insertTexts(statements.insertCorpusText, wanted, recordSet, onProgress);
          if (wanted.length > 0) corpusTextGeneration += 1;
        });
        corpusTextComplete = true;
      }
      onProgress?.(recordSet.checked.length, recordSet.checked.length);
    },

    idOfRow: (rowid) => idByRowid.get(rowid),

    get admittedTextGeneration() {
      return admittedTextGeneration;
    },
    get corpusTextGeneration() {
      return corpusTextGeneration;
    },
    get size() {
      return rows.size;
    },
  };
}
