import { beforeAll, describe, expect, it } from 'vitest';
import { createCompiler, type Compiler, type CompileRequest } from './compile';
import { drill } from './drill';
import type { SourceRecord } from './format/record';
import { canonicalJson } from './canonical';
import { contentHashOf, sha256Hex } from './hash';
import { receiptIdOf } from './passes/attest';
import type { Receipt } from './result';
import { buildContract, buildRecord, buildRecordSet, valueOf, type ContractOverrides } from './test-support/builders';
import { sharedDriver } from './test-support/node-driver';

let compiler: Compiler;

beforeAll(async () => {
  compiler = createCompiler(await sharedDriver());
});

const baseRecords = [buildRecord({ id: 'a', text: 'refund policy' }), buildRecord({ id: 'outside', scope: 'legal' })];

function request(records: readonly SourceRecord[] = baseRecords, contract: ContractOverrides = {}, lateChanges: string[] = []): CompileRequest {
  return { contract: buildContract(contract), recordSet: buildRecordSet(records), lateChanges };
}

function receiptOf(compileRequest: CompileRequest): Receipt {
  return valueOf(compiler.compile(compileRequest)).receipt;
}

function withBody(receipt: Receipt, change: Partial<Omit<Receipt, 'receiptId'>>): Receipt {
  const { receiptId: _, ...body } = receipt;
  const changed = { ...body, ...change };
  return { receiptId: receiptIdOf(changed), ...changed };
}

describe('drill', () => {
  it('lets the agent continue when nothing changed', () => {
    const prior = receiptOf(request());
    expect(drill(compiler, { ...request(), priorReceipt: prior, declaredChanges: [] })).toMatchObject({ action: 'continue', code: 'RECEIPT_CURRENT', priorReceiptId: prior.receiptId, currentReceiptId: prior.receiptId });
  });

  it('blocks a receipt that does not hash to its own id', () => {
    const prior = receiptOf(request());
    const tampered = { ...prior, selected: [] };
    expect(drill(compiler, { ...request(), priorReceipt: tampered, declaredChanges: [] })).toMatchObject({ action: 'block', code: 'RECEIPT_INVALID' });
  });

  it('blocks continuing on a fail-closed receipt', () => {
    const prior = receiptOf(request(baseRecords, { requiredRecords: ['ghost'] }));
    expect(drill(compiler, { ...request(baseRecords, { requiredRecords: ['ghost'] }), priorReceipt: prior, declaredChanges: [] })).toMatchObject({ action: 'block', code: 'RECEIPT_FAIL_CLOSED' });
  });

  it('asks for a recompile when the receipt came from another engine version', () => {
    const prior = withBody(receiptOf(request()), { engineVersion: '0.0.9' });
    expect(drill(compiler, { ...request(), priorReceipt: prior, declaredChanges: [] })).toMatchObject({ action: 'recompile_required', code: 'STALE_ENGINE_VERSION' });
  });

  it('asks for a recompile, not a verdict on its id, for a receipt of the previous schema', () => {
    const { receiptId: _id, ...current } = receiptOf(request());
    const body = { ...current, schemaVersion: 'context-compiler/1' };
    // Version 1 hashed the canonical body in one piece.
    const prior = { receiptId: sha256Hex(canonicalJson(body)), ...body };
    expect(drill(compiler, { ...request(), priorReceipt: prior, declaredChanges: [] })).toMatchObject({ action: 'recompile_required', code: 'STALE_ENGINE_VERSION' });
  });

  it('asks for a recompile when the contract changed', () => {
    const prior = receiptOf(request());
    expect(drill(compiler, { ...request(baseRecords, { task: 'Another task' }), priorReceipt: prior, declaredChanges: [] })).toMatchObject({ code: 'STALE_CONTRACT_FINGERPRINT', currentReceiptId: null });
  });

  it('asks for a recompile when the packet the current inputs compile to differs', () => {
    const prior = receiptOf(request());
    const edited = [buildRecord({ id: 'a', text: 'refund policy, revised', provenance: { origin: 'crm/a', contentHash: contentHashOf('refund policy, revised') } }), baseRecords[1] as SourceRecord];
    expect(drill(compiler, { ...request(edited), priorReceipt: prior, declaredChanges: [] })).toMatchObject({ action: 'recompile_required', code: 'STALE_PACKET_FINGERPRINT' });
  });

  it('asks for a recompile when only records outside the packet changed', () => {
    const prior = receiptOf(request());
    const edited = [baseRecords[0] as SourceRecord, buildRecord({ id: 'outside', scope: 'legal', tokens: 99 })];
    expect(drill(compiler, { ...request(edited), priorReceipt: prior, declaredChanges: [] })).toMatchObject({ code: 'STALE_RECORD_SET' });
  });

  it('asks for a recompile when a declared late change is not in the receipt', () => {
    const prior = receiptOf(request());
    expect(drill(compiler, { ...request(), priorReceipt: prior, declaredChanges: ['late-1'] })).toMatchObject({ code: 'LATE_USER_INPUT_NOT_APPLIED' });
    const applied = receiptOf(request(baseRecords, {}, ['late-1']));
    expect(drill(compiler, { ...request(baseRecords, {}, ['late-1']), priorReceipt: applied, declaredChanges: ['late-1'] })).toMatchObject({ code: 'RECEIPT_CURRENT' });
  });

  it('blocks when the current inputs fail closed or cannot compile', () => {
    const prior = receiptOf(request(baseRecords, { requiredRecords: ['a'] }));
    const withoutA = [baseRecords[1] as SourceRecord];
    expect(drill(compiler, { ...request(withoutA, { requiredRecords: ['a'] }), priorReceipt: prior, declaredChanges: [] })).toMatchObject({ action: 'block', code: 'CURRENT_INPUTS_FAIL_CLOSED' });
    const cyclic = [buildRecord({ id: 'a', supersedes: ['a'] }), baseRecords[1] as SourceRecord];
    expect(drill(compiler, { ...request(cyclic, { requiredRecords: ['a'] }), priorReceipt: prior, declaredChanges: [] })).toMatchObject({ code: 'CURRENT_INPUTS_FAIL_CLOSED', currentReceiptId: null });
  });
});
