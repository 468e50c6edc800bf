import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../canonical';
import { createCompiler, type Compiler } from '../compile';
import { receiptSchema } from '../format/receipt';
import { sha256Hex } from '../hash';
import type { CompileOutcome } from '../result';
import { buildContract, buildRecord, buildRecordSet, valueOf } from '../test-support/builders';
import { sharedDriver } from '../test-support/node-driver';
import { contractFingerprint, packetWithManifest, receiptIdOf, recordFingerprint, recordSetDigest, serialiseReceipt } from './attest';

let compiler: Compiler;

beforeAll(async () => {
  compiler = createCompiler(await sharedDriver());
});

const records = [buildRecord({ id: 'a', text: 'refund policy' }), buildRecord({ id: 'b', text: 'refund' }), buildRecord({ id: 'c', scope: 'legal' })];

function compileDefault(): CompileOutcome {
  return valueOf(compiler.compile({ contract: buildContract(), recordSet: buildRecordSet(records), controls: ['z', 'a'] }));
}

describe('canonicalJson', () => {
  it('sorts keys, drops undefined and adds no whitespace', () => {
    expect(canonicalJson({ b: 1, a: [true, null, { d: 'x', c: undefined }] })).toBe('{"a":[true,null,{"d":"x"}],"b":1}');
  });

  it('refuses values JSON cannot carry exactly', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(TypeError);
    expect(() => canonicalJson(() => 1)).toThrow(TypeError);
  });
});

describe('receipt', () => {
  it('has an id that is the SHA-256 of the canonical JSON of everything else', () => {
    const { receipt } = compileDefault();
    const { receiptId, ...body } = receipt;
    expect(receiptId).toBe(sha256Hex(canonicalJson(body)));
    expect(receiptIdOf(body)).toBe(receiptId);
  });

  it('fingerprints the packet body and records the sorted controls', () => {
    const outcome = compileDefault();
    if (outcome.status !== 'packet') throw new Error('expected a packet');
    expect(outcome.receipt.packetFingerprint).toBe(sha256Hex(outcome.packet.body));
    expect(outcome.receipt.controls).toEqual(['a', 'z']);
    expect(packetWithManifest(outcome.packet, outcome.receipt)).toContain(`receipt: ${outcome.receipt.receiptId}`);
    expect(outcome.packet.body).toContain('[1] a: Title of a');
  });

  it('serialises to canonical JSON that the strict receipt schema accepts', () => {
    const text = serialiseReceipt(compileDefault().receipt);
    expect(canonicalJson(JSON.parse(text))).toBe(text);
    expect(receiptSchema.safeParse(JSON.parse(text)).success).toBe(true);
  });

  it('changes its id when any traced fact changes', () => {
    const before = compileDefault().receipt.receiptId;
    const after = valueOf(compiler.compile({ contract: buildContract({ scopes: ['support', 'legal'] }), recordSet: buildRecordSet(records), controls: ['z', 'a'] })).receipt.receiptId;
    expect(after).not.toBe(before);
  });
});

describe('fingerprints', () => {
  it('ignore the order of set-like lists but not the principal chain', () => {
    const contract = buildContract({ scopes: ['support', 'billing'], denyLabels: ['x', 'y'] });
    const reordered = buildContract({ scopes: ['billing', 'support'], denyLabels: ['y', 'x'], asOf: '2026-08-30T14:00:00+02:00' });
    expect(contractFingerprint(reordered)).toBe(contractFingerprint(contract));
    const chain = [{ id: 'dana', kind: 'human' as const, roles: ['agent'] }, { id: 'bot', kind: 'agent' as const, roles: ['agent'] }];
    expect(contractFingerprint(buildContract({ principals: [...chain].reverse() }))).not.toBe(contractFingerprint(buildContract({ principals: chain })));
  });

  it('cover every record field, and the record-set digest ignores record order', () => {
    const a = buildRecord({ id: 'a', access: { roles: ['x', 'y'] } });
    expect(recordFingerprint(buildRecord({ id: 'a', access: { roles: ['y', 'x'] } }))).toBe(recordFingerprint(a));
    expect(recordFingerprint(buildRecord({ id: 'a', access: { roles: ['x', 'y'] }, tokens: 11 }))).not.toBe(recordFingerprint(a));
    expect(recordSetDigest([...records].reverse())).toBe(recordSetDigest(records));
    expect(recordSetDigest(records.slice(1))).not.toBe(recordSetDigest(records));
  });
});
