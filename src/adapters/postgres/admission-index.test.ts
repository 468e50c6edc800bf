import { sha256 } from '../../core/test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { benchContract, generateRecords } from '../../../bench/generate-records';
import { contractSchema } from '../../core/format/contract';
import { compileInDatabase } from './compile-in-database';
import { loadRecordLines } from './load-records';
import { openTestDatabase, POSTGRES_URL, type TestDatabase } from './test-server';
import { createUnicodeTokeniser } from './unicode61';
import { watchStatements } from './watch-statements';

interface PlanNode {
  readonly 'Index Name'?: string;
  readonly 'Relation Name'?: string;
  readonly Plans?: readonly PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** The generated corpus with its first records in a scope of their own: a task of few records among many. */
const SCOPED = { scope: 'escalations', records: 60 };

describe.skipIf(POSTGRES_URL === undefined)('admission of a task whose project and scopes hold few records', () => {
  let database: TestDatabase;
  const tokeniser = createUnicodeTokeniser();
  const { records, requiredIds } = generateRecords(4_000, 42);
  beforeAll(async () => {
    database = await openTestDatabase();
    const scoped = records.map((record, index) =>
      index < SCOPED.records ? { ...record, scope: SCOPED.scope } : record,
    );
    const lines = scoped.map((record) => `${JSON.stringify(record)}\n`);
    const loaded = await loadRecordLines(sha256, database, 'scoped.jsonl', lines, tokeniser);
    if (!loaded.ok) throw new Error(loaded.error.message);
  });

  /** The tables and indexes the answer statement of a compile of `contract` reads, as the planner plans it. */
  const readsOf = async (contract: unknown) => {
    let answer: { text: string; values: readonly unknown[] } | null = null;
    const watched = watchStatements(database, {
      before: (text, values) => {
        if (text.includes('viewed AS')) answer = { text, values };
      },
    });
    const compiled = await compileInDatabase(sha256, watched, contractSchema.parse(contract), tokeniser);
    if (!compiled.ok) throw new Error(compiled.error.message);
    const statement = answer as { text: string; values: readonly unknown[] } | null;
    if (statement === null) throw new Error('no answer statement ran');
    const { rows } = await database.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
      `EXPLAIN (FORMAT JSON) ${statement.text}`,
      statement.values,
    );
    return nodesOf((rows[0]?.['QUERY PLAN'][0] as { Plan: PlanNode }).Plan);
  };

  it('reads them through the project-and-scope index, not by scanning every record for admission', async () => {
    const scoped = { ...benchContract(requiredIds), scopes: [SCOPED.scope], requiredRecords: [] };
    const nodes = await readsOf(scoped);
    expect(nodes.some((node) => node['Index Name'] === 'records_project_scope')).toBe(true);
  });
});
