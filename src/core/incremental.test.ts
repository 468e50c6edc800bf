import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../adapters/sqlite/compiler';
import { applyChanges } from './controls';
import type { Contract } from './format/contract';
import type { Patch } from './format/scenario';
import type { RecordSet } from './passes/validate';
import { createRecordSet } from './passes/validate';
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
    let recordSet: RecordSet = createRecordSet(records);
    const kept = createSqliteCompiler(await freshDriver());
    const step = async (patches: Patch[]) => {
      ({ contract, recordSet } = valueOf(
        applyChanges(contract, recordSet, [{ id: 'c', label: 'c', explanation: 'a change', patches }]),
      ));
      const fresh = createSqliteCompiler(await freshDriver());
      expect(await observable(kept, { contract, recordSet })).toEqual(
        await observable(fresh, { contract, recordSet: createRecordSet(recordSet.records) }),
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

    // A gate field: every verdict is worked out again, and the records it denies are refused.
    await step([{ op: 'mergeContract', patch: { denyLabels: ['investigation'] } }]);
    expect(reuseOf(kept, 'admit:gates')).toEqual({ reused: 0, computed: RECORDS });
    expect(reuseOf(kept, 'resolve:records')).toEqual({ reused: RECORDS, computed: 0 });

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
});
