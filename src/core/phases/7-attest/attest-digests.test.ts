import { sha256 } from '../../test-support/sha256';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSqliteCompiler } from '../../../adapters/sqlite/compiler';
import { applyChanges } from '../../controls';
import type { Contract } from '../../format/contract';
import type { Patch } from '../../format/scenario';
import { buildContract, buildRecord, buildRecordSet, valueOf } from '../../test-support/builders';
import { freshDriver } from '../../test-support/node-driver';
import { receiptIdOf, serialiseReceipt } from './attest';
import { recordSetDigest } from './attest-digests';
import type { RecordSet } from '../1-validate/validate';

const RECORDS = 4_000;
const WORDS = ['refund', 'policy', 'waiver', 'late', 'fee', 'ledger', 'notice', 'covenant', 'customer', 'account'];
const id = (index: number) => `rec-${String(index).padStart(5, '0')}`;

/** Many chunks in every tree, many ranked rows whose scores and budget facts move with each admission change. */
const records = Array.from({ length: RECORDS }, (_, index) =>
  buildRecord({
    id: id(index),
    text: Array.from({ length: 8 + (index % 5) }, (_, word) => WORDS[(index * 7 + word * 3) % WORDS.length]).join(' '),
    scope: index % 3 === 0 ? 'legal' : 'support',
    access: { labels: index % 11 === 0 ? ['hr'] : [] },
  }),
);

const patchArbitrary: fc.Arbitrary<Patch> = fc.oneof(
  fc.nat(RECORDS - 1).map((at): Patch => ({ op: 'mergeRecord', id: id(at), patch: { access: { labels: ['hr'] } } })),
  fc.nat(RECORDS - 1).map((at): Patch => ({ op: 'mergeRecord', id: id(at), patch: { access: { labels: [] } } })),
  fc.nat(RECORDS - 1).map((at): Patch => ({
    op: 'mergeRecord',
    id: id(at),
    patch: { text: `${WORDS[at % WORDS.length] ?? ''} edited ${at}` },
  })),
  fc.nat(RECORDS - 1).map((at): Patch => ({ op: 'removeRecord', id: id(at) })),
  fc.constantFrom<Patch>(
    { op: 'mergeContract', patch: { tokenBudget: 300 } },
    { op: 'mergeContract', patch: { tokenBudget: 2_000 } },
    { op: 'mergeContract', patch: { query: 'late fee' } },
    { op: 'mergeContract', patch: { denyLabels: [] } },
    { op: 'mergeContract', patch: { denyLabels: ['hr'] } },
  ),
);

describe('the receipt digests a compiler carries from one compilation to the next', () => {
  it('are the digests the receipt’s own bytes give, after every change, and keep the chunks the change left alone', async () => {
    const compiler = createSqliteCompiler(sha256, await freshDriver());
    const base = {
      contract: buildContract({ query: 'refund policy waiver', denyLabels: ['hr'], tokenBudget: 2_000 }),
      recordSet: buildRecordSet(records),
    };
    valueOf(await compiler.compile(base));
    await fc.assert(
      fc.asyncProperty(fc.array(patchArbitrary, { minLength: 1, maxLength: 6 }), async (patches) => {
        let { contract, recordSet }: { contract: Contract; recordSet: RecordSet } = base;
        for (const patch of [null, ...patches]) {
          // A patch of a record an earlier step removed is refused (DANGLING_REFERENCE) by design: not a change to
          // compile.
          if (
            patch !== null &&
            (patch.op === 'mergeRecord' || patch.op === 'removeRecord') &&
            !recordSet.records.some((record) => record.id === patch.id)
          )
            continue;
          if (patch !== null)
            ({ contract, recordSet } = valueOf(
              applyChanges(sha256, contract, recordSet, [
                { id: 'c', label: 'c', explanation: 'a change', patches: [patch] },
              ]),
            ));
          const { receipt } = valueOf(await compiler.compile({ contract, recordSet }));
          const { receiptId, ...body } = JSON.parse(serialiseReceipt(receipt)) as typeof receipt;
          expect(receiptIdOf(sha256, body)).toBe(receiptId);
          expect(receipt.recordSetDigest).toBe(recordSetDigest(sha256, recordSet.checked));
          // One patch leaves most chunks as they were. The first step of a run is no such step: it goes back to
          // the base from wherever the last run ended, which may differ from it in every chunk.
          if (patch === null) continue;
          const kept = (tree: string) => compiler.memoStats().get(tree)?.reused ?? 0;
          expect(kept('attest:records') + kept('attest:refused') + kept('attest:planned')).toBeGreaterThan(0);
        }
        // A fresh compiler on a fresh database writes the same bytes.
        const fresh = valueOf(
          await createSqliteCompiler(sha256, await freshDriver()).compile({
            contract,
            recordSet: buildRecordSet(recordSet.records),
          }),
        );
        expect(serialiseReceipt(valueOf(await compiler.compile({ contract, recordSet })).receipt)).toBe(
          serialiseReceipt(fresh.receipt),
        );
      }),
      { numRuns: 12 },
    );
  }, 240_000);
});
