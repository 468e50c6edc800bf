import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCompiler, type Compiler, type CompileRequest } from './compile';
import { drill } from './drill';
import { receiptIdOf } from './passes/attest';
import type { Receipt, TraceRow } from './result';
import { buildContract, buildRecord, buildRecordSet, valueOf } from './test-support/builders';
import { sharedDriver } from './test-support/node-driver';

let compiler: Compiler;

beforeAll(async () => {
  compiler = createCompiler(await sharedDriver());
});

// Two visible records in the packet, one out of scope, one the contract denies, one a small budget leaves out.
const records = [
  buildRecord({ id: 'a', text: 'refund policy for orders' }),
  buildRecord({ id: 'b', text: 'refund policy for returns' }),
  buildRecord({ id: 'outside', text: 'refund policy abroad', scope: 'legal' }),
  buildRecord({ id: 'held', text: 'refund policy merger', access: { labels: ['legal-hold'] } }),
  buildRecord({ id: 'long', text: 'refund policy appendix', tokens: 500 }),
];
const inputs = (): CompileRequest => ({ contract: buildContract({ denyLabels: ['legal-hold'], tokenBudget: 100 }), recordSet: buildRecordSet(records) });

/** What a forger does: edit the body, then recompute the id as docs/FORMAT.md describes. */
function withBody(receipt: Receipt, change: Partial<Omit<Receipt, 'receiptId'>>): Receipt {
  const { receiptId: _, ...body } = receipt;
  const changed = { ...body, ...change };
  return { receiptId: receiptIdOf(changed), ...changed };
}

const flipHex = (hex: string) => `${hex.slice(0, 63)}${hex.endsWith('0') ? '1' : '0'}`;

/**
 * A forgery that poses as stale: besides the edited rows it claims another version of one record and so
 * another record set, which no reperformance over the records at hand can reproduce byte for byte.
 */
function posingAsStale(genuine: Receipt, edit: (row: TraceRow) => TraceRow, flipped: string): Receipt {
  const trace = genuine.trace.map((row) => (row.id === flipped ? { ...row, fingerprint: flipHex(row.fingerprint) } : edit(row)));
  return withBody(genuine, { trace, recordSetDigest: flipHex(genuine.recordSetDigest) });
}

describe('a forgery cannot earn a stale verdict', () => {
  it('compiles to the shape the cases below forge', () => {
    const genuine = valueOf(compiler.compile(inputs())).receipt;
    const decisions = Object.fromEntries(genuine.trace.map((row) => [row.id, row.code]));
    expect(decisions).toEqual({ a: 'SELECTED_RANKED', b: 'SELECTED_RANKED', outside: 'EXCLUDE_SCOPE', held: 'EXCLUDE_DENY_LABEL', long: 'EXCLUDE_BUDGET' });
  });

  it('refuses a withheld record marked selected beside another record flipped: its unchanged record is judged again', () => {
    const genuine = valueOf(compiler.compile(inputs())).receipt;
    const forged = posingAsStale(genuine, (row) => (row.id === 'held' ? { ...row, decision: 'selected', code: 'SELECTED_RANKED', fact: 'RANKED_SELECTED', args: { rank: 1, ranked: 3, used: 20 }, gates: [] } : row), 'b');
    const verdict = drill(compiler, { ...inputs(), priorReceipt: forged, declaredChanges: [] });
    expect(verdict).toMatchObject({ action: 'block', code: 'RECEIPT_MISMATCH', reperformed: false, mismatch: { recordId: 'held' } });
    expect(verdict.message).not.toContain('held');
  });

  it('still finds a genuinely stale receipt stale: a record changed since, every other claim holds', () => {
    const genuine = valueOf(compiler.compile(inputs())).receipt;
    const changed = records.map((record) => (record.id === 'b' ? buildRecord({ id: 'b', text: 'refund policy for returns, revised' }) : record));
    const verdict = drill(compiler, { ...inputs(), recordSet: buildRecordSet(changed), priorReceipt: genuine, declaredChanges: [] });
    expect(verdict.action).toBe('recompile_required');
    expect(verdict.code).toMatch(/^STALE_/);
  });

  it('never judges STALE or CURRENT a receipt whose claim about an unchanged record is false', () => {
    const genuine = valueOf(compiler.compile(inputs())).receipt;
    const ids = genuine.trace.map((row) => row.id);
    // Each edit makes a claim the contract and the unchanged record decide on their own.
    const edits: ((row: TraceRow) => TraceRow | null)[] = [
      (row) => ({ ...row, tokens: row.tokens + 1 }),
      (row) => ({ ...row, required: !row.required }),
      (row) => (row.gates.length > 0 ? { ...row, gates: [] } : { ...row, gates: ['deny'] }),
      (row) => (row.gates.length > 0 ? { ...row, decision: 'selected', code: 'SELECTED_RANKED' } : null),
      (row) => (row.gates.length > 0 ? { ...row, code: row.code === 'EXCLUDE_SCOPE' ? 'EXCLUDE_PROJECT' : 'EXCLUDE_SCOPE' } : null),
      (row) => (row.gates.length > 0 ? { ...row, args: { ...row.args, extra: 'x' } } : null),
      (row) => (row.decision === 'selected' ? { ...row, gates: ['scope'] } : null),
    ];
    let judged = 0;
    fc.assert(
      fc.property(fc.nat({ max: ids.length - 1 }), fc.nat({ max: ids.length - 2 }), fc.nat({ max: edits.length - 1 }), (target, other, editIndex) => {
        const targetId = ids[target] as string;
        const flipped = ids.filter((id) => id !== targetId)[other] as string;
        const edit = edits[editIndex] as (row: TraceRow) => TraceRow | null;
        const edited = edit(genuine.trace[target] as TraceRow);
        if (edited === null) return;
        judged += 1;
        const forged = posingAsStale(genuine, (row) => (row.id === targetId ? edited : row), flipped);
        const verdict = drill(compiler, { ...inputs(), priorReceipt: forged, declaredChanges: [] });
        expect(verdict.code, `${targetId} edit ${editIndex}, ${flipped} flipped`).toBe('RECEIPT_MISMATCH');
        expect(verdict.action).toBe('block');
      }),
      { numRuns: 150 },
    );
    expect(judged).toBeGreaterThan(60);
  });
});

describe('a receipt made by another store', () => {
  /** The same compiler, naming another adapter in every receipt it makes: how a second store's answers look. */
  const otherStore = (): Pick<Compiler, 'compile'> => ({
    compile: (request) => {
      const compiled = compiler.compile(request);
      if (!compiled.ok) return compiled;
      const { receiptId: _, ...body } = compiled.value.receipt;
      const named = { ...body, executedBy: { ...body.executedBy, adapter: 'postgresql', adapterVersion: '1' } };
      return { ok: true, value: { ...compiled.value, receipt: { receiptId: receiptIdOf(named), ...named } } };
    },
  });

  it('is judged on its claims: current when the other store reproduces everything but its own name, and the verdict names both', () => {
    const made = valueOf(compiler.compile(inputs())).receipt;
    const verdict = drill(otherStore(), { ...inputs(), priorReceipt: made, declaredChanges: [] });
    expect(verdict).toMatchObject({ action: 'continue', code: 'RECEIPT_CURRENT', reperformed: true });
    expect(verdict.message).toContain('made by the sqlite adapter 2 and reperformed by the postgresql adapter 1');
    expect(verdict.message).not.toMatch(/Do not continue/);
  });

  it('is still refused when a claim is false', () => {
    const made = valueOf(compiler.compile(inputs())).receipt;
    const forged = withBody(made, { trace: made.trace.map((row) => (row.id === 'outside' ? { ...row, tokens: row.tokens + 1 } : row)) });
    expect(drill(otherStore(), { ...inputs(), priorReceipt: forged, declaredChanges: [] })).toMatchObject({ code: 'RECEIPT_MISMATCH', mismatch: { path: 'trace[outside].tokens' } });
  });
});
