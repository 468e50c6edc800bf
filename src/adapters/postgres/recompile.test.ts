import { sha256 } from '../../core/test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { serialiseReceipt } from '../../core/phases/7-attest/attest';
import { createRecordSet } from '../../core/phases/1-validate/validate';
import type { SourceRecord } from '../../core/format/record';
import { buildContract, buildRecord } from '../../core/test-support/builders';
import { compileInDatabase, createDatabaseCompiler, type DatabaseCompiler } from './compile-in-database';
import { LOG_SNAPSHOTS } from './change-log';
import { deleteRecords, loadRecordSet, type LoadMode } from './load-records';
import type { Database } from './schema';
import { openTestDatabase, POSTGRES_URL, type TestDatabase } from './test-server';
import type { Tokeniser } from './tokens';
import { createUnicodeTokeniser } from './unicode61';
import { watchStatements } from './watch-statements';

const contract = buildContract({ tokenBudget: 35, requiredRecords: ['need'] });
const records: SourceRecord[] = [
  buildRecord({ id: 'need', text: 'refund policy for every order' }),
  ...Array.from({ length: 8 }, (_, index) =>
    buildRecord({ id: `hit-${index}`, text: `refund ${index % 3 === 0 ? 'policy ' : ''}note ${index}` }),
  ),
  ...Array.from({ length: 6 }, (_, index) =>
    buildRecord({ id: `away-${index}`, text: 'refund policy elsewhere', project: 'other' }),
  ),
];

/** The database, with the text of every statement it runs kept. */
function recording(database: Database): { database: Database; statements: string[] } {
  const statements: string[] = [];
  return {
    statements,
    database: watchStatements(database, { before: (text) => statements.push(text) }),
  };
}

/** Whether any statement read the full-text postings: a whole answer gathers the query terms' hits there. */
const readsPostings = (statements: readonly string[]) => statements.some((text) => text.includes('.postings'));
/** Whether a compile counted the refused records by scanning them all. */
const countsRefused = (statements: readonly string[]) => statements.some((text) => text.includes('refused_sum AS'));

describe.skipIf(POSTGRES_URL === undefined)('a recompile in PostgreSQL after a change no admitted record sees', () => {
  let database: TestDatabase;
  let tokeniser: Tokeniser;
  let compiler: DatabaseCompiler;
  let statements: string[];
  beforeAll(async () => {
    database = await openTestDatabase();
    tokeniser = createUnicodeTokeniser();
  });

  const load = async (lines: readonly SourceRecord[], mode: LoadMode) => {
    const loaded = await loadRecordSet(sha256, database, 'records.jsonl', createRecordSet(sha256, lines), tokeniser, {
      mode,
    });
    if (!loaded.ok) throw new Error(loaded.error.message);
  };

  /** A compile by the long-lived compiler, the statements it ran, and the receipt a fresh compile gives. */
  const recompile = async () => {
    statements.length = 0;
    const kept = await compiler.compile(contract);
    const ran = [...statements];
    const fresh = await compileInDatabase(sha256, database, contract, tokeniser);
    if (!kept.ok || !fresh.ok)
      throw new Error(`both compile: ${!kept.ok ? kept.error.message : ''} ${!fresh.ok ? fresh.error.message : ''}`);
    return { kept: kept.value.outcome, fresh: fresh.value.outcome, ran, memo: compiler.memoStats() };
  };

  it('uses the last answer again, judging only the record that changed, and gives the fresh receipt', async () => {
    await load(records, 'replace');
    const recorded = recording(database);
    statements = recorded.statements;
    compiler = createDatabaseCompiler(sha256, recorded.database, tokeniser);
    const first = await recompile();
    expect(readsPostings(first.ran)).toBe(true);
    expect(first.memo.get('answered-draft')).toEqual({ reused: 0, computed: 1 });

    // A refused record refused for another reason now: the counts and the record-set digest change, the packet not.
    await load([{ ...(records[10] as SourceRecord), scope: 'legal', project: 'atlas' }], 'upsert');
    const second = await recompile();
    expect(readsPostings(second.ran)).toBe(false);
    expect(countsRefused(second.ran)).toBe(false);
    expect(second.memo.get('answered-draft')).toEqual({ reused: 1, computed: 0 });
    expect(second.memo.get('answered-outcome')).toEqual({ reused: 1, computed: 0 });
    expect(second.kept.receipt.omitted).not.toEqual(first.kept.receipt.omitted);
    expect(second.kept.receipt.recordSetDigest).not.toBe(first.kept.receipt.recordSetDigest);
    expect(serialiseReceipt(second.kept.receipt)).toBe(serialiseReceipt(second.fresh.receipt));
  });

  it('judges only the records changed since, as they were and as they are: removed, added, changed twice', async () => {
    const settled = await recompile();
    expect(countsRefused(settled.ran)).toBe(false);
    expect(await deleteRecords(database, ['away-0'])).toMatchObject({ ok: true });
    const added = buildRecord({ id: 'away-new', project: 'other', text: 'nothing here' });
    await load([added], 'upsert');
    await load([{ ...added, scope: 'legal', project: 'atlas' }], 'upsert');
    await load([{ ...(records[12] as SourceRecord), scope: 'legal', project: 'atlas' }], 'upsert');
    await load([{ ...(records[12] as SourceRecord), scope: 'legal', text: 'changed twice' }], 'upsert');
    // Refused for its project still, and withheld from the user view now: its purposes exclude the contract's.
    const away = records[14] as SourceRecord;
    await load([{ ...away, access: { ...away.access, purposes: ['another purpose'] } }], 'upsert');
    const again = await recompile();
    expect(readsPostings(again.ran)).toBe(false);
    expect(countsRefused(again.ran)).toBe(false);
    expect(again.kept.receipt.omitted).not.toEqual(settled.kept.receipt.omitted);
    expect(again.kept.receipt.omitted?.withheld).toBe((settled.kept.receipt.omitted?.withheld ?? 0) + 1);
    expect(serialiseReceipt(again.kept.receipt)).toBe(serialiseReceipt(again.fresh.receipt));
  });

  it('recounts admission when the log no longer reaches back to the kept answer, and still uses it', async () => {
    const settled = await recompile();
    const away = records[13] as SourceRecord;
    for (let round = 0; round <= LOG_SNAPSHOTS; round += 1)
      await load([{ ...away, text: `refused, version ${round}` }], 'upsert');
    const again = await recompile();
    expect(countsRefused(again.ran)).toBe(true);
    expect(readsPostings(again.ran)).toBe(false);
    expect(again.kept.receipt.recordSetDigest).not.toBe(settled.kept.receipt.recordSetDigest);
    expect(serialiseReceipt(again.kept.receipt)).toBe(serialiseReceipt(again.fresh.receipt));
  });

  it.each([
    ['an admitted record is refused now', () => [{ ...(records[2] as SourceRecord), project: 'other' }]],
    ['a refused record is admitted now', () => [{ ...(records[11] as SourceRecord), project: 'atlas' }]],
    ['an admitted record changes its text', () => [{ ...(records[3] as SourceRecord), text: 'refund policy, again' }]],
    [
      'an admitted record changes a word and keeps its length',
      () => [{ ...(records[6] as SourceRecord), text: 'refund note 9' }],
    ],
    [
      'a new refused record supersedes an admitted one',
      () => [buildRecord({ id: 'newer', project: 'other', supersedes: ['hit-4'], text: 'nothing' })],
    ],
  ])('answers in full when %s, and gives the fresh receipt', async (_case, change) => {
    await load(change(), 'upsert');
    const again = await recompile();
    expect(readsPostings(again.ran)).toBe(true);
    expect(serialiseReceipt(again.kept.receipt)).toBe(serialiseReceipt(again.fresh.receipt));
  });
});
