import type { PlanAnsweringStore } from './answered-admission';
import type { CompileError, Result } from './errors';
import type { RecordSet } from './phases/1-validate/validate';
import type { AdmittingStore } from './phases/4-admit/adapter';
import type { Ranking } from './phases/5-rank/ranking';

/**
 * Everything the compiler asks of the store that holds the records: the pipeline (`compile.ts`) reads only
 * this, so SQLite in the worker or the CLI and PostgreSQL run the same passes. Asynchronous because a store
 * may be across a network; a store answers for one snapshot of its records for as long as a compile runs.
 * Declared ranking is not here: it reads the records' own fields, so the core does it for every store.
 * A store either hands over the records to compile (SQLite), or also answers a plan with counts (`answers`,
 * PostgreSQL): then a `candidates` compile reads only the admitted rows and the records that can enter the
 * packet (src/core/answered-admission.ts), and a `full` one, which needs a row per record, the records.
 */
export interface Store extends AdmittingStore {
  /** Offered by a store that answers admission itself: refused records stay in the store as counts per reason. */
  readonly answers?: PlanAnsweringStore;
  /**
   * The records this compile reads, given the caller's record set: the whole set (SQLite first writes it into
   * its index; PostgreSQL reads its own back in its snapshot, whatever the caller holds).
   */
  recordsToCompile(recordSet: RecordSet): Promise<Result<RecordSet, CompileError>>;
  /**
   * Makes what `rankAdmitted` scores hold exactly the admitted set (`recordSet` gives the texts), and names that
   * content for a memo key: two calls that answer equal names rank alike for the same query.
   */
  holdAdmitted(admitted: ReadonlySet<string>, recordSet: RecordSet): Promise<unknown>;
  /**
   * bm25 of the query over the admitted set with the admitted set's statistics alone: every admitted match, best first.
   */
  rankAdmitted(query: string, admitted: ReadonlySet<string>): Promise<Ranking>;
}
