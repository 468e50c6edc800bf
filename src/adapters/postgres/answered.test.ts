import { sha256 } from '../../core/test-support/sha256';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createSqliteCompiler } from '../sqlite/compiler';
import type { CompileError, Result } from '../../core/errors';
import { serialiseReceipt } from '../../core/phases/7-attest/attest';
import type * as validate from '../../core/phases/1-validate/validate';
import { createRecordSet } from '../../core/phases/1-validate/validate';
import type { SourceRecord } from '../../core/format/record';
import { buildContract, buildRecord } from '../../core/test-support/builders';
import { openInMemoryDatabase } from '../../sqlite/load-sqlite';
import { namingAdapterOf } from '../conformance/conformance-suite';
import { ANSWER_PAGE } from './answer-rows';
import { compileInDatabase, type DatabaseCompile } from './compile-in-database';
import { loadRecordSet } from './load-records';
import type { Database } from './schema';
import { openTestDatabase, POSTGRES_URL, type TestDatabase } from './test-server';
import type { Tokeniser } from './tokens';
import { createUnicodeTokeniser } from './unicode61';
import { watchStatements } from './watch-statements';

/** How many records Node validated: every record read back, or only those that can enter the packet. */
const reads = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../core/phases/1-validate/validate', async (importOriginal) => {
  const actual = await importOriginal<typeof validate>();
  return {
    ...actual,
    readRecordLine: (file: string, lineNumber: number, line: string): ReturnType<typeof validate.readRecordLine> => {
      reads.count += 1;
      return actual.readRecordLine(file, lineNumber, line);
    },
  };
});

const contract = buildContract({ tokenBudget: 35, requiredRecords: ['need'] });
const admitted: SourceRecord[] = [
  buildRecord({ id: 'need', text: 'refund policy for every order' }),
  ...Array.from({ length: 12 }, (_, index) =>
    buildRecord({
      id: `hit-${String(index).padStart(2, '0')}`,
      text: `refund ${index % 3 === 0 ? 'policy ' : ''}note ${index}`,
    }),
  ),
  buildRecord({ id: 'quiet', text: 'nothing to see' }),
];
/** Records the contract refuses, for one reason or another: what a compile must not read. */
const refused = (count: number): SourceRecord[] =>
  Array.from({ length: count }, (_, index) =>
    buildRecord({
      id: `away-${String(index).padStart(4, '0')}`,
      text: 'refund policy elsewhere',
      ...(index % 2 === 0 ? { project: 'other' } : { scope: 'legal' }),
    }),
  );

/** The database, with every row a statement returns counted: what crosses to Node. */
function counting(database: Database): { database: Database; rows: () => number } {
  let rows = 0;
  return {
    database: watchStatements(database, {
      rows: (_, returned) => {
        rows += returned.length;
        return returned;
      },
    }),
    rows: () => rows,
  };
}

/** The database, with the rows of the statement that returns the admitted records' gate columns rewritten. */
function lyingAbout(database: Database, rewrite: (row: Record<string, unknown>) => Record<string, unknown>): Database {
  return watchStatements(database, { rows: (text, rows) => (text.includes('AS phrases') ? rows.map(rewrite) : rows) });
}

const mismatchOf = (result: Result<DatabaseCompile, CompileError>) =>
  result.ok ? `a ${result.value.outcome.status}` : `${result.error.code} ${result.error.recordId ?? ''}`;

describe.skipIf(POSTGRES_URL === undefined)('a candidates compile in PostgreSQL costs the answer', () => {
  let database: TestDatabase;
  let tokeniser: Tokeniser;
  beforeAll(async () => {
    database = await openTestDatabase();
    tokeniser = createUnicodeTokeniser();
  });

  const loadAndCompile = async (records: readonly SourceRecord[]) => {
    const loaded = await loadRecordSet(sha256, database, 'records.jsonl', createRecordSet(sha256, records), tokeniser);
    if (!loaded.ok) throw new Error(loaded.error.message);
    const counted = counting(database);
    reads.count = 0;
    const compiled = await compileInDatabase(sha256, counted.database, contract, tokeniser);
    if (!compiled.ok) throw new Error(compiled.error.message);
    return { compiled: compiled.value, rows: counted.rows(), validated: reads.count };
  };

  it('reads and validates the same records in Node however many refused records the database holds, and says how many it refused', async () => {
    const few = await loadAndCompile([...admitted, ...refused(10)]);
    const many = await loadAndCompile([...admitted, ...refused(400)]);
    expect(many.compiled.outcome.status).toBe('packet');
    expect(many.rows).toBe(few.rows);
    expect(many.validated).toBe(few.validated);
    // Only the records that can enter the packet are read whole: fewer than the admitted ones.
    expect(many.validated).toBeLessThan(admitted.length);
    const omitted = (compiled: DatabaseCompile) => compiled.outcome.receipt.omitted?.rows ?? {};
    expect(omitted(many.compiled)).toMatchObject({ EXCLUDE_PROJECT: 200, EXCLUDE_SCOPE: 200 });
    expect(omitted(few.compiled)).toMatchObject({ EXCLUDE_PROJECT: 5, EXCLUDE_SCOPE: 5 });
    expect(many.compiled.outcome.counts).toMatchObject({
      candidates: admitted.length + 400,
      admitted: admitted.length,
    });
  });

  it('takes the admitted rows from the driver a page at a time: no result in Node holds more than a page of them', async () => {
    const many = Array.from({ length: ANSWER_PAGE + 300 }, (_, index) =>
      buildRecord({ id: `many-${String(index).padStart(5, '0')}`, text: `refund note ${index}` }),
    );
    const records = [admitted[0] as SourceRecord, ...many];
    const loaded = await loadRecordSet(sha256, database, 'many.jsonl', createRecordSet(sha256, records), tokeniser);
    if (!loaded.ok) throw new Error(loaded.error.message);
    let largest = 0;
    const measured: Database = {
      schema: database.schema,
      copyFrom: (statement, chunks) => database.copyFrom(statement, chunks),
      query: async (text, values) => {
        const result = await database.query(text, values);
        largest = Math.max(largest, result.rows.length);
        return result as never;
      },
      queryPages: (text, values, size, take) =>
        database.queryPages(text, values, size, (rows) => {
          largest = Math.max(largest, rows.length);
          take(rows as never);
        }),
    };
    const compiled = await compileInDatabase(sha256, measured, contract, tokeniser);
    expect(compiled.ok ? compiled.value.outcome.counts.admitted : compiled.error.message).toBe(records.length);
    expect(largest).toBeLessThanOrEqual(ANSWER_PAGE);
  });

  it("gives the built-in path's candidates receipt for the same records, but for the adapter it names", async () => {
    const records = [...admitted, ...refused(40)];
    const { compiled } = await loadAndCompile(records);
    const builtin = await createSqliteCompiler(sha256, await openInMemoryDatabase()).compile({
      contract,
      recordSet: createRecordSet(sha256, records),
      attestation: 'candidates',
    });
    if (!builtin.ok) throw new Error(builtin.error.message);
    expect(serialiseReceipt(namingAdapterOf(compiled.outcome.receipt, builtin.value.receipt))).toBe(
      serialiseReceipt(builtin.value.receipt),
    );
    expect(compiled.outcome.counts).toEqual(builtin.value.counts);
  });

  it('reads each phrase hit once for the admitted rows, not once per admitted row', async () => {
    await loadAndCompile([...admitted, ...refused(10)]);
    const statements: { text: string; values: readonly unknown[] | undefined }[] = [];
    const watched = watchStatements(database, {
      before: (text, values) => {
        if (text.includes('AS phrases')) statements.push({ text, values });
      },
    });
    const compiled = await compileInDatabase(sha256, watched, contract, tokeniser);
    expect(compiled.ok).toBe(true);
    const [statement] = statements;
    if (statement === undefined) throw new Error('no admitted-rows statement ran');
    const { rows } = await database.query<{ 'QUERY PLAN': { Plan: Record<string, unknown> }[] }>(
      `EXPLAIN (FORMAT JSON) ${statement.text}`,
      statement.values,
    );
    // A subplan run for each admitted row that scans the phrase hits again costs admitted × hits.
    const subplans: string[] = [];
    const walk = (node: Record<string, unknown>, under: string | null) => {
      const name = typeof node['Subplan Name'] === 'string' ? node['Subplan Name'] : under;
      if (name !== null && name.startsWith('SubPlan') && node['CTE Name'] === 'freq') subplans.push(name);
      for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child, name);
    };
    const explained = rows[0]?.['QUERY PLAN'][0];
    if (explained === undefined) throw new Error('no plan');
    walk(explained.Plan, null);
    expect(subplans).toEqual([]);
  });

  it('runs admission once per compile: one statement answers the counts, the statistics and the admitted rows', async () => {
    await loadAndCompile([...admitted, ...refused(40)]);
    const values: (readonly unknown[])[] = [];
    const watched = watchStatements(database, { before: (_, bound) => values.push(bound) });
    const compiled = await compileInDatabase(sha256, watched, contract, tokeniser);
    if (!compiled.ok) throw new Error(compiled.error.message);
    // Every statement that runs the plan's admission echoes the plan's digest, so the rows it returns are known to be
    // of that plan.
    const digest = compiled.value.outcome.receipt.executedBy.planDigest;
    expect(values.filter((bound) => bound[0] === digest)).toHaveLength(1);
    expect(compiled.value.outcome.receipt.omitted?.rows).toMatchObject({ EXCLUDE_PROJECT: 20, EXCLUDE_SCOPE: 20 });
  });

  it('refuses to make a packet when an admitted row the database returns fails a gate: ADAPTER_MISMATCH', async () => {
    await loadAndCompile([...admitted, ...refused(10)]);
    const lying = lyingAbout(database, (row) => (row.id === 'quiet' ? { ...row, scope: 'legal' } : row));
    expect(mismatchOf(await compileInDatabase(sha256, lying, contract, tokeniser))).toBe('ADAPTER_MISMATCH quiet');
    // A row that claims another fingerprint than its document's is caught when the record is read whole.
    const other = lyingAbout(database, (row) =>
      row.id === 'hit-00' ? { ...row, fingerprint: `${String(row.fingerprint).slice(0, -1)}0` } : row,
    );
    expect(mismatchOf(await compileInDatabase(sha256, other, contract, tokeniser))).toBe('ADAPTER_MISMATCH hit-00');
  });

  it('refuses to make a packet when a record that enters it is not what its row says: ADAPTER_MISMATCH', async () => {
    await loadAndCompile([...admitted, ...refused(10)]);
    const compiled = await compileInDatabase(sha256, database, contract, tokeniser);
    if (!compiled.ok || compiled.value.outcome.status !== 'packet')
      throw new Error('the honest database gives a packet');
    const entered = compiled.value.outcome.receipt.selected.find((id) => id !== 'need') ?? '';
    // The document now says the record is another project's, while its gate columns still admit it.
    await database.query(
      `UPDATE ${database.schema}.documents SET document = jsonb_set(document::jsonb, '{project}', '"other"')::text WHERE id = $1`,
      [entered],
    );
    expect(mismatchOf(await compileInDatabase(sha256, database, contract, tokeniser))).toBe(
      `ADAPTER_MISMATCH ${entered}`,
    );
    // Gate columns that admit what the document refuses, with the loaded fingerprint: the evaluator refuses the whole
    // record.
    await database.query(
      `UPDATE ${database.schema}.documents SET document = jsonb_set(document::jsonb, '{project}', '"atlas"')::text WHERE id = $1`,
      [entered],
    );
    await database.query(`UPDATE ${database.schema}.records SET project = 'atlas' WHERE id = 'away-0000'`);
    await database.query(`UPDATE ${database.schema}.postings SET title_tf = 40 WHERE record_id = 'away-0000'`);
    const admittedWrongly = await compileInDatabase(sha256, database, contract, tokeniser);
    expect(mismatchOf(admittedWrongly)).toBe('ADAPTER_MISMATCH away-0000');
  });
});
