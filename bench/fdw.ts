import { sha256InNode } from '../src/lib/node-sha256';
import { compileInDatabase } from '../src/adapters/postgres/compile-in-database';
import type { Database } from '../src/adapters/postgres/schema';
import { COORDINATOR_SETTINGS } from '../src/adapters/postgres/shard-snapshots';
import type { Tokeniser } from '../src/adapters/postgres/tokens';
import type { Contract } from '../src/core/format/contract';
import { serialiseReceipt } from '../src/core/phases/7-attest/attest';
import { watchStatements } from '../src/adapters/postgres/watch-statements';

/**
 * What the coordinator (src/adapters/postgres/shards.ts) is asked during a compile, and what it sends to the
 * shards: each statement recorded as the adapter sends it, then explained on the coordinator.
 */

export interface Statement {
  readonly text: string;
  readonly values: readonly unknown[];
}

/** The database with every statement it is sent recorded: the compile's statements, to explain afterwards. */
export function recording(database: Database): Database & { readonly statements: Statement[] } {
  const statements: Statement[] = [];
  return { ...watchStatements(database, { before: (text, values) => statements.push({ text, values }) }), statements };
}

/**
 * The statements of a compile that read the distributed tables (not session settings or the coordinator's own tables).
 */
export function readingStatements(statements: readonly Statement[]): Statement[] {
  return statements.filter(
    ({ text }) => /^\s*(WITH|SELECT)\b/.test(text) && /\.(records|documents|postings|supersession_breaks)\b/.test(text),
  );
}

export interface PushdownReport {
  /** Each statement's EXPLAIN (VERBOSE, COSTS OFF) on the coordinator. */
  readonly plans: readonly string[];
  /** Foreign scans, and those that ran a join or an aggregate on the shard rather than on the coordinator. */
  readonly foreignScans: number;
  readonly remoteJoins: number;
  readonly remoteAggregates: number;
}

export async function explainStatements(database: Database, statements: readonly Statement[]): Promise<PushdownReport> {
  const plans: string[] = [];
  // Under the settings the compile's transaction ran with.
  await database.query('BEGIN');
  await database.query(COORDINATOR_SETTINGS);
  for (const { text, values } of statements) {
    const { rows } = await database.query<{ 'QUERY PLAN': string }>(`EXPLAIN (VERBOSE, COSTS OFF) ${text}`, values);
    plans.push(rows.map((row) => row['QUERY PLAN']).join('\n'));
  }
  await database.query('ROLLBACK');
  const all = plans.join('\n');
  const count = (pattern: RegExp) => all.match(pattern)?.length ?? 0;
  return {
    plans,
    foreignScans: count(/Foreign Scan/g),
    remoteJoins: count(/Relations: .*JOIN/g),
    remoteAggregates: count(/Relations: Aggregate/g),
  };
}

/**
 * The receipt compiled on one server (`single`) and through the coordinator, `runs` times each, alternated, and what
 * the coordinator pushed down.
 */
export async function compareOnShards(
  single: Database,
  coordinator: Database,
  contract: Contract,
  tokeniser: Tokeniser,
  runs = 1,
): Promise<{
  readonly same: boolean;
  readonly receipt: string;
  readonly pushdown: PushdownReport;
  /** Wall time of each compile in milliseconds, one server's and the coordinator's, alternated run by run. */
  readonly ms: { readonly single: readonly number[]; readonly sharded: readonly number[] };
}> {
  const ms = { single: [] as number[], sharded: [] as number[] };
  const receipts = new Set<string>();
  let recorded = recording(coordinator);
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    const one = await compileInDatabase(sha256InNode, single, contract, tokeniser);
    const between = performance.now();
    recorded = recording(coordinator);
    const sharded = await compileInDatabase(sha256InNode, recorded, contract, tokeniser);
    ms.single.push(between - started);
    ms.sharded.push(performance.now() - between);
    if (!one.ok || !sharded.ok)
      throw new Error(`${one.ok ? '' : one.error.message} ${sharded.ok ? '' : sharded.error.message}`);
    receipts.add(serialiseReceipt(one.value.outcome.receipt));
    receipts.add(serialiseReceipt(sharded.value.outcome.receipt));
  }
  const [receipt = ''] = receipts;
  const pushdown = await explainStatements(coordinator, readingStatements(recorded.statements));
  return { same: receipts.size === 1, receipt, pushdown, ms };
}
