import { sha256 } from './test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../adapters/sqlite/compiler';
import { diffReceipts } from './receipt-diff';
import { buildContract, buildRecord, buildRecordSet, valueOf } from './test-support/builders';
import { sharedDriver } from './test-support/node-driver';

describe('diffReceipts on receipts from the compiler', () => {
  let compiler: SqliteCompiler;
  beforeAll(async () => {
    compiler = createSqliteCompiler(sha256, await sharedDriver());
  });

  it('names the as-of change, the record that expired with it and the packet it left', async () => {
    const records = [
      buildRecord({ id: 'a', text: 'refund policy', validTo: '2026-08-30' }),
      buildRecord({ id: 'b', text: 'refund' }),
    ];
    const first = valueOf(
      await compiler.compile({ contract: buildContract({ asOf: '2026-08-30' }), recordSet: buildRecordSet(records) }),
    ).receipt;
    const second = valueOf(
      await compiler.compile({ contract: buildContract({ asOf: '2026-08-31' }), recordSet: buildRecordSet(records) }),
    ).receipt;
    const diff = diffReceipts(first, second);
    expect(diff.contract).toEqual([
      { field: 'asOf', before: '2026-08-30T00:00:00.000Z', after: '2026-08-31T00:00:00.000Z' },
    ]);
    expect(diff.records).toEqual({ added: [], removed: [], changed: [] });
    expect(diff.decisions).toEqual([
      {
        id: 'a',
        before: { decision: 'selected', code: 'SELECTED_RANKED' },
        after: { decision: 'excluded', code: 'EXCLUDE_EXPIRED' },
      },
    ]);
    expect(diff.packet.out).toEqual(['a']);
    expect(diff.firstDifference).toEqual({ path: 'contract.asOf', recordId: null });
  });

  it('tells an edited record by its fingerprint, even when no decision changed', async () => {
    const contract = buildContract();
    const first = valueOf(
      await compiler.compile({
        contract,
        recordSet: buildRecordSet([buildRecord({ id: 'a', text: 'refund policy' })]),
      }),
    ).receipt;
    const second = valueOf(
      await compiler.compile({
        contract,
        recordSet: buildRecordSet([buildRecord({ id: 'a', text: 'refund policy', tokens: 12 })]),
      }),
    ).receipt;
    const diff = diffReceipts(first, second);
    expect(diff.records.changed).toEqual(['a']);
    expect(diff.decisions).toEqual([]);
    expect(diff.rows).toEqual([{ id: 'a', fields: ['args', 'tokens'] }]);
  });
});
