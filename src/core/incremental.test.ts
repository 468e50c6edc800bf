import { sha256 } from './test-support/sha256';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../adapters/sqlite/compiler';
import { applyChanges } from './controls';
import { GATE_FIELDS } from './phases/4-admit/admit';
import type { KeyRules } from './compile';
import type { Contract } from './format/contract';
import type { Patch } from './format/scenario';
import type { RecordSet } from './phases/1-validate/validate';
import { createRecordSet } from './phases/1-validate/validate';
import { propertyParameters } from './test-support/arbitraries';
import { buildContract, buildRecord, valueOf } from './test-support/builders';
import { observable } from './test-support/change-steps';
import { freshDriver } from './test-support/node-driver';
import { propertyNamed } from './test-support/property-registry';

/**
 * The property lives in the registry, so `npm run fuzz -- --property incremental-equals-fresh` runs the same one for
 * millions of cases.
 */
const incremental = propertyNamed('incremental-equals-fresh');
const TIMEOUT_MS = 240_000;

const RECORDS = 50;

function reuseOf(compiler: SqliteCompiler, table: string): { reused: number; computed: number } | undefined {
  return compiler.memoStats().get(table);
}

describe('a compiler that reuses its previous work', () => {
  it(
    'produces exactly what a fresh compiler on a fresh database produces after every change to kept inputs, and reuses what the change left alone',
    async () => {
      // Shrinking opens two databases per step of every smaller case: far too slow for a test; FC_SEED replays the case
      // that failed.
      await fc.assert(await incremental.property({ openDatabase: freshDriver }), {
        ...propertyParameters(incremental.testRuns),
        endOnFailure: true,
      });
    },
    TIMEOUT_MS,
  );

  it('reuses every verdict but the changed record, and none after a gate field changes', async () => {
    // rec-02 supersedes rec-01 from 20 August: an as-of before that puts rec-01 back in force.
    const records = Array.from({ length: RECORDS }, (_, index) =>
      buildRecord({
        id: `rec-${String(index).padStart(2, '0')}`,
        access: { labels: index % 5 === 0 ? ['investigation'] : [] },
        ...(index === 2 ? { supersedes: ['rec-01'], knownAt: '2026-08-20', validFrom: '2026-08-20' } : {}),
      }),
    );
    let contract: Contract = buildContract();
    let recordSet: RecordSet = createRecordSet(sha256, records);
    const kept = createSqliteCompiler(sha256, await freshDriver());
    const step = async (patches: Patch[]) => {
      ({ contract, recordSet } = valueOf(
        applyChanges(sha256, contract, recordSet, [{ id: 'c', label: 'c', explanation: 'a change', patches }]),
      ));
      const fresh = createSqliteCompiler(sha256, await freshDriver());
      expect(await observable(kept, { contract, recordSet })).toEqual(
        await observable(fresh, { contract, recordSet: createRecordSet(sha256, recordSet.records) }),
      );
    };

    expect(await observable(kept, { contract, recordSet })).toMatchObject({ status: 'packet' });
    expect(reuseOf(kept, 'admit:gates')).toEqual({ reused: 0, computed: RECORDS });

    await step([{ op: 'mergeRecord', id: 'rec-07', patch: { lifecycle: 'draft' } }]);
    for (const table of ['resolve:records', 'admit:gates'])
      expect(reuseOf(kept, table)).toEqual({ reused: RECORDS - 1, computed: 1 });

    await step([{ op: 'mergeContract', patch: { query: 'policy', tokenBudget: 200 } }]);
    for (const table of ['resolve:records', 'admit:gates', 'plan:refused'])
      expect(reuseOf(kept, table)).toEqual({ reused: RECORDS, computed: 0 });
    // A new budget changes planned rows only: the refused rows' chunks are not hashed again.
    expect(reuseOf(kept, 'attest:refused')?.computed).toBe(0);

    // A gate field: every verdict is worked out again, and the records it denies are refused.
    await step([{ op: 'mergeContract', patch: { denyLabels: ['investigation'] } }]);
    expect(reuseOf(kept, 'admit:gates')).toEqual({ reused: 0, computed: RECORDS });
    expect(reuseOf(kept, 'resolve:records')).toEqual({ reused: RECORDS, computed: 0 });
    // A verdict worked out again and equal to the last one keeps its version: its refused row is not built again.
    expect(reuseOf(kept, 'plan:refused')?.reused).toBeGreaterThan(0);

    // A refused record refused again leaves the admitted set as it was: the plan's admitted part is last compilation's.
    await step([{ op: 'mergeRecord', id: 'rec-15', patch: { lifecycle: 'draft' } }]);
    for (const cell of ['admit:admitted', 'plan:admitted'])
      expect(reuseOf(kept, cell)).toEqual({ reused: 1, computed: 0 });
    expect(reuseOf(kept, 'plan:refused')).toEqual({ reused: RECORDS - 1, computed: 1 });

    await step([{ op: 'removeRecord', id: 'rec-10' }]);
    expect(reuseOf(kept, 'admit:gates')).toEqual({ reused: RECORDS - 1, computed: 0 });

    // The as-of time decides which successor is in force: rec-01 is no longer superseded, rec-02 not yet known.
    await step([{ op: 'mergeContract', patch: { asOf: '2026-08-10' } }]);
    expect(await observable(kept, { contract, recordSet })).toMatchObject({
      admitted: expect.arrayContaining(['rec-01']) as unknown,
    });
  });

  it('hashes planned rows again only when the admitted part is planned again, and the ranking section once per what makes it', async () => {
    const records = Array.from({ length: RECORDS }, (_, index) =>
      buildRecord({ id: `rec-${String(index).padStart(2, '0')}`, text: index % 3 === 0 ? 'retry policy' : 'other' }),
    );
    let contract: Contract = buildContract();
    let recordSet: RecordSet = createRecordSet(sha256, records);
    const kept = createSqliteCompiler(sha256, await freshDriver());
    const step = async (patches: Patch[]) => {
      ({ contract, recordSet } = valueOf(
        applyChanges(sha256, contract, recordSet, [{ id: 'c', label: 'c', explanation: 'a change', patches }]),
      ));
      const fresh = createSqliteCompiler(sha256, await freshDriver());
      expect(await observable(kept, { contract, recordSet })).toEqual(
        await observable(fresh, { contract, recordSet: createRecordSet(sha256, recordSet.records) }),
      );
    };
    expect(await observable(kept, { contract, recordSet })).toMatchObject({ status: 'packet' });

    // A budget that every admitted record fits in, then one token more: the admitted part is planned again and its
    // rows are hashed again, but what ranks them is unchanged, so the ranking section is not.
    await step([{ op: 'mergeContract', patch: { tokenBudget: 100_000 } }]);
    await step([{ op: 'mergeContract', patch: { tokenBudget: 100_001 } }]);
    expect(reuseOf(kept, 'plan:admitted')).toEqual({ reused: 0, computed: 1 });
    expect(reuseOf(kept, 'attest:planned')).toMatchObject({ reused: 0 });
    expect(reuseOf(kept, 'attest:planned')?.computed).toBeGreaterThan(0);
    expect(reuseOf(kept, 'attest:ranked')).toEqual({ reused: 1, computed: 0 });
    // Where digest chunks end is read once per id order.
    expect(reuseOf(kept, 'attest:chunk-ends')).toEqual({ reused: 1, computed: 0 });

    // A record leaves the admitted set: what ranks the rest changes, and the section is hashed again.
    await step([{ op: 'mergeRecord', id: 'rec-03', patch: { project: 'elsewhere' } }]);
    expect(reuseOf(kept, 'admit:admitted')).toEqual({ reused: 0, computed: 1 });
    expect(reuseOf(kept, 'attest:ranked')).toEqual({ reused: 0, computed: 1 });
    expect(reuseOf(kept, 'attest:planned')?.computed).toBeGreaterThan(0);

    // The refused record changes again: nothing the admitted part reads moved, so no planned row is hashed again.
    await step([{ op: 'mergeRecord', id: 'rec-03', patch: { title: 'still elsewhere' } }]);
    expect(reuseOf(kept, 'plan:admitted')).toEqual({ reused: 1, computed: 0 });
    expect(reuseOf(kept, 'attest:planned')).toMatchObject({ computed: 0 });
    expect(reuseOf(kept, 'attest:ranked')).toEqual({ reused: 1, computed: 0 });
  });

  it(
    'fails when a key leaves out an input its query reads: verdicts keyed without the deny labels are reused after they change',
    async () => {
      const careless: KeyRules = { gateFields: GATE_FIELDS.filter((field) => field !== 'denyLabels') };
      let failure: unknown = null;
      try {
        await fc.assert(await incremental.property({ openDatabase: freshDriver, keys: careless }), {
          ...propertyParameters(incremental.testRuns),
          endOnFailure: true,
        });
      } catch (error) {
        failure = error;
      }
      // The property's own finding, not a failure of the harness: the kept compiler's answer differs from a fresh
      // one's.
      expect(failure).toBeInstanceOf(Error);
      expect(String((failure as Error).cause)).toMatch(/kept and fresh compilations after .* differ/);
    },
    TIMEOUT_MS,
  );
});
