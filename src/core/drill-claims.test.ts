import { sha256 } from './test-support/sha256';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CompileRequest } from './compile';
import { createSqliteCompiler, type SqliteCompiler } from '../adapters/sqlite/compiler';
import { drill } from './drill';
import { receiptIdOf } from './phases/7-attest/attest';
import type { Receipt, TraceRow } from './result';
import { buildContract, buildRecord, buildRecordSet, valueOf } from './test-support/builders';
import { propertyParameters } from './test-support/arbitraries';
import { FALSE_CLAIMS, posingAsStale } from './test-support/forgery';
import { freshDriver, sharedDriver } from './test-support/node-driver';
import { propertyNamed } from './test-support/property-registry';

let compiler: SqliteCompiler;

beforeAll(async () => {
  compiler = createSqliteCompiler(sha256, await sharedDriver());
});

// Two visible records in the packet, one out of scope, one the contract denies, one a small budget leaves out.
const records = [
  buildRecord({ id: 'a', text: 'refund policy for orders' }),
  buildRecord({ id: 'b', text: 'refund policy for returns' }),
  buildRecord({ id: 'outside', text: 'refund policy abroad', scope: 'legal' }),
  buildRecord({ id: 'held', text: 'refund policy merger', access: { labels: ['legal-hold'] } }),
  buildRecord({ id: 'long', text: 'refund policy appendix', tokens: 500 }),
];
const inputs = (): CompileRequest => ({
  contract: buildContract({ denyLabels: ['legal-hold'], tokenBudget: 100 }),
  recordSet: buildRecordSet(records),
});

/** What a forger does: edit the body, then recompute the id as docs/FORMAT.md describes. */
function withBody(receipt: Receipt, change: Partial<Omit<Receipt, 'receiptId'>>): Receipt {
  const { receiptId: _, ...body } = receipt;
  const changed = { ...body, ...change };
  return { receiptId: receiptIdOf(sha256, changed), ...changed };
}

describe('a forgery cannot earn a stale verdict', () => {
  it('compiles to the shape the cases below forge', async () => {
    const genuine = valueOf(await compiler.compile(inputs())).receipt;
    const decisions = Object.fromEntries(genuine.trace.map((row) => [row.id, row.code]));
    expect(decisions).toEqual({
      a: 'SELECTED_RANKED',
      b: 'SELECTED_RANKED',
      outside: 'EXCLUDE_SCOPE',
      held: 'EXCLUDE_DENY_LABEL',
      long: 'EXCLUDE_BUDGET',
    });
  });

  it('refuses a withheld record marked selected beside another record flipped: its unchanged record is judged again', async () => {
    const genuine = valueOf(await compiler.compile(inputs())).receipt;
    const held = genuine.trace.find((row) => row.id === 'held') as TraceRow;
    const forged = posingAsStale(
      genuine,
      'held',
      {
        ...held,
        decision: 'selected',
        code: 'SELECTED_RANKED',
        fact: 'RANKED_SELECTED',
        args: { rank: 1, ranked: 3, used: 20 },
        gates: [],
      },
      'b',
    );
    const verdict = await drill(compiler, { ...inputs(), priorReceipt: forged, declaredChanges: [] });
    expect(verdict).toMatchObject({
      action: 'block',
      code: 'RECEIPT_MISMATCH',
      reperformed: false,
      mismatch: { recordId: 'held' },
    });
    expect(verdict.message).not.toContain('held');
  });

  it('refuses a claimed contract fingerprint its contract does not hash to, and a selected list that is not its selected rows', async () => {
    const genuine = valueOf(await compiler.compile(inputs())).receipt;
    const flip = (hex: string) => `${hex.slice(0, 63)}${hex.endsWith('0') ? '1' : '0'}`;
    const fingerprint = withBody(genuine, {
      contractFingerprint: flip(genuine.contractFingerprint),
      recordSetDigest: flip(genuine.recordSetDigest),
    });
    expect(await drill(compiler, { ...inputs(), priorReceipt: fingerprint, declaredChanges: [] })).toMatchObject({
      code: 'RECEIPT_MISMATCH',
      mismatch: { path: 'contractFingerprint' },
      message: expect.stringContaining('does not hash to the contract fingerprint it claims'),
    });
    const listed = withBody(genuine, {
      selected: [...genuine.selected, 'outside'],
      recordSetDigest: flip(genuine.recordSetDigest),
    });
    expect(await drill(compiler, { ...inputs(), priorReceipt: listed, declaredChanges: [] })).toMatchObject({
      code: 'RECEIPT_MISMATCH',
      mismatch: { path: 'selected' },
    });
  });

  it('still finds a genuinely stale receipt stale: a record changed since, every other claim holds', async () => {
    const genuine = valueOf(await compiler.compile(inputs())).receipt;
    const changed = records.map((record) =>
      record.id === 'b' ? buildRecord({ id: 'b', text: 'refund policy for returns, revised' }) : record,
    );
    const verdict = await drill(compiler, {
      ...inputs(),
      recordSet: buildRecordSet(changed),
      priorReceipt: genuine,
      declaredChanges: [],
    });
    expect(verdict.action).toBe('recompile_required');
    expect(verdict.code).toMatch(/^STALE_/);
  });

  // The property lives in the registry, so `npm run fuzz -- --property forgery-never-stale` runs the same one for
  // millions of cases.
  const forgery = propertyNamed('forgery-never-stale');
  it(`never judges STALE or CURRENT a receipt whose claim about an unchanged record is false, over ${forgery.testRuns} generated cases`, async () => {
    await fc.assert(await forgery.property({ openDatabase: freshDriver }), propertyParameters(forgery.testRuns));
  }, 120_000);

  it('forges a false claim of each kind on the fixed records above', async () => {
    const genuine = valueOf(await compiler.compile(inputs())).receipt;
    let judged = 0;
    for (const target of genuine.trace) {
      for (const [index, claim] of FALSE_CLAIMS.entries()) {
        const edited = claim(target);
        if (edited === null) continue;
        judged += 1;
        const flipped = genuine.trace.find((row) => row.id !== target.id)?.id ?? '';
        const verdict = await drill(compiler, {
          ...inputs(),
          priorReceipt: posingAsStale(genuine, target.id, edited, flipped),
          declaredChanges: [],
        });
        expect(verdict.code, `${target.id} edit ${index}`).toBe('RECEIPT_MISMATCH');
      }
    }
    expect(judged).toBeGreaterThan(20);
  });
});

describe('a receipt made by another store', () => {
  /** The same compiler, naming another adapter in every receipt it makes: how a second store's answers look. */
  const otherStore = (): Pick<SqliteCompiler, 'compile' | 'sha256'> => ({
    sha256,
    compile: async (request) => {
      const compiled = await compiler.compile(request);
      if (!compiled.ok) return compiled;
      const { receiptId: _, ...body } = compiled.value.receipt;
      const named = { ...body, executedBy: { ...body.executedBy, adapter: 'postgresql', adapterVersion: '1' } };
      return { ok: true, value: { ...compiled.value, receipt: { receiptId: receiptIdOf(sha256, named), ...named } } };
    },
  });

  it('is judged on its claims: current when the other store reproduces everything but its own name, and the verdict names both', async () => {
    const made = valueOf(await compiler.compile(inputs())).receipt;
    const verdict = await drill(otherStore(), { ...inputs(), priorReceipt: made, declaredChanges: [] });
    expect(verdict).toMatchObject({ action: 'continue', code: 'RECEIPT_CURRENT', reperformed: true });
    expect(verdict.message).toContain('made by the sqlite adapter 2 and reperformed by the postgresql adapter 1');
    expect(verdict.message).not.toMatch(/Do not continue/);
  });

  it('is still refused when a claim is false', async () => {
    const made = valueOf(await compiler.compile(inputs())).receipt;
    const forged = withBody(made, {
      trace: made.trace.map((row) => (row.id === 'outside' ? { ...row, tokens: row.tokens + 1 } : row)),
    });
    expect(await drill(otherStore(), { ...inputs(), priorReceipt: forged, declaredChanges: [] })).toMatchObject({
      code: 'RECEIPT_MISMATCH',
      mismatch: { path: 'trace[outside].tokens' },
    });
  });
});
