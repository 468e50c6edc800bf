import { sha256InNode } from '../../lib/node-sha256';
import type { CompileError, Result } from '../../core/errors';
import { createRecordSet } from '../../core/phases/1-validate/validate';
import type { AdmissionPlan, PlanClause } from '../../core/phases/4-admit/admission-plan';
import { compileInDatabase, type DatabaseCompile } from '../postgres/compile-in-database';
import type { Connection } from '../postgres/connect';
import { loadRecordSet } from '../postgres/load-records';
import { lowerPlan } from '../postgres/lower';
import type { Database } from '../postgres/schema';
import type { Tokeniser } from '../postgres/tokens';
import { conformanceCases } from './corpus';
import type { SuiteFinding } from './conformance-suite';
import { watchStatements } from '../postgres/watch-statements';

const WAIT_MS = 300;

function finding(
  what: string,
  result: Result<DatabaseCompile, CompileError>,
  code: CompileError['code'],
  words: RegExp,
): SuiteFinding {
  const passed = !result.ok && result.error.code === code && words.test(result.error.message);
  const got = result.ok ? `a ${result.value.outcome.status}` : `${result.error.code}: ${result.error.message}`;
  return {
    section: 'errors',
    adapter: 'postgresql',
    passed,
    what: passed ? `${what}: ${code}, no packet` : `${what}: expected ${code} and no packet, got ${got}`,
  };
}

/**
 * Holds an exclusive lock on the table admission reads (the gate columns), until `release`: every statement that reads
 * it waits.
 */
async function lockRecords(locker: Connection, schema: string): Promise<() => Promise<void>> {
  await locker.query('BEGIN');
  await locker.query(`LOCK TABLE ${schema}.records IN ACCESS EXCLUSIVE MODE`);
  return async () => {
    await locker.query('ROLLBACK');
  };
}

/** A connection that loses the last row of the admission statement's answer: what a truncated transfer looks like. */
function losingLastRow(database: Database): Database {
  return watchStatements(database, {
    rows: (text, rows) => (text.includes('viewed AS') ? rows.slice(0, -1) : rows),
  });
}

/**
 * The error semantics: a statement timeout, a connection dropped while the statement runs, and an answer
 * cut short each end in ADAPTER_INCOMPLETE and no packet (never in unfiltered candidates); an operator the
 * lowering does not know fails the plan (LOWERING_UNSUPPORTED). `open` gives fresh connections to the same
 * schema: one to hold locks, and victims whose connection is dropped.
 */
export async function runErrorSemantics(
  database: Database,
  open: () => Promise<Connection>,
  tokeniser: Tokeniser,
): Promise<SuiteFinding[]> {
  const sample = conformanceCases(0).find((item) => item.name.startsWith('deny alone: no deny'));
  if (sample === undefined) throw new Error('the conformance corpus has no deny case');
  const loaded = await loadRecordSet(
    sha256InNode,
    database,
    'error semantics',
    createRecordSet(sha256InNode, sample.records),
    tokeniser,
  );
  if (!loaded.ok) throw new Error(loaded.error.message);
  const findings: SuiteFinding[] = [];
  const locker = await open();
  try {
    let release = await lockRecords(locker, database.schema);
    const timedOut = await compileInDatabase(sha256InNode, database, sample.contract, tokeniser, {
      statementTimeoutMs: WAIT_MS,
    });
    await release();
    findings.push(finding('a statement timeout', timedOut, 'ADAPTER_INCOMPLETE', /cancel|timeout/i));

    const victim = await open();
    const { rows } = await victim.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    release = await lockRecords(locker, database.schema);
    const pending = compileInDatabase(sha256InNode, victim, sample.contract, tokeniser, {
      statementTimeoutMs: 20 * WAIT_MS,
    });
    await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
    await locker.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
    const dropped = await pending;
    await release();
    await victim.end();
    findings.push(
      finding('a connection dropped while the statement ran', dropped, 'ADAPTER_INCOMPLETE', /connection|terminat/i),
    );
  } finally {
    await locker.end();
  }

  findings.push(
    finding(
      'a partial result',
      await compileInDatabase(sha256InNode, losingLastRow(database), sample.contract, tokeniser),
      'ADAPTER_INCOMPLETE',
      /partial result/,
    ),
  );

  const plan: AdmissionPlan = {
    kind: 'admission-plan',
    version: 1,
    clauses: [{ gate: 'deny', op: 'label-like', field: 'labels' } as unknown as PlanClause],
  };
  const lowered = lowerPlan(plan, 'sha256:unsupported', database.schema);
  const unsupported = !lowered.ok && lowered.error.code === 'LOWERING_UNSUPPORTED';
  findings.push({
    section: 'errors',
    adapter: 'postgresql',
    passed: unsupported,
    what: unsupported
      ? 'an unsupported operator: LOWERING_UNSUPPORTED, the plan fails'
      : 'an unsupported operator was lowered',
  });
  return findings;
}
