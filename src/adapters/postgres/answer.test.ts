import { sha256 } from '../../core/test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CompileRequest } from '../../core/compile';
import { prepareCompile } from '../../core/compile-stages';
import type { SourceRecord } from '../../core/format/record';
import { recordSetDigest } from '../../core/phases/7-attest/attest-digests';
import { createGateContext, evaluateGates, gateCodeOf } from '../../core/phases/4-admit/admit';
import { WITHHOLDING_GATES } from '../../core/disclosure';
import { createRecordSet } from '../../core/phases/1-validate/validate';
import { openInMemoryDatabase } from '../../sqlite/load-sqlite';
import { createSqliteStore } from '../sqlite/compiler';
import { brokenLinksCase, conformanceCases, type ConformanceCase } from '../conformance/corpus';
import { createPostgresStore, inSnapshot, type PostgresStore } from './compile-in-database';
import { loadRecordSet } from './load-records';
import { openTestDatabase, POSTGRES_URL, type TestDatabase } from './test-server';
import { type Tokeniser } from './tokens';
import { createUnicodeTokeniser } from './unicode61';

const [first] = conformanceCases(0);
if (first === undefined) throw new Error('the corpus has no cases');
const plain = first.records[0] as SourceRecord;

/** Cases beyond the corpus: nothing admitted, and ids that order differently by UTF-16 code unit and by code point. */
const edgeCases: ConformanceCase[] = [
  {
    name: 'no record admitted',
    contract: { ...first.contract, project: 'a project no record is in' },
    records: first.records,
  },
  {
    name: 'ids beyond U+FFFF beside ids from U+E000',
    contract: first.contract,
    records: [
      ...first.records,
      ...['x\u{1F600}', 'x\uFFFD', 'x\uE000', 'xz', 'x\u{10000}a'].map((id) => ({ ...plain, id })),
    ],
  },
];

const cases = [...conformanceCases(3), brokenLinksCase(), ...edgeCases];

/**
 * The reference's answers: the evaluator's verdicts, FTS5's bm25 over the admitted set (SQLite), the core's record-set
 * digest.
 */
async function referenceAnswer(request: CompileRequest, top: number) {
  const prepared = prepareCompile(sha256, request);
  if (!prepared.ok) throw new Error(prepared.error.message);
  const gates = createGateContext(prepared.value.resolution.contract);
  const admitted = new Set<string>();
  const refused: Record<string, number> = {};
  let withheld = 0;
  const admittedRecords = [];
  for (const resolved of prepared.value.resolution.records) {
    const verdict = evaluateGates(gates, resolved);
    if (verdict.fact === null) {
      admitted.add(resolved.checked.record.id);
      admittedRecords.push(resolved.checked);
    } else {
      const code = gateCodeOf(verdict.fact);
      refused[code] = (refused[code] ?? 0) + 1;
      if ((verdict.failed & WITHHOLDING_GATES) !== 0) withheld += 1;
    }
  }
  const sqlite = createSqliteStore(await openInMemoryDatabase());
  await sqlite.recordsToCompile(request.recordSet);
  await sqlite.admit(prepared.value.plan, prepared.value.digest);
  await sqlite.holdAdmitted(admitted, request.recordSet);
  const ranking = await sqlite.rankAdmitted(request.contract.query, admitted);
  return {
    prepared: prepared.value,
    answer: {
      predicateDigest: prepared.value.digest,
      admitted: admitted.size,
      statistics: ranking.statistics,
      refusedByReason: Object.fromEntries(Object.entries(refused).sort(([a], [b]) => (a < b ? -1 : 1))),
      withheld,
      candidates: ranking.rows.slice(0, top),
      admittedDigest: recordSetDigest(sha256, admittedRecords),
    },
  };
}

describe.skipIf(POSTGRES_URL === undefined)('the answers PostgreSQL gives without reading the corpus back', () => {
  let database: TestDatabase;
  let tokeniser: Tokeniser;
  beforeAll(async () => {
    database = await openTestDatabase();
    tokeniser = createUnicodeTokeniser();
  });

  const inStore = <T>(work: (store: PostgresStore) => Promise<T>) =>
    inSnapshot(database, {}, async (shards) => {
      const store = await createPostgresStore(sha256, database, tokeniser, () => shards);
      if (!store.ok) return store;
      return { ok: true as const, value: await work(store.value) };
    });

  it('equal the reference on every case: admitted count, bm25 statistics, refused counts per reason, top candidates, admitted digest', async () => {
    expect(cases.length).toBeGreaterThan(16);
    for (const item of cases) {
      const request: CompileRequest = { contract: item.contract, recordSet: createRecordSet(sha256, item.records) };
      const loaded = await loadRecordSet(sha256, database, 'answer case', request.recordSet, tokeniser);
      if (!loaded.ok) throw new Error(loaded.error.message);
      for (const top of [2, 1000]) {
        const { prepared, answer: expected } = await referenceAnswer(request, top);
        const answered = await inStore((store) =>
          store.answerPlan(prepared.plan, prepared.digest, request.contract.query, top),
        );
        if (!answered.ok || !answered.value.ok) throw new Error(`${item.name}: no answer`);
        expect({ ...answered.value.value, snapshot: undefined }, `${item.name}, top ${top}`).toEqual({
          ...expected,
          snapshot: undefined,
        });
        expect(answered.value.value.snapshot).toBe(loaded.value.snapshot);
      }
    }
  });

  it('names a refused record by its first gate when deny and an earlier gate both refuse it, and by its own broken link before a successor in force', async () => {
    const denied = conformanceCases(0).find((item) => item.name.startsWith('deny alone'));
    if (denied === undefined) throw new Error('the corpus has no deny case');
    const label = denied.contract.denyLabels[0] ?? 'restricted';
    const both = {
      ...plain,
      id: 'scope-and-deny',
      scope: 'a scope no contract allows',
      access: { ...plain.access, labels: [label] },
    };
    const request: CompileRequest = {
      contract: denied.contract,
      recordSet: createRecordSet(sha256, [...denied.records, both]),
    };
    await loadRecordSet(sha256, database, 'deny case', request.recordSet, tokeniser);
    const { prepared, answer: expected } = await referenceAnswer(request, 10);
    const answered = await inStore((store) =>
      store.answerPlan(prepared.plan, prepared.digest, request.contract.query, 10),
    );
    expect(answered.ok && answered.value.ok && answered.value.value.refusedByReason).toEqual(expected.refusedByReason);
    expect(expected.refusedByReason.EXCLUDE_SCOPE).toBeGreaterThan(0);
    // Refused for its scope first, it is still withheld from the user view for its label.
    expect(answered.ok && answered.value.ok && answered.value.value.withheld).toBe(expected.withheld);
    const {
      EXCLUDE_DENY_LABEL: labelled = 0,
      EXCLUDE_NOT_AUTHORISED: unauthorised = 0,
      EXCLUDE_PURPOSE: purpose = 0,
    } = expected.refusedByReason;
    expect(expected.withheld).toBeGreaterThan(labelled + unauthorised + purpose);
  });

  it('hands over the broken supersessions the plan lists, the records asked for whole, and the record-set digest', async () => {
    const sample = brokenLinksCase();
    const recordSet = createRecordSet(sha256, sample.records);
    await loadRecordSet(sha256, database, 'links', recordSet, tokeniser);
    const prepared = prepareCompile(sha256, { contract: sample.contract, recordSet });
    if (!prepared.ok) throw new Error(prepared.error.message);
    const found = await inStore(async (store) => ({
      broken: await store.brokenSupersessions(),
      records: await store.recordsById(['c3', 'c1', 'absent']),
      digest: await store.recordSetDigest(),
    }));
    if (!found.ok || !found.value.records.ok) throw new Error('no answer');
    expect([...found.value.broken.keys()]).toEqual(prepared.value.resolution.brokenLinks);
    expect(found.value.digest).toBe(recordSetDigest(sha256, recordSet.checked));
    expect(found.value.records.value.checked.map((item) => [item.record.id, item.fingerprint])).toEqual(
      ['c1', 'c3'].map((id) => [id, recordSet.checked.find((item) => item.record.id === id)?.fingerprint]),
    );
  });
});
