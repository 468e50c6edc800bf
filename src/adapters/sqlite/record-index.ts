import { canonicalJson } from '../../core/canonical';
import type { CheckedRecord, RecordSet } from '../../core/phases/1-validate/validate';
import type { SqlDriver, SqlStatement, SqlValue } from './driver';
import { createAdmittedScorer } from './admitted-scorer';
import { changedPositions } from './changed-positions';
import { createListTable, readColumn, readPairs, SCHEMA, useCurrentLayout } from './record-tables';
import type { RecordIndex } from './record-index-api';

export { TOKENIZER } from './record-tables';

const idAt = (list: readonly CheckedRecord[], position: number) => (list[position] as CheckedRecord).record.id;

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
  const scorer = createAdmittedScorer(driver);
  let corpusTextGeneration = 0;
  /**
   * Whether every row is known to have its text in `corpus_text`: set when a sync of the texts ends, cleared
   * when a row is written without its text or a text is dropped. Spares each baselines call an anti-join
   * over every row that finds nothing (a toggle keeps the texts).
   */
  let corpusTextComplete = false;

  const inserts = Object.fromEntries(
    Object.entries(BATCH_INSERTS).map(([table, sql]) => [table, driver.prepare(sql)]),
  ) as Record<BatchTable, SqlStatement>;
  const statements = {
    deletes: [
      'DELETE FROM records WHERE rowid = ?',
      'DELETE FROM record_claims WHERE record_rowid = ?',
      'DELETE FROM admitted WHERE rowid = ?',
    ].map((sql) => driver.prepare(sql)),
    deleteSupersessions: driver.prepare('DELETE FROM supersessions WHERE successor = ?'),
    targetsOf: driver.prepare(
      'SELECT r.rowid FROM supersessions s JOIN records r ON r.id = s.target WHERE s.successor = ?',
    ),
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
    for (const proposition of record.evidence === null
      ? []
      : [...record.evidence.supports, ...record.evidence.contradicts])
      batch.claim.push([rowid, proposition]);
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
      scorer.left(rowid);
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

  /**
   * Whether the row holds this record's text: same record object, or (for a row found on disk) the same fingerprint.
   */
  const sameText = (row: IndexedRow, item: CheckedRecord) =>
    row.checked === null
      ? row.fingerprint === item.fingerprint
      : row.checked.record.title === item.record.title && row.checked.record.text === item.record.text;

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

  const insertTexts = (
    statement: SqlStatement,
    wanted: readonly [SqlValue, SqlValue][],
    recordSet: RecordSet,
    onProgress?: (done: number, total: number) => void,
    onInserted?: (rowid: number, title: string, text: string) => void,
  ) => {
    wanted.forEach(([rowid, id], index) => {
      const item = recordSet.byId.get(String(id));
      if (item === undefined)
        throw new Error(`the index holds ${id}, which the record set does not: sync the record set first`);
      statement.run([rowid, item.record.title, item.record.text]);
      onInserted?.(Number(rowid), item.record.title, item.record.text);
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
      // The very array the rows were last brought to (a compile after `index`, an edit of the contract alone): nothing
      // to look at.
      if (checked !== lastSynced) {
        driver.transaction(() => {
          // The same ids in the same places as last time (a toggle replaces objects in place): only replaced objects
          // need a look.
          // Objects are compared before ids: reading every id, scattered through memory, costs more than the rest of
          // a toggle's sync.
          const last = lastSynced;
          const replaced = last !== null && last.length === checked.length ? changedPositions(last, checked) : null;
          if (
            last !== null &&
            replaced !== null &&
            replaced.every((position) => idAt(checked, position) === idAt(last, position))
          ) {
            for (const position of replaced)
              count(write(checked[position] as CheckedRecord, rows.get(idAt(checked, position))));
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
        const pending = readPairs(
          driver,
          `SELECT a, b FROM (SELECT r.rowid AS a, r.id AS b FROM records r WHERE r.rowid > ${cursor} AND NOT EXISTS (SELECT 1 FROM corpus_text_docsize d WHERE d.id = r.rowid) ORDER BY r.rowid LIMIT ${limit})`,
        );
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
      const key = canonicalJson([
        lowered.where,
        lowered.params,
        lowered.identityNames,
        lowered.acceptedEvidence,
        lowered.principals,
        lowered.principalRoles,
      ]);
      const rowids = JSON.stringify([...touched]);
      // The last answer, when it was for this predicate: only the rows looked at again can have changed since.
      const previous = key === admissionKey ? admittedIds : null;
      driver.transaction(() => {
        if (previous === null) {
          driver.exec(
            'DELETE FROM identity_names; DELETE FROM accepted_evidence; DELETE FROM principals; DELETE FROM principal_roles; DELETE FROM admitted;',
          );
          driver.all('INSERT INTO identity_names SELECT value->>0, value->>1 FROM json_each(?)', [
            JSON.stringify(lowered.identityNames),
          ]);
          driver.all('INSERT INTO accepted_evidence SELECT value->>0, value->>1 FROM json_each(?)', [
            JSON.stringify(lowered.acceptedEvidence),
          ]);
          driver.all('INSERT OR IGNORE INTO principal_roles SELECT value->>0, value->>1 FROM json_each(?)', [
            JSON.stringify(lowered.principalRoles),
          ]);
          driver.all('INSERT INTO principals SELECT value FROM json_each(?)', [JSON.stringify(lowered.principals)]);
          driver.all(`INSERT INTO admitted SELECT r.rowid FROM records r WHERE ${lowered.where}`, lowered.params);
        } else if (touched.size > 0) {
          driver.all('DELETE FROM admitted WHERE rowid IN (SELECT value FROM json_each(?))', [rowids]);
          driver.all(
            `INSERT INTO admitted SELECT r.rowid FROM records r WHERE r.rowid IN (SELECT value FROM json_each(?)) AND (${lowered.where})`,
            [rowids, ...lowered.params],
          );
        }
      });
      admissionKey = key;
      let answer: ReadonlySet<string>;
      if (previous === null) {
        answer = new Set(
          readColumn(driver, 'SELECT r.id AS a FROM admitted JOIN records r ON r.rowid = admitted.rowid').map(String),
        );
      } else if (touched.size > 0 || removedSinceAdmit.size > 0) {
        // Reading every admitted id back costs more than the admission itself: the rows re-run are read instead.
        const next = new Set(previous);
        for (const id of removedSinceAdmit) next.delete(id);
        const now = readPairs(
          driver,
          'SELECT r.id AS a, EXISTS (SELECT 1 FROM admitted WHERE admitted.rowid = r.rowid) AS b FROM records r WHERE r.rowid IN (SELECT value FROM json_each(?))',
          [rowids],
        );
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
        const gone = readColumn(
          driver,
          'SELECT id AS a FROM admitted_text_docsize WHERE id NOT IN (SELECT rowid FROM admitted)',
        );
        for (const rowid of gone) {
          statements.deleteAdmittedText.run([Number(rowid)]);
          scorer.left(Number(rowid));
        }
        const wanted = readPairs(
          driver,
          'SELECT admitted.rowid AS a, r.id AS b FROM admitted JOIN records r ON r.rowid = admitted.rowid WHERE admitted.rowid NOT IN (SELECT id FROM admitted_text_docsize)',
        );
        insertTexts(statements.insertAdmittedText, wanted, recordSet, undefined, scorer.entered);
        if (gone.length > 0 || wanted.length > 0) admittedTextGeneration += 1;
      });
    },

    syncCorpusText(recordSet, onProgress) {
      if (!corpusTextComplete) {
        driver.transaction(() => {
          const wanted = readPairs(
            driver,
            'SELECT r.rowid AS a, r.id AS b FROM records r WHERE r.rowid NOT IN (SELECT id FROM corpus_text_docsize)',
          );
          insertTexts(statements.insertCorpusText, wanted, recordSet, onProgress);
          if (wanted.length > 0) corpusTextGeneration += 1;
        });
        corpusTextComplete = true;
      }
      onProgress?.(recordSet.checked.length, recordSet.checked.length);
    },

    idOfRow: (rowid) => idByRowid.get(rowid),
    rankAdmitted: (query) => scorer.rank(query, (rowid) => idByRowid.get(rowid)),

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
