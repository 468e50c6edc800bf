import { sha256 } from '../../core/test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareStrings } from '../../core/canonical';
import { contractSchema } from '../../core/format/contract';
import { resolve } from '../../core/phases/2-resolve/resolve';
import { createRecordSet } from '../../core/phases/1-validate/validate';
import { buildAdmissionPlan, planDigest } from '../../core/phases/4-admit/admission-plan';
import { safeFtsTerms } from '../sqlite/fts-query';
import { brokenLinksCase } from '../conformance/corpus';
import type { AnswerRow } from './answer-rows';
import { oneServerStatement, successorsStatement } from './answering';
import { createPostgresStore, inSnapshot } from './compile-in-database';
import { storedBrokenLinks } from './broken-links';
import { loadRecordSet } from './load-records';
import { supersededStatement } from './lower';
import { openTestDatabase, POSTGRES_URL, type TestDatabase } from './test-server';
import { createUnicodeTokeniser } from './unicode61';

interface PlanNode {
  readonly 'Relation Name'?: string;
  readonly Alias?: string;
  readonly 'Node Type'?: string;
  readonly Strategy?: string;
  readonly 'Group Key'?: readonly string[];
  readonly Plans?: readonly PlanNode[];
}

/** Every node of a plan, depth first. */
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

describe.skipIf(POSTGRES_URL === undefined)('the statements a compile sends, by the plans they get', () => {
  let database: TestDatabase;
  const tokeniser = createUnicodeTokeniser();
  const { contract, records } = brokenLinksCase();
  beforeAll(async () => {
    database = await openTestDatabase();
    const loaded = await loadRecordSet(sha256, database, 'plans', createRecordSet(sha256, records), tokeniser);
    if (!loaded.ok) throw new Error(loaded.error.message);
  });

  const explain = async (text: string, values: readonly unknown[]) => {
    const { rows } = await database.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
      `EXPLAIN (FORMAT JSON) ${text}`,
      values,
    );
    return (rows[0]?.['QUERY PLAN'][0] as { Plan: PlanNode }).Plan;
  };

  const planOf = async () => {
    const resolved = resolve(contractSchema.parse(contract), createRecordSet(sha256, []));
    if (!resolved.ok) throw new Error(resolved.error.message);
    const broken = [...(await storedBrokenLinks(database)).keys()].sort(compareStrings);
    return buildAdmissionPlan(resolved.value.contract, broken);
  };

  it('reads the records table for admission and the refused counts only, never again for the admitted rows', async () => {
    const parsed = contractSchema.parse(contract);
    const plan = await planOf();
    const phrases = safeFtsTerms(parsed.query).map((quoted) => tokeniser.phrase(quoted.slice(1, -1)));
    expect(phrases.length).toBeGreaterThan(0);
    const statement = oneServerStatement(database.schema, plan, planDigest(sha256, plan), phrases, []);
    if (!statement.ok) throw new Error(statement.error.message);
    const reads = nodesOf(await explain(statement.value.text, statement.value.values)).filter(
      (node) => node['Relation Name'] === 'records',
    );
    // Admission and the refused counts (and, as `y`, the successors in force): the statistics, the scores and the gate
    // views read the admitted rows, not the table (each join back read the whole table).
    expect(reads.filter((node) => node.Alias !== 'y')).toHaveLength(2);
  });

  it('reads no document for the gate views: the declared tokens and relevance are in the records table', async () => {
    const parsed = contractSchema.parse(contract);
    const plan = await planOf();
    const phrases = safeFtsTerms(parsed.query).map((quoted) => tokeniser.phrase(quoted.slice(1, -1)));
    const statement = oneServerStatement(database.schema, plan, planDigest(sha256, plan), phrases, []);
    if (!statement.ok) throw new Error(statement.error.message);
    const ids = records.map((record) => record.id);
    const plans = [
      await explain(statement.value.text, statement.value.values),
      await explain(successorsStatement(database.schema), [ids]),
    ];
    const relations = plans.flatMap((node) => nodesOf(node).map((below) => below['Relation Name']));
    expect(relations).toContain('records');
    expect(relations).not.toContain('documents');
  });

  it('finds the successors in force from their index alone, reading no heap page of the records', async () => {
    // A test's table is small enough for a scan of the whole of it to cost least: the planner is told to avoid one, so
    // it shows the path it takes at a corpus's size.
    await database.query('BEGIN');
    await database.query("SELECT set_config('enable_seqscan', 'off', true)");
    const text = JSON.stringify(await explain(supersededStatement(database.schema), [Date.parse('2026-01-01')]));
    await database.query('ROLLBACK');
    expect(text).toContain('"Index Only Scan"');
    expect(text).toContain('records_successors');
    expect(text).not.toContain('"Seq Scan"');
  });

  it("groups the admitted records' term hits by record once, for their scores and their phrases together", async () => {
    const parsed = contractSchema.parse(contract);
    const plan = await planOf();
    const phrases = safeFtsTerms(parsed.query).map((quoted) => tokeniser.phrase(quoted.slice(1, -1)));
    const statement = oneServerStatement(database.schema, plan, planDigest(sha256, plan), phrases, []);
    if (!statement.ok) throw new Error(statement.error.message);
    const byRecord = nodesOf(await explain(statement.value.text, statement.value.values)).filter(
      (node) => node['Node Type'] === 'Aggregate' && (node['Group Key'] ?? []).some((key) => key.includes('record_id')),
    );
    expect(byRecord).toHaveLength(1);
  });

  it('counts the refused records in one sum over the records, never grouping the records by their verdict', async () => {
    const plan = await planOf();
    const statement = oneServerStatement(database.schema, plan, planDigest(sha256, plan), [], []);
    if (!statement.ok) throw new Error(statement.error.message);
    const nodes = nodesOf(await explain(statement.value.text, statement.value.values));
    const overRecords = nodes.filter(
      (node) =>
        node['Node Type'] === 'Aggregate' && nodesOf(node).some((below) => below['Relation Name'] === 'records'),
    );
    // A plain aggregate (one row) splits over parallel workers; a grouping by an expression of the id never did, the
    // planner reckoning a group per record.
    expect(overRecords.length).toBeGreaterThan(0);
    expect(overRecords.filter((node) => node.Strategy !== 'Plain')).toEqual([]);
  });

  it('sends the counts and digests once, not with every admitted row', async () => {
    // No clause: every record admitted.
    const plan = { ...(await planOf()), clauses: [] };
    const statement = oneServerStatement(database.schema, plan, planDigest(sha256, plan), [], []);
    if (!statement.ok) throw new Error(statement.error.message);
    const { rows } = await database.query<AnswerRow>(statement.value.text, statement.value.values);
    expect(rows.filter((row) => row.id !== null).length).toBeGreaterThan(1);
    expect(rows.filter((row) => row.refused !== null || row.admitted_digest !== null)).toHaveLength(1);
    expect(new Set(rows.map((row) => `${row.digest} ${row.total}`)).size).toBe(1);
  });

  it('sorts and groups the answer in memory: the transaction it runs in allows more than the default work_mem', async () => {
    const settings = await inSnapshot(database, {}, async (shards) => {
      const store = await createPostgresStore(sha256, database, tokeniser, () => shards);
      if (!store.ok) return store;
      const parsed = contractSchema.parse(contract);
      const resolved = resolve(parsed, createRecordSet(sha256, []));
      if (!resolved.ok) return resolved;
      const plan = buildAdmissionPlan(resolved.value.contract, []);
      const answered = await store.value.answers?.answerPlan(plan, planDigest(sha256, plan), {
        query: parsed.query,
        ranking: 'bm25',
        required: [],
      });
      if (answered?.ok !== true) throw new Error('no answer');
      const { rows } = await database.query<{ memory: string }>(
        "SELECT pg_size_bytes(current_setting('work_mem')) AS memory",
      );
      return { ok: true as const, value: Number(rows[0]?.memory) };
    });
    if (!settings.ok) throw new Error(settings.error.message);
    expect(settings.value).toBeGreaterThanOrEqual(128 * 1024 * 1024);
  });

  it('finds the successors of the admitted records by key, never comparing each successor with every id', async () => {
    const ids = records.map((record) => record.id);
    const text = JSON.stringify(await explain(successorsStatement(database.schema), [ids]));
    expect(text).not.toContain('&&');
    expect(text).toContain('= ANY');
  });
});
