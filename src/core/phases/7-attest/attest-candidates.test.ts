import { sha256 } from '../../test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../../../adapters/sqlite/compiler';
import { discloseOutcome } from '../../disclosure';
import { buildUserView } from '../../user-view';
import { drill, receiptIntegrity } from '../../drill';
import { receiptSchema } from '../../format/receipt';
import { receiptStatement } from '../../statement';
import type { CompileOutcome, Receipt } from '../../result';
import { buildContract, buildRecord, buildRecordSet, valueOf } from '../../test-support/builders';
import { sharedDriver } from '../../test-support/node-driver';
import { recordSetDigest } from './attest-digests';
import { serialiseReceipt } from './attest';

let compiler: SqliteCompiler;

beforeAll(async () => {
  compiler = createSqliteCompiler(sha256, await sharedDriver());
});

/**
 * Twelve relevant admitted records of 100 tokens under a 500-token budget, two unrelated ones, a required one, and
 * `refused` records out of scope.
 */
function records(refused: number) {
  const relevant = Array.from({ length: 12 }, (_, index) =>
    buildRecord({
      id: `doc-${String(index).padStart(2, '0')}`,
      text: `refund policy ${'refund '.repeat(index)}`,
      tokens: 100,
    }),
  );
  const unrelated = [
    buildRecord({ id: 'misc-1', text: 'parking rules' }),
    buildRecord({ id: 'misc-2', text: 'lunch menu' }),
  ];
  const outside = Array.from({ length: refused }, (_, index) =>
    buildRecord({ id: `out-${index}`, scope: 'legal', text: 'refund policy for legal' }),
  );
  return [...relevant, ...unrelated, buildRecord({ id: 'req', text: 'the refund handbook', tokens: 50 }), ...outside];
}

const contract = buildContract({ tokenBudget: 500, requiredRecords: ['req'] });

async function compile(refused: number, attestation: 'full' | 'candidates'): Promise<CompileOutcome> {
  return valueOf(await compiler.compile({ contract, recordSet: buildRecordSet(records(refused)), attestation }));
}

const bytes = (receipt: Receipt) => serialiseReceipt(receipt).length;

describe('a candidates receipt', () => {
  it('does not grow with refused records: ten times as many change only the digits of their count', async () => {
    const few = (await compile(40, 'candidates')).receipt;
    const many = (await compile(400, 'candidates')).receipt;
    expect(few.omitted?.rows.EXCLUDE_SCOPE).toBe(40);
    expect(many.omitted?.rows.EXCLUDE_SCOPE).toBe(400);
    expect(bytes(many) - bytes(few)).toBe(String(400).length - String(40).length);
    // A full receipt grows by a row per record: the kinds differ where it matters.
    expect(bytes((await compile(400, 'full')).receipt)).toBeGreaterThan(
      bytes((await compile(40, 'full')).receipt) + 360 * 100,
    );
  });

  it('has rows for the required record and the ranked candidates down to the budget cut, and counts the rest by reason', async () => {
    const outcome = await compile(40, 'candidates');
    const { receipt } = outcome;
    expect(receipt.attestation).toBe('candidates');
    const ids = receipt.trace.map((row) => row.id);
    expect(ids).toContain('req');
    for (const id of receipt.selected) expect(ids).toContain(id);
    expect(ids.some((id) => id.startsWith('out-') || id.startsWith('misc-'))).toBe(false);
    // Every row is a candidate; the rows left out are counted, per code, to the last record.
    const rows = receipt.omitted?.rows ?? {};
    const counted = Object.values(rows).reduce((sum, count) => sum + (count ?? 0), 0);
    expect(counted + receipt.trace.length).toBe(outcome.trace.length);
    expect(rows.EXCLUDE_NOT_RELEVANT).toBe(2);
    // Down to the cut: the last listed ranked row is the last the budget selected.
    const lastListed = receipt.ranked[receipt.ranked.length - 1];
    expect(receipt.selected).toContain(lastListed?.id);
    expect(receipt.ranked.map((entry) => entry.id)).toEqual(
      outcome.ranked.slice(0, receipt.ranked.length).map((entry) => entry.id),
    );
    const admitted = buildRecordSet(records(40)).checked.filter((item) => outcome.admitted.has(item.record.id));
    expect(receipt.omitted?.admittedDigest).toBe(recordSetDigest(sha256, admitted));
    expect(receipt.recordSetDigest).toBe((await compile(40, 'full')).receipt.recordSetDigest);
  });

  it('counts the records without a row that the user view withholds, wherever they are refused first', async () => {
    const withheld = [
      buildRecord({ id: 'hidden-1', text: 'refund policy', access: { ...buildRecord().access, purposes: ['audit'] } }),
      buildRecord({
        id: 'hidden-2',
        scope: 'legal',
        text: 'refund policy',
        access: { ...buildRecord().access, purposes: ['audit'] },
      }),
    ];
    const recordSet = buildRecordSet([...records(3), ...withheld]);
    const listed = valueOf(await compiler.compile({ contract, recordSet, attestation: 'candidates' }));
    expect(listed.receipt.omitted?.withheld).toBe(2);
    expect(listed.receipt.trace.map((row) => row.id)).not.toContain('hidden-1');
    // A compile answered by a store has the receipt's rows only: the user view counts the rest from the receipt.
    const rowsOnly: CompileOutcome = {
      ...listed,
      trace: listed.receipt.trace,
      counts: { ...listed.counts, candidates: listed.trace.length },
    };
    expect(discloseOutcome(rowsOnly, 'user').withheldCount).toBe(discloseOutcome(listed, 'user').withheldCount);
    expect(discloseOutcome(listed, 'user').withheldCount).toBe(2);
  });

  it("gives the same user-view counts from the receipt's rows alone as from every row", async () => {
    const hidden = buildRecord({
      id: 'hidden',
      text: 'refund policy',
      access: { ...buildRecord().access, purposes: ['audit'] },
    });
    const listed = valueOf(
      await compiler.compile({
        contract,
        recordSet: buildRecordSet([...records(40), hidden]),
        attestation: 'candidates',
      }),
    );
    expect(listed.receipt.trace.length).toBeLessThan(listed.trace.length);
    const rowsOnly: CompileOutcome = {
      ...listed,
      trace: listed.receipt.trace,
      counts: { ...listed.counts, candidates: listed.trace.length },
    };
    const countsOf = (outcome: CompileOutcome) =>
      buildUserView(sha256, outcome, discloseOutcome(outcome, 'user')).counts;
    expect(countsOf(rowsOnly)).toEqual(countsOf(listed));
    expect(countsOf(listed)).toMatchObject({ candidates: listed.trace.length - 1, withheld: 1 });
  });

  it('names no refused record but a required one that stops the compile', async () => {
    const failing = valueOf(
      await compiler.compile({
        contract: buildContract({ requiredRecords: ['out-3'] }),
        recordSet: buildRecordSet(records(40)),
        attestation: 'candidates',
      }),
    );
    expect(failing.status).toBe('fail_closed');
    const refused = failing.receipt.trace.filter((row) => row.gates.length > 0).map((row) => row.id);
    expect(refused).toEqual(['out-3']);
    expect(failing.receipt.failure?.recordId).toBe('out-3');
  });

  it('parses, keeps its id, is reperformed by the drill, and travels in a statement', async () => {
    const request = { contract, recordSet: buildRecordSet(records(40)), attestation: 'candidates' as const };
    const { receipt } = valueOf(await compiler.compile(request));
    const parsed = receiptSchema.parse(JSON.parse(serialiseReceipt(receipt)));
    expect(receiptIntegrity(sha256, parsed)).toBeNull();
    expect(serialiseReceipt(parsed)).toBe(serialiseReceipt(receipt));
    // The drill compiles again as the receipt attests, whatever the request asks.
    expect(
      (await drill(compiler, { ...request, attestation: 'full', priorReceipt: parsed, declaredChanges: [] })).code,
    ).toBe('RECEIPT_CURRENT');
    const omitted = parsed.omitted ?? { admittedDigest: '', rows: {}, withheld: 0 };
    const forged = { ...parsed, omitted: { ...omitted, rows: { ...omitted.rows, EXCLUDE_SCOPE: 39 } } };
    expect(receiptIntegrity(sha256, forged)?.code).toBe('RECEIPT_INVALID');
    const moreWithheld = { ...parsed, omitted: { ...omitted, withheld: omitted.withheld + 1 } };
    expect(receiptIntegrity(sha256, moreWithheld)?.code).toBe('RECEIPT_INVALID');
    expect(receiptStatement(sha256, receipt, null).predicate).toBe(receipt);
  });
});
