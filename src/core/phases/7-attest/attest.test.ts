import { sha256 } from '../../test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../canonical';
import { CanonicalBytes } from '../../canonical-bytes';
import { createSqliteCompiler, type SqliteCompiler } from '../../../adapters/sqlite/compiler';
import { receiptSchema } from '../../format/receipt';
import { fnv1a } from '../../tree-digest';
import type { FactArgs } from '../../reasons';
import type { CompileOutcome, Receipt } from '../../result';
import { buildContract, buildRecord, buildRecordSet, valueOf } from '../../test-support/builders';
import { sharedDriver } from '../../test-support/node-driver';
import { createPrng } from '../../../shared/prng';
import { contentHashOf, contractFingerprint, recordFingerprint } from '../../fingerprints';
import { packetWithManifest, receiptIdOf, serialiseReceipt } from './attest';
import { recordSetDigest } from './attest-digests';
import { canonicalTraceRow } from './trace-row-bytes';
import { checkRecord } from '../1-validate/validate';

let compiler: SqliteCompiler;

beforeAll(async () => {
  compiler = createSqliteCompiler(sha256, await sharedDriver());
});

const records = [
  buildRecord({ id: 'a', text: 'refund policy' }),
  buildRecord({ id: 'b', text: 'refund' }),
  buildRecord({ id: 'c', scope: 'legal' }),
];

async function compileDefault(): Promise<CompileOutcome> {
  return valueOf(
    await compiler.compile({ contract: buildContract(), recordSet: buildRecordSet(records), controls: ['z', 'a'] }),
  );
}

describe('canonicalJson', () => {
  it('sorts keys, drops undefined and adds no whitespace', () => {
    expect(canonicalJson({ b: 1, a: [true, null, { d: 'x', c: undefined }] })).toBe(
      '{"a":[true,null,{"d":"x"}],"b":1}',
    );
  });

  it('refuses values JSON cannot carry exactly', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(TypeError);
    expect(() => canonicalJson(() => 1)).toThrow(TypeError);
  });
});

/**
 * A tree digest as docs/FORMAT.md defines it, written out plainly: chunks cut after ids whose FNV-1a is divisible by
 * 1,024, then a root over their digests.
 */
function referenceTree(rows: readonly Receipt['trace'][number][]): string {
  const chunks: string[] = [];
  let chunk = '';
  rows.forEach((row, index) => {
    chunk += `${canonicalJson(row)}\n`;
    if (fnv1a(row.id) % 1024 === 0 || index === rows.length - 1) {
      chunks.push(sha256.hex(chunk));
      chunk = '';
    }
  });
  return sha256.hex(chunks.map((digest) => `${digest}\n`).join(''));
}

const PLANNED = /^(SELECTED_|REQUIRED_)|^EXCLUDE_(BUDGET|NOT_RELEVANT|FAIL_CLOSED)$/;

function referenceReceiptId(body: Omit<Receipt, 'receiptId'>): string {
  const refused = referenceTree(body.trace.filter((row) => !PLANNED.test(row.code)));
  const planned = referenceTree(body.trace.filter((row) => PLANNED.test(row.code)));
  return sha256.hex(
    canonicalJson({
      ...body,
      trace: sha256.hex(`${refused}\n${planned}\n`),
      ranked: sha256.hex(canonicalJson(body.ranked)),
    }),
  );
}

describe('receipt', () => {
  it('has an id that hashes the canonical body with the trace replaced by its tree digest', async () => {
    const { receipt } = await compileDefault();
    const { receiptId, ...body } = receipt;
    expect(receiptId).toBe(referenceReceiptId(body));
    expect(receiptIdOf(sha256, body)).toBe(receiptId);
  });

  it('fingerprints the packet body and records the sorted controls', async () => {
    const outcome = await compileDefault();
    if (outcome.status !== 'packet') throw new Error('expected a packet');
    expect(outcome.receipt.packetFingerprint).toBe(sha256.hex(outcome.packet.body));
    expect(outcome.receipt.controls).toEqual(['a', 'z']);
    expect(packetWithManifest(outcome.packet, outcome.receipt)).toContain(`receipt: ${outcome.receipt.receiptId}`);
    expect(outcome.packet.body).toContain('[1] a: Title of a');
  });

  it('serialises to canonical JSON that the strict receipt schema accepts', async () => {
    const text = serialiseReceipt((await compileDefault()).receipt);
    expect(canonicalJson(JSON.parse(text))).toBe(text);
    expect(receiptSchema.safeParse(JSON.parse(text)).success).toBe(true);
  });

  it('carries the normalised contract it compiled and the statistics its scores used', async () => {
    const { receipt } = await compileDefault();
    expect(receipt.contract).toMatchObject({
      asOf: '2026-08-30T12:00:00.000Z',
      scopes: ['support'],
      query: 'refund policy',
    });
    expect(receipt.ranking).toEqual({
      mode: 'bm25',
      statistics: 'admitted',
      documents: 2,
      tokens: expect.any(Number),
      terms: [
        { term: 'refund', documents: 2 },
        { term: 'policy', documents: 1 },
      ],
      weights: { title: 2, text: 1 },
    });
    expect(receipt.recordSetDigest).toBe(recordSetDigest(sha256, buildRecordSet(records).checked));
    expect(receipt.trace.map((row) => row.fingerprint)).toEqual(
      ['a', 'b', 'c'].map(
        (id) => checkRecord(sha256, records.find((record) => record.id === id) ?? buildRecord()).fingerprint,
      ),
    );
  });

  it('cuts the trees of a compiled receipt where the format says, over enough records to make several chunks', async () => {
    const many = Array.from({ length: 4_000 }, (_, index) =>
      buildRecord({
        id: `r-${index}`,
        text: index % 3 === 0 ? 'refund policy' : 'other',
        scope: index % 5 === 0 ? 'legal' : 'support',
      }),
    );
    const recordSet = buildRecordSet(many);
    const { receiptId, ...body } = valueOf(await compiler.compile({ contract: buildContract(), recordSet })).receipt;
    expect(body.trace.filter((row) => fnv1a(row.id) % 1024 === 0).length).toBeGreaterThan(1);
    expect(receiptId).toBe(referenceReceiptId(body));
    const leaves = recordSet.checked
      .map((item) => ({ id: item.record.id, leaf: `${item.record.id}\u0000${item.fingerprint}` }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const chunks: string[] = [];
    let chunk = '';
    leaves.forEach(({ id, leaf }, index) => {
      chunk += `${leaf}\n`;
      if (fnv1a(id) % 1024 === 0 || index === leaves.length - 1) {
        chunks.push(sha256.hex(chunk));
        chunk = '';
      }
    });
    expect(body.recordSetDigest).toBe(sha256.hex(chunks.map((digest) => `${digest}\n`).join('')));
  });

  it('changes its id when any traced fact changes', async () => {
    const before = (await compileDefault()).receipt.receiptId;
    const after = valueOf(
      await compiler.compile({
        contract: buildContract({ scopes: ['support', 'legal'] }),
        recordSet: buildRecordSet(records),
        controls: ['z', 'a'],
      }),
    ).receipt.receiptId;
    expect(after).not.toBe(before);
  });
});

describe('receipt hashing without the joined trace', () => {
  const random = createPrng(5);
  // No lone surrogate: inputs that hold one are refused when read, and canonical JSON refuses it (RFC 8785).
  const awkward = [
    '',
    'plain',
    'quote " and \\ backslash',
    'tab\tnew\nline\u0000',
    'ünïcödé ≠ 日本 😀',
    '\\ud800 written out',
    '"trace":[]',
    '</script>',
  ];
  const row = (index: number): Receipt['trace'][number] => ({
    id: `${random.pick(awkward)}-${index}`,
    fingerprint: sha256.hex(String(index)),
    decision: random.chance(0.5) ? 'selected' : 'excluded',
    code: random.pick([
      'SELECTED_RANKED',
      'EXCLUDE_BUDGET',
      'EXCLUDE_SCOPE',
      'EXCLUDE_DENY_LABEL',
      'REQUIRED_ILLEGAL',
    ] as const),
    fact: random.pick(['SCOPE_NOT_ALLOWED', 'BUDGET_EXCEEDED', 'SUPERSEDED_BY', 'LABEL_DENIED'] as const),
    args: random.pick<FactArgs>([
      {},
      { scope: random.pick(awkward) },
      { tokens: random.int(0, 5000), remaining: -3 },
      { labels: [random.pick(awkward), random.pick(awkward)], z: 1, a: 'x' },
    ]),
    gates: random.pick([[], ['scope'], ['project', 'time', 'deny']] as const),
    tokens: random.int(0, 5000),
    required: random.chance(0.1),
  });

  it('writes every trace row byte for byte as canonicalJson does', () => {
    for (let index = 0; index < 2_000; index += 1) {
      const traceRow = row(index);
      expect(canonicalTraceRow(traceRow)).toBe(canonicalJson(traceRow));
    }
  });

  it('writes names outside the catalogue and gates that are not names as canonicalJson does', () => {
    const odd = ['NOT "A" CODE', 'ünïcödé', 'back\\slash', ''];
    for (let index = 0; index < 200; index += 1) {
      const traceRow = {
        ...row(index),
        code: random.pick(odd),
        decision: random.pick(odd),
        fact: random.pick(odd),
        gates: random.pick([['scope', random.pick(odd)], [1, 'deny'], [null], [{ b: 1, a: 2 }]]),
      } as unknown as Receipt['trace'][number];
      expect(canonicalTraceRow(traceRow)).toBe(canonicalJson(traceRow));
    }
  });

  it('hashes every row of long traces, rows of another shape included, as the format defines', async () => {
    const { receiptId: _id, ...body } = (await compileDefault()).receipt;
    const trace = [
      ...Array.from({ length: 3_000 }, (_, index) => row(index)),
      { ...row(-1), extra: 'kept' } as Receipt['trace'][number],
      { ...row(-2), score: undefined } as unknown as Receipt['trace'][number],
    ];
    for (const candidate of [
      body,
      { ...body, trace: [] },
      { ...body, trace },
      { ...body, contract: { ...body.contract, task: 'a task naming "trace":[] itself' }, trace },
    ]) {
      expect(receiptIdOf(sha256, candidate)).toBe(referenceReceiptId(candidate));
    }
    const edited = trace.map((item, index) =>
      index === 2_500 ? { ...item, args: { ...item.args, edited: 1 } } : item,
    );
    expect(receiptIdOf(sha256, { ...body, trace: edited })).not.toBe(receiptIdOf(sha256, { ...body, trace }));
  });
});

describe('fingerprints', () => {
  it('ignore the order of set-like lists but not the principal chain', () => {
    const contract = buildContract({ scopes: ['support', 'billing'], denyLabels: ['x', 'y'] });
    const reordered = buildContract({
      scopes: ['billing', 'support'],
      denyLabels: ['y', 'x'],
      asOf: '2026-08-30T14:00:00+02:00',
    });
    expect(contractFingerprint(sha256, reordered)).toBe(contractFingerprint(sha256, contract));
    const chain = [
      { id: 'dana', kind: 'human' as const, roles: ['agent'] },
      { id: 'bot', kind: 'agent' as const, roles: ['agent'] },
    ];
    expect(contractFingerprint(sha256, buildContract({ principals: [...chain].reverse() }))).not.toBe(
      contractFingerprint(sha256, buildContract({ principals: chain })),
    );
  });

  it('cover every record field, the text through its content hash, and the record-set digest ignores record order', () => {
    const fingerprint = (record: ReturnType<typeof buildRecord>) =>
      recordFingerprint(sha256, record, contentHashOf(sha256, record.text), new CanonicalBytes());
    const a = buildRecord({ id: 'a', access: { roles: ['x', 'y'] } });
    expect(fingerprint(buildRecord({ id: 'a', access: { roles: ['y', 'x'] } }))).toBe(fingerprint(a));
    expect(fingerprint(buildRecord({ id: 'a', access: { roles: ['x', 'y'] }, tokens: 11 }))).not.toBe(fingerprint(a));
    expect(fingerprint({ ...a, text: `${a.text}.` })).not.toBe(fingerprint(a));
    expect(checkRecord(sha256, a).fingerprint).toBe(fingerprint(a));
    expect(fingerprint(a)).toBe(
      sha256.hex(
        canonicalJson({ ...a, text: contentHashOf(sha256, a.text), access: { ...a.access, roles: ['x', 'y'] } }),
      ),
    );
    const checked = records.map((record) => checkRecord(sha256, record));
    expect(recordSetDigest(sha256, [...checked].reverse())).toBe(recordSetDigest(sha256, checked));
    expect(recordSetDigest(sha256, checked.slice(1))).not.toBe(recordSetDigest(sha256, checked));
  });
});
