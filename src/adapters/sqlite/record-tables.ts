import { sortedSetJson } from '../../core/canonical';
import type { SqlDriver, SqlValue } from './driver';

/**
 * The one tokenizer of every text index, and of the tokens the PostgreSQL adapter stores
 * (src/adapters/postgres/tokens.ts).
 */
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
export const SCHEMA = `
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
const INDEX_TABLES = [
  'records',
  'record_roles',
  'record_purposes',
  'record_labels',
  'role_lists',
  'purpose_lists',
  'label_lists',
  'record_claims',
  'supersessions',
  'admitted_text',
  'corpus_text',
];

export function useCurrentLayout(driver: SqlDriver): void {
  const layout = Number(driver.all('PRAGMA user_version')[0]?.[0] ?? 0);
  if (layout === INDEX_LAYOUT) return;
  driver.exec(INDEX_TABLES.map((table) => `DROP TABLE IF EXISTS ${table};`).join('\n'));
  driver.exec(`PRAGMA user_version = ${INDEX_LAYOUT};`);
}

/** A table of distinct lists of strings, each stored once and named by a number. */
export interface ListTable {
  /** The number of the list holding exactly `values` (order and repeats aside), stored now if it is new. */
  numberOf(values: readonly string[]): number;
}

export function createListTable(driver: SqlDriver, table: string, column: string): ListTable {
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
export function readColumn(driver: SqlDriver, sql: string): SqlValue[] {
  const [row] = driver.all(`SELECT json_group_array(a) FROM (${sql})`);
  return JSON.parse(String(row?.[0] ?? '[]')) as SqlValue[];
}

/** Two columns, `a` and `b`, likewise. */
export function readPairs(driver: SqlDriver, sql: string, params: readonly SqlValue[] = []): [SqlValue, SqlValue][] {
  const [row] = driver.all(`SELECT json_group_array(json_array(a, b)) FROM (${sql})`, params);
  return JSON.parse(String(row?.[0] ?? '[]')) as [SqlValue, SqlValue][];
}
