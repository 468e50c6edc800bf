import type { RecordSet } from '../../core/phases/1-validate/validate';
import type { Ranking } from '../../core/phases/5-rank/ranking';
import type { SqlValue } from './driver';

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
  /**
   * `rankAdmitted` over `admitted_text`, computed by the in-memory scorer that follows its rows (admitted-scorer.ts).
   */
  rankAdmitted(query: string): Ranking;
  /** Change whenever the rows of `admitted_text` / `corpus_text` change: what a ranking memo depends on. */
  readonly admittedTextGeneration: number;
  readonly corpusTextGeneration: number;
  readonly size: number;
}

/**
 * The admission plan as SQL over `records r`, plus the rows of the per-predicate temp tables (identity
 * directory, accepted evidence, each principal's roles). The list gates are decided once per distinct list
 * (`r.roles IN (SELECT list …)`: SQLite evaluates an uncorrelated subquery once, a correlated EXISTS per record). Lists
 * are bound as one JSON array each, so a
 * plan's sets may be as long as they like without running out of bound parameters.
 */
export interface LoweredAdmission {
  /** The digest of the plan this was lowered from: what the adapter echoes. */
  readonly digest: string;
  readonly where: string;
  readonly params: readonly SqlValue[];
  readonly identityNames: readonly (readonly [string, string])[];
  readonly acceptedEvidence: readonly (readonly [string, string])[];
  /** The principals' positions in the chain, and (position, role) for every role of every principal. */
  readonly principals: readonly number[];
  readonly principalRoles: readonly (readonly [number, string])[];
}
