import { sha256 } from './test-support/sha256';
import { describe, expect, it } from 'vitest';
import { createSqliteCompiler } from '../adapters/sqlite/compiler';
import { applyChanges } from './controls';
import type { Control } from './format/scenario';
import { buildContract, buildRecord, buildRecordSet, valueOf } from './test-support/builders';
import { freshDriver } from './test-support/node-driver';
import { heapAfterGcMb } from './test-support/node-heap';

const RECORDS = 20_000;
const TOGGLES = { warm: 10, total: 200 };
const ALLOWED_GROWTH_MB = 5;

const WORDS = ['refund', 'policy', 'waiver', 'late', 'fee', 'ledger', 'notice', 'covenant', 'customer', 'account'];

describe('memory', () => {
  it(`stays flat: after ${TOGGLES.total} toggles at ${RECORDS.toLocaleString('en-US')} records the heap is within ${ALLOWED_GROWTH_MB} MB of the heap after ${TOGGLES.warm}`, async () => {
    const records = Array.from({ length: RECORDS }, (_, index) =>
      buildRecord({
        id: `rec-${String(index).padStart(6, '0')}`,
        text: Array.from({ length: 12 }, (_, word) => WORDS[(index * 7 + word * 3) % WORDS.length]).join(' '),
        scope: index % 3 === 0 ? 'legal' : 'support',
        access: { labels: index % 11 === 0 ? ['hr'] : [] },
        supersedes: index % 97 === 5 ? [`rec-${String(index - 1).padStart(6, '0')}`] : [],
      }),
    );
    const contract = buildContract({ query: 'refund policy waiver', denyLabels: ['hr'], tokenBudget: 2_000 });
    const recordSet = buildRecordSet(records);
    const compiler = createSqliteCompiler(sha256, await freshDriver());
    const first = valueOf(await compiler.compile({ contract, recordSet }));
    const target = first.receipt.selected[0];
    if (target === undefined) throw new Error('nothing selected to toggle');
    const control: Control = {
      id: 'deny-one',
      label: 'Deny one',
      explanation: '',
      patches: [{ op: 'mergeRecord', id: target, patch: { access: { labels: ['hr'] } } }],
    };
    const toggle = async (run: number) => {
      const changed =
        run % 2 === 0 ? valueOf(applyChanges(sha256, contract, recordSet, [control])) : { contract, recordSet };
      const outcome = valueOf(await compiler.compile(changed));
      expect(outcome.admitted.has(target)).toBe(run % 2 === 1);
    };
    for (let run = 0; run < TOGGLES.warm; run += 1) await toggle(run);
    const warm = heapAfterGcMb();
    for (let run = TOGGLES.warm; run < TOGGLES.total; run += 1) await toggle(run);
    const growth = heapAfterGcMb() - warm;
    expect(growth).toBeLessThan(ALLOWED_GROWTH_MB);
  }, 240_000);

  it('re-evaluates only the toggled record and re-hashes only the chunks its rows fall in', async () => {
    const records = Array.from({ length: 3_000 }, (_, index) =>
      buildRecord({ id: `r${String(index).padStart(5, '0')}`, text: `refund ${WORDS[index % WORDS.length]}` }),
    );
    const contract = buildContract({ denyLabels: ['hr'] });
    const recordSet = buildRecordSet(records);
    const compiler = createSqliteCompiler(sha256, await freshDriver());
    valueOf(await compiler.compile({ contract, recordSet }));
    const control: Control = {
      id: 'deny',
      label: 'Deny',
      explanation: '',
      patches: [{ op: 'mergeRecord', id: 'r01500', patch: { access: { labels: ['hr'] } } }],
    };
    valueOf(await compiler.compile(valueOf(applyChanges(sha256, contract, recordSet, [control]))));
    const stats = compiler.memoStats();
    expect(stats.get('admit:gates')).toEqual({ reused: 2_999, computed: 1 });
    // The toggled record supersedes nothing: supersession is not worked out again.
    expect(stats.get('resolve:supersession')).toEqual({ reused: 1, computed: 0 });
    expect(stats.get('resolve:id-order')).toEqual({ reused: 1, computed: 0 });
    // The toggled record's row is the one refused row: only it is built again.
    expect(stats.get('plan:refused')).toEqual({ reused: 2_999, computed: 1 });
    // Counted in chunks: only the toggled record's chunk of the record-set tree is hashed again, and the one
    // chunk of the refused rows' tree (the toggled record is the only one refused).
    expect(stats.get('attest:records')).toMatchObject({ computed: 1, reused: expect.any(Number) as unknown });
    expect(stats.get('attest:records')?.reused).toBeGreaterThan(1);
    expect(stats.get('attest:refused')).toEqual({ computed: 1, reused: 0 });
  });
});
