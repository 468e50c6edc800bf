import { sha256 } from './test-support/sha256';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CompileRequest } from './compile';
import { createSqliteCompiler, type SqliteCompiler } from '../adapters/sqlite/compiler';
import { drill } from './drill';
import type { SourceRecord } from './format/record';
import { receiptSchema } from './format/receipt';
import { canonicalJson } from './canonical';
import { receiptIdOf } from './phases/7-attest/attest';
import { FACTS, REASONS } from './reasons';
import { GATE_ORDER, type Receipt } from './result';
import { buildContract, buildRecord, buildRecordSet, valueOf, type ContractOverrides } from './test-support/builders';
import { sharedDriver } from './test-support/node-driver';
import { withBody } from './test-support/forgery';

let compiler: SqliteCompiler;

beforeAll(async () => {
  compiler = createSqliteCompiler(sha256, await sharedDriver());
});

const baseRecords = [buildRecord({ id: 'a', text: 'refund policy' }), buildRecord({ id: 'outside', scope: 'legal' })];

function request(
  records: readonly SourceRecord[] = baseRecords,
  contract: ContractOverrides = {},
  lateChanges: string[] = [],
): CompileRequest {
  return { contract: buildContract(contract), recordSet: buildRecordSet(records), lateChanges };
}

async function receiptOf(compileRequest: CompileRequest): Promise<Receipt> {
  return valueOf(await compiler.compile(compileRequest)).receipt;
}

describe('drill', () => {
  it('lets the agent continue only when its inputs reproduce the receipt byte for byte', async () => {
    const prior = await receiptOf(request());
    expect(await drill(compiler, { ...request(), priorReceipt: prior, declaredChanges: [] })).toMatchObject({
      action: 'continue',
      code: 'RECEIPT_CURRENT',
      priorReceiptId: prior.receiptId,
      currentReceiptId: prior.receiptId,
      reperformed: true,
      diff: null,
      mismatch: null,
    });
  });

  it('blocks a receipt that does not hash to its own id', async () => {
    const prior = await receiptOf(request());
    const tampered = { ...prior, selected: [] };
    expect(await drill(compiler, { ...request(), priorReceipt: tampered, declaredChanges: [] })).toMatchObject({
      action: 'block',
      code: 'RECEIPT_INVALID',
    });
  });

  it('blocks continuing on a fail-closed receipt', async () => {
    const prior = await receiptOf(request(baseRecords, { requiredRecords: ['ghost'] }));
    expect(
      await drill(compiler, {
        ...request(baseRecords, { requiredRecords: ['ghost'] }),
        priorReceipt: prior,
        declaredChanges: [],
      }),
    ).toMatchObject({
      action: 'block',
      code: 'RECEIPT_FAIL_CLOSED',
    });
  });

  it('asks for a recompile when the receipt came from another engine version', async () => {
    const prior = withBody(await receiptOf(request()), { engineVersion: '0.0.9' });
    expect(await drill(compiler, { ...request(), priorReceipt: prior, declaredChanges: [] })).toMatchObject({
      action: 'recompile_required',
      code: 'STALE_ENGINE_VERSION',
    });
  });

  it('asks for a recompile, not a verdict on its id, for a receipt of the previous schema', async () => {
    const { receiptId: _id, ...current } = await receiptOf(request());
    const body = { ...current, schemaVersion: 'context-compiler/1' };
    // Version 1 hashed the canonical body in one piece.
    const prior = { receiptId: sha256.hex(canonicalJson(body)), ...body };
    expect(await drill(compiler, { ...request(), priorReceipt: prior, declaredChanges: [] })).toMatchObject({
      action: 'recompile_required',
      code: 'STALE_ENGINE_VERSION',
    });
  });

  it('asks for a recompile when the contract changed, and shows the diff that says why', async () => {
    const prior = await receiptOf(request());
    const verdict = await drill(compiler, {
      ...request(baseRecords, { task: 'Another task' }),
      priorReceipt: prior,
      declaredChanges: [],
    });
    expect(verdict).toMatchObject({
      action: 'recompile_required',
      code: 'STALE_CONTRACT_FINGERPRINT',
      reperformed: true,
    });
    expect(verdict.currentReceiptId).not.toBe(prior.receiptId);
    expect(verdict.diff?.contract).toEqual([
      { field: 'task', before: 'Answer the refund question', after: 'Another task' },
    ]);
  });

  it('says when a stale receipt could only be re-performed on the records still at hand', async () => {
    const prior = await receiptOf(request());
    const edited = [baseRecords[0] as SourceRecord, buildRecord({ id: 'outside', scope: 'legal', tokens: 99 })];
    const verdict = await drill(compiler, {
      ...request(edited, { task: 'Another task' }),
      priorReceipt: prior,
      declaredChanges: [],
    });
    expect(verdict).toMatchObject({ code: 'STALE_CONTRACT_FINGERPRINT', reperformed: null });
    expect(verdict.message).toMatch(/its claims on the records still at hand held when reperformed/);
  });

  it('asks for a recompile when the packet the current inputs compile to differs', async () => {
    const prior = await receiptOf(request());
    const edited = [
      // The sample provenance hashes the revised text, so the record stays verified.
      buildRecord({ id: 'a', text: 'refund policy, revised' }),
      baseRecords[1] as SourceRecord,
    ];
    expect(await drill(compiler, { ...request(edited), priorReceipt: prior, declaredChanges: [] })).toMatchObject({
      action: 'recompile_required',
      code: 'STALE_PACKET_FINGERPRINT',
    });
  });

  it('asks for a recompile when only records outside the packet changed', async () => {
    const prior = await receiptOf(request());
    const edited = [baseRecords[0] as SourceRecord, buildRecord({ id: 'outside', scope: 'legal', tokens: 99 })];
    expect(await drill(compiler, { ...request(edited), priorReceipt: prior, declaredChanges: [] })).toMatchObject({
      code: 'STALE_RECORD_SET',
    });
  });

  it('asks for a recompile when a declared late change is not in the receipt', async () => {
    const prior = await receiptOf(request());
    expect(await drill(compiler, { ...request(), priorReceipt: prior, declaredChanges: ['late-1'] })).toMatchObject({
      code: 'LATE_USER_INPUT_NOT_APPLIED',
    });
    const applied = await receiptOf(request(baseRecords, {}, ['late-1']));
    expect(
      await drill(compiler, {
        ...request(baseRecords, {}, ['late-1']),
        priorReceipt: applied,
        declaredChanges: ['late-1'],
      }),
    ).toMatchObject({ code: 'RECEIPT_CURRENT' });
  });

  it('asks for a recompile when only the controls differ', async () => {
    const prior = await receiptOf({ ...request(), controls: ['noop'] });
    expect(await drill(compiler, { ...request(), priorReceipt: prior, declaredChanges: [] })).toMatchObject({
      action: 'recompile_required',
      code: 'STALE_CONTROLS',
    });
  });

  it('blocks when the current inputs fail closed or cannot compile', async () => {
    const prior = await receiptOf(request(baseRecords, { requiredRecords: ['a'] }));
    const withoutA = [baseRecords[1] as SourceRecord];
    expect(
      await drill(compiler, {
        ...request(withoutA, { requiredRecords: ['a'] }),
        priorReceipt: prior,
        declaredChanges: [],
      }),
    ).toMatchObject({
      action: 'block',
      code: 'CURRENT_INPUTS_FAIL_CLOSED',
    });
    // A required record that supersedes itself is inadmissible: the current inputs compile, and fail closed.
    const cyclic = [buildRecord({ id: 'a', supersedes: ['a'] }), baseRecords[1] as SourceRecord];
    const failedClosed = await drill(compiler, {
      ...request(cyclic, { requiredRecords: ['a'] }),
      priorReceipt: prior,
      declaredChanges: [],
    });
    expect(failedClosed).toMatchObject({ action: 'block', code: 'CURRENT_INPUTS_FAIL_CLOSED' });
    expect(failedClosed.currentReceiptId).not.toBeNull();
    const ambiguous = {
      requiredRecords: ['a'],
      subject: 'Jo',
      identities: [
        { id: 'cust-1', aliases: ['Jo'] },
        { id: 'cust-2', aliases: ['Jo'] },
      ],
    };
    expect(
      await drill(compiler, { ...request(baseRecords, ambiguous), priorReceipt: prior, declaredChanges: [] }),
    ).toMatchObject({ code: 'CURRENT_INPUTS_FAIL_CLOSED', currentReceiptId: null });
  });
});

describe('reperformance: forged receipts', () => {
  // A packet with one evidence slot left unknown, one admitted record and one refused by scope.
  const records = [
    buildRecord({
      id: 'note',
      text: 'refund policy note',
      evidence: { class: 'email', supports: ['refund_approved'], contradicts: [] },
    }),
    buildRecord({
      id: 'policy',
      text: 'refund policy',
      evidence: { class: 'policy_clause', supports: ['refund_rule'], contradicts: [] },
    }),
    buildRecord({ id: 'outside', text: 'refund policy abroad', scope: 'legal' }),
  ];
  const contract: ContractOverrides = {
    requiredPropositions: [
      { id: 'refund_approved', acceptedClasses: ['approval_record'] },
      { id: 'refund_rule', acceptedClasses: ['policy_clause'] },
    ],
  };
  const inputs = () => request(records, contract);
  const check = async (forged: Receipt) =>
    await drill(compiler, { ...inputs(), priorReceipt: forged, declaredChanges: [] });

  it('compiles to the shape the cases below forge', async () => {
    const genuine = await receiptOf(inputs());
    expect(genuine.evidence).toEqual([
      { proposition: 'refund_approved', state: 'unknown', records: [] },
      { proposition: 'refund_rule', state: 'supported', records: ['policy'] },
    ]);
    expect(genuine.decisionBlockedBy).toEqual(['refund_approved']);
    expect(genuine.trace.find((row) => row.id === 'outside')?.decision).toBe('excluded');
    expect((await check(genuine)).code).toBe('RECEIPT_CURRENT');
  });

  it('refuses an edited evidence slot with a recomputed id, naming the first differing field', async () => {
    const genuine = await receiptOf(inputs());
    const forged = withBody(genuine, {
      evidence: genuine.evidence.map((slot) =>
        slot.proposition === 'refund_approved' ? { ...slot, state: 'supported' as const, records: ['note'] } : slot,
      ),
      decisionBlockedBy: [],
    });
    const verdict = await check(forged);
    expect(verdict).toMatchObject({
      action: 'block',
      code: 'RECEIPT_MISMATCH',
      reperformed: false,
      mismatch: { path: 'decisionBlockedBy[0]', recordId: null },
    });
    expect(verdict.diff?.evidence).toEqual([
      {
        proposition: 'refund_approved',
        before: { state: 'supported', records: ['note'] },
        after: { state: 'unknown', records: [] },
      },
    ]);
    expect(verdict.diff?.firstDifference).toEqual({ path: 'decisionBlockedBy[0]', recordId: null });
  });

  it('refuses an edited trace row with a recomputed id, naming the row and its field', async () => {
    const genuine = await receiptOf(inputs());
    const forged = withBody(genuine, {
      trace: genuine.trace.map((row) =>
        row.id === 'outside' ? { ...row, decision: 'selected' as const, code: 'SELECTED_RANKED' as const } : row,
      ),
    });
    const verdict = await check(forged);
    expect(verdict).toMatchObject({
      code: 'RECEIPT_MISMATCH',
      mismatch: { path: 'trace[outside].code', recordId: 'outside' },
    });
    expect(verdict.diff?.decisions).toEqual([
      {
        id: 'outside',
        before: { decision: 'selected', code: 'SELECTED_RANKED' },
        after: { decision: 'excluded', code: 'EXCLUDE_SCOPE' },
      },
    ]);
  });

  it('refuses an edited packet (selected list and tokens) with a recomputed id', async () => {
    const genuine = await receiptOf(inputs());
    const forged = withBody(genuine, {
      selected: [...genuine.selected, 'outside'],
      tokensUsed: genuine.tokensUsed + 10,
    });
    const verdict = await check(forged);
    expect(verdict).toMatchObject({
      code: 'RECEIPT_MISMATCH',
      mismatch: { path: `selected[${genuine.selected.length}]`, recordId: 'outside' },
    });
    expect(verdict.diff?.packet).toMatchObject({
      out: ['outside'],
      tokensBefore: genuine.tokensUsed + 10,
      tokensAfter: genuine.tokensUsed,
    });
  });

  it('tells a genuine stale receipt from a forged one by reperforming its declared inputs', async () => {
    const before = request(records, contract);
    const after = request(records, { ...contract, task: 'Another task' });
    const genuine = await receiptOf(before);
    const stale = await drill(compiler, {
      ...after,
      priorReceipt: genuine,
      declaredChanges: [],
      declaredInputs: before,
    });
    expect(stale).toMatchObject({ code: 'STALE_CONTRACT_FINGERPRINT', reperformed: true });
    expect(stale.message).not.toMatch(/not reperformed/);
    const forged = withBody(genuine, { decisionBlockedBy: [] });
    expect(
      await drill(compiler, { ...after, priorReceipt: forged, declaredChanges: [], declaredInputs: before }),
    ).toMatchObject({ action: 'block', code: 'RECEIPT_MISMATCH', reperformed: false });
  });

  it('reperforms a receipt from the contract it carries when that contract is nowhere else any more', async () => {
    const edited = request(records, { ...contract, task: 'An edit since reverted' });
    const genuine = await receiptOf(edited);
    // No rebuilt inputs: the current contract is another, and only the receipt still holds its own.
    const stale = await drill(compiler, { ...inputs(), priorReceipt: genuine, declaredChanges: [] });
    expect(stale).toMatchObject({ code: 'STALE_CONTRACT_FINGERPRINT', reperformed: true });
    expect(stale.diff?.contract).toEqual([
      { field: 'task', before: 'An edit since reverted', after: 'Answer the refund question' },
    ]);
    const forged = withBody(genuine, { selected: [] });
    expect(await drill(compiler, { ...inputs(), priorReceipt: forged, declaredChanges: [] })).toMatchObject({
      code: 'RECEIPT_MISMATCH',
      reperformed: false,
    });
  });

  it('never finds a receipt CURRENT after any single-field mutation with a recomputed id', async () => {
    const genuine = await receiptOf(inputs());
    const { receiptId: _id, ...body } = genuine;
    const leaves: (string | number)[][] = [];
    const collect = (value: unknown, path: (string | number)[]) => {
      if (Array.isArray(value)) {
        leaves.push(path);
        value.forEach((item, index) => collect(item, [...path, index]));
      } else if (value !== null && typeof value === 'object') {
        for (const [key, child] of Object.entries(value)) collect(child, [...path, key]);
      } else {
        leaves.push(path);
      }
    };
    collect(body, []);
    // Each mutation keeps the value's kind where it can (another code, a later date, a larger integer),
    // so that the strict schema still reads most of them and the drill has to judge them.
    const enumerations = [
      Object.keys(REASONS),
      Object.keys(FACTS),
      [...GATE_ORDER],
      ['selected', 'excluded'],
      ['supported', 'contradicted', 'unknown'],
      ['packet', 'fail_closed'],
      ['bm25', 'declared'],
      ['human', 'agent', 'service'],
    ];
    const mutate = (value: unknown, pick: number): unknown => {
      if (typeof value === 'string') {
        const kind = enumerations.find((values) => values.includes(value));
        if (kind) return kind[(kind.indexOf(value) + 1 + (pick % (kind.length - 1))) % kind.length];
        if (/^[0-9a-f]{64}$/.test(value)) return `${value.slice(0, 63)}${value.endsWith('0') ? '1' : '0'}`;
        if (/^\d{4}-/.test(value)) return `${Number(value.slice(0, 4)) + 1}${value.slice(4)}`;
        return `${value}x`;
      }
      if (typeof value === 'number') return Number.isInteger(value) ? value + 1 + (pick % 2) : value + 0.5;
      if (typeof value === 'boolean') return !value;
      if (value === null) return 1;
      if (Array.isArray(value))
        return value.length > 1 ? value.slice(1) : value.length === 1 ? [...value, value[0]] : ['x'];
      return value;
    };
    const setAt = (value: unknown, path: readonly (string | number)[], pick: number): unknown => {
      if (path.length === 0) return mutate(value, pick);
      const [head, ...rest] = path as [string | number, ...(string | number)[]];
      if (Array.isArray(value)) return value.map((item, index) => (index === head ? setAt(item, rest, pick) : item));
      return {
        ...(value as Record<string, unknown>),
        [head]: setAt((value as Record<string, unknown>)[head], rest, pick),
      };
    };
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: leaves.length - 1 }), fc.nat(), async (leaf, pick) => {
        const mutated = setAt(body, leaves[leaf] as (string | number)[], pick) as object;
        const parsed = receiptSchema.safeParse({ ...mutated, receiptId: '0'.repeat(64) });
        // A mutation the strict schema refuses is never read as a receipt at all.
        if (!parsed.success) return;
        const { receiptId: _unused, ...typed } = parsed.data;
        const verdict = await check({ receiptId: receiptIdOf(sha256, typed), ...typed });
        const top = String(leaves[leaf]?.[0]);
        // The store's name is the one claim another store cannot reperform: the verdict names both stores instead.
        if (top === 'executedBy' && ['adapter', 'adapterVersion'].includes(String(leaves[leaf]?.[1]))) {
          expect(verdict.message).toContain(
            `made by the ${typed.executedBy.adapter} adapter ${typed.executedBy.adapterVersion} and reperformed by the sqlite adapter`,
          );
          return;
        }
        expect(verdict.action, JSON.stringify(leaves[leaf])).not.toBe('continue');
        const inputField = [
          'schemaVersion',
          'engineVersion',
          'contractFingerprint',
          'recordSetDigest',
          'controls',
          'lateChanges',
        ].includes(top);
        if (!inputField)
          expect(verdict).toMatchObject({
            code: 'RECEIPT_MISMATCH',
            mismatch: { path: expect.stringMatching(new RegExp(`^${top}`)) },
          });
      }),
      { numRuns: 300 },
    );
    // Most fields' mutations must reach the drill, or the property says little: counted over every field, not the
    // random draws, so the bound does not depend on the seed.
    const refusedFields = leaves.filter(
      (path) => !receiptSchema.safeParse({ ...(setAt(body, path, 0) as object), receiptId: '0'.repeat(64) }).success,
    );
    expect(refusedFields.length / leaves.length, JSON.stringify(refusedFields)).toBeLessThan(0.2);
  });
});

describe('disclosure in the verdict', () => {
  it('names a withheld record in the diagnostic diff only', async () => {
    const records = [
      buildRecord({ id: 'a', text: 'refund policy' }),
      buildRecord({ id: 'secret', text: 'refund policy', access: { roles: ['counsel'] } }),
    ];
    const genuine = await receiptOf(request(records));
    const forged = withBody(genuine, {
      trace: genuine.trace.map((row) => (row.id === 'secret' ? { ...row, tokens: row.tokens + 1 } : row)),
    });
    const verdict = await drill(compiler, { ...request(records), priorReceipt: forged, declaredChanges: [] });
    expect(verdict.code).toBe('RECEIPT_MISMATCH');
    expect(verdict.diff?.rows).toEqual([{ id: 'secret', fields: ['tokens'] }]);
    // The verdict still blocks; its user-view diff names nothing, counts nothing and shows no digest or first
    // difference.
    expect(JSON.stringify(verdict.userDiff)).not.toContain('secret');
    expect(verdict.userDiff).toMatchObject({ identical: true, firstDifference: null, rows: [], fields: [] });
  });
});
