import { sha256 } from './test-support/sha256';
import { describe, expect, it } from 'vitest';
import { sameJson } from './json-compare';
import { diffReceipts, discloseDiff, firstDifference, type DiffableReceipt } from './receipt-diff';
import { describeDiff, renderDiffText } from './receipt-diff-text';

/** A receipt in the v3 shape (docs/FORMAT.md): contract inside, structured facts, per-row fingerprint and rank. */
interface V3Row {
  id: string;
  fingerprint: string;
  decision: 'selected' | 'excluded';
  code: string;
  fact: string;
  args: Record<string, string | number | readonly string[]>;
  tokens: number;
  required: boolean;
  score: number | null;
  rank: number | null;
}

interface V3Receipt extends DiffableReceipt {
  engineVersion: string;
  outcome: 'packet' | 'fail_closed';
  contract: Record<string, unknown>;
  contractFingerprint: string;
  recordSetDigest: string;
  controls: string[];
  lateChanges: string[];
  ranking: unknown;
  decisionBlockedBy: string[];
  failure: null;
  trace: V3Row[];
  selected: string[];
  evidence: { proposition: string; state: 'supported' | 'contradicted' | 'unknown'; records: string[] }[];
}

const row = (id: string, overrides: Partial<V3Row> = {}): V3Row => ({
  id,
  fingerprint: sha256.hex(`record ${id}`),
  decision: 'excluded',
  code: 'EXCLUDE_SCOPE',
  fact: 'SCOPE_NOT_ALLOWED',
  args: { scope: 'legal' },
  tokens: 10,
  required: false,
  score: null,
  rank: null,
  ...overrides,
});

function v3Receipt(overrides: Partial<V3Receipt> = {}): V3Receipt {
  return {
    receiptId: sha256.hex(JSON.stringify(overrides)),
    schemaVersion: 'context-compiler/3',
    engineVersion: '0.2.0',
    outcome: 'packet',
    contract: {
      task: 'Review Atlas',
      asOf: '2026-08-30T00:00:00.000Z',
      requiredRecords: ['F-102'],
      tokenBudget: 900,
      ranking: 'bm25',
      scopes: ['credit'],
    },
    contractFingerprint: 'a'.repeat(64),
    recordSetDigest: 'b'.repeat(64),
    packetFingerprint: 'c'.repeat(64),
    controls: [],
    lateChanges: [],
    ranking: {
      mode: 'bm25',
      statistics: 'admitted',
      documents: 4,
      tokens: 120,
      terms: [{ term: 'waiver', documents: 2 }],
      weights: { title: 2, text: 1 },
    },
    tokensUsed: 380,
    selected: ['F-102', 'ADD-7'],
    evidence: [
      { proposition: 'facility_limit', state: 'supported', records: ['F-102'] },
      { proposition: 'waiver_valid', state: 'unknown', records: [] },
    ],
    decisionBlockedBy: ['waiver_valid'],
    failure: null,
    trace: [
      row('ADD-7', {
        decision: 'selected',
        code: 'SELECTED_RANKED',
        fact: 'RANKED_WITHIN_BUDGET',
        args: { used: 380, budget: 900 },
        score: 1.5,
        rank: 1,
      }),
      row('F-102', {
        decision: 'selected',
        code: 'SELECTED_REQUIRED',
        fact: 'REQUIRED_BY_CONTRACT',
        args: {},
        required: true,
      }),
      row('W-55', { code: 'EXCLUDE_EXPIRED', fact: 'VALID_TO_BEFORE_AS_OF', args: { validTo: '2026-08-28' } }),
      row('X9'),
    ],
    ...overrides,
  };
}

describe('diffReceipts on v3 receipts', () => {
  const before = v3Receipt();
  const after = v3Receipt({
    contract: { ...before.contract, asOf: '2026-08-31T00:00:00.000Z' },
    contractFingerprint: 'd'.repeat(64),
    packetFingerprint: 'e'.repeat(64),
    ranking: {
      mode: 'bm25',
      statistics: 'admitted',
      documents: 3,
      tokens: 100,
      terms: [{ term: 'waiver', documents: 1 }],
      weights: { title: 2, text: 1 },
    },
    tokensUsed: 380,
    selected: ['F-102', 'WV-2'],
    evidence: [
      { proposition: 'facility_limit', state: 'supported', records: ['F-102'] },
      { proposition: 'waiver_valid', state: 'supported', records: ['WV-2'] },
    ],
    decisionBlockedBy: [],
    trace: [
      row('ADD-7', { code: 'EXCLUDE_EXPIRED', fact: 'VALID_TO_BEFORE_AS_OF', args: { validTo: '2026-08-30' } }),
      row('F-102', {
        decision: 'selected',
        code: 'SELECTED_REQUIRED',
        fact: 'REQUIRED_BY_CONTRACT',
        args: {},
        required: true,
        tokens: 11,
        fingerprint: sha256.hex('edited F-102'),
      }),
      row('W-55', { code: 'EXCLUDE_EXPIRED', fact: 'VALID_TO_BEFORE_AS_OF', args: { validTo: '2026-08-28' } }),
      row('WV-2', {
        decision: 'selected',
        code: 'SELECTED_EVIDENCE',
        fact: 'ACCEPTED_EVIDENCE',
        args: { proposition: 'waiver_valid' },
      }),
    ],
  });
  const diff = diffReceipts(before, after);

  it('lists the contract fields that changed, by name, with both values', () => {
    expect(diff.contract).toEqual([
      { field: 'asOf', before: '2026-08-30T00:00:00.000Z', after: '2026-08-31T00:00:00.000Z' },
    ]);
  });

  it('compares lists of named objects item by item, and a reordered principal chain whole', () => {
    const principals = [
      { id: 'dana', kind: 'human', roles: ['agent'] },
      { id: 'bot', kind: 'agent', roles: ['assistant'] },
    ];
    const base = v3Receipt({ contract: { ...before.contract, principals } });
    const roles = diffReceipts(
      base,
      v3Receipt({
        contract: {
          ...before.contract,
          principals: [
            principals[0],
            { ...principals[1], roles: ['assistant', 'reader'] },
            { id: 'svc', kind: 'service', roles: ['x'] },
          ],
        },
      }),
    );
    expect(roles.contract).toEqual([
      { field: 'principals[bot].roles', before: ['assistant'], after: ['assistant', 'reader'] },
      { field: 'principals[svc]', before: null, after: { id: 'svc', kind: 'service', roles: ['x'] } },
    ]);
    const reordered = diffReceipts(
      base,
      v3Receipt({ contract: { ...before.contract, principals: [...principals].reverse() } }),
    );
    expect(reordered.contract.map((change) => change.field)).toEqual(['principals']);
  });

  it('lists the other receipt fields that changed, descending into the ranking statistics', () => {
    expect(diff.fields.map((change) => change.field)).toEqual([
      'contractFingerprint',
      'decisionBlockedBy',
      'ranking.documents',
      'ranking.terms[waiver].documents',
      'ranking.tokens',
    ]);
  });

  it('tells records added, removed and changed by the per-row fingerprint', () => {
    expect(diff.records).toEqual({ added: ['WV-2'], removed: ['X9'], changed: ['F-102'] });
  });

  it('names each record whose decision or code changed, and rows that changed otherwise', () => {
    expect(diff.decisions).toEqual([
      {
        id: 'ADD-7',
        before: { decision: 'selected', code: 'SELECTED_RANKED' },
        after: { decision: 'excluded', code: 'EXCLUDE_EXPIRED' },
      },
    ]);
    expect(diff.rows).toEqual([{ id: 'F-102', fields: ['tokens'] }]);
  });

  it('lists evidence slots and packet changes', () => {
    expect(diff.evidence).toEqual([
      {
        proposition: 'waiver_valid',
        before: { state: 'unknown', records: [] },
        after: { state: 'supported', records: ['WV-2'] },
      },
    ]);
    expect(diff.packet).toMatchObject({
      in: ['WV-2'],
      out: ['ADD-7'],
      reordered: false,
      tokensBefore: 380,
      tokensAfter: 380,
      fingerprintBefore: 'c'.repeat(64),
      fingerprintAfter: 'e'.repeat(64),
    });
  });

  it('names the first difference in canonical key order', () => {
    expect(diff.identical).toBe(false);
    expect(diff.firstDifference).toEqual({ path: 'contract.asOf', recordId: null });
  });

  it('words it the way the README shows', () => {
    const text = renderDiffText(diff);
    expect(text).toContain('asOf 2026-08-30T00:00:00.000Z → 2026-08-31T00:00:00.000Z');
    expect(text).toContain('ADD-7 SELECTED_RANKED → EXCLUDE_EXPIRED');
    expect(text).toContain('waiver_valid unknown → supported (records - → WV-2)');
    expect(text).toContain('in: WV-2');
    expect(text).toContain('out: ADD-7');
    expect(text).toContain('Records: 1 added, 1 removed, 1 changed');
  });

  it('is the same whichever order the rows and slots come in', () => {
    const shuffled = { ...after, trace: [...after.trace].reverse(), evidence: [...after.evidence].reverse() };
    const again = diffReceipts(before, shuffled);
    expect(again.records).toEqual(diff.records);
    expect(again.decisions).toEqual(diff.decisions);
    expect(again.evidence).toEqual(diff.evidence);
  });

  it('finds nothing between a receipt and itself', () => {
    const same = diffReceipts(before, structuredClone(before));
    expect(same.identical).toBe(true);
    expect(same.firstDifference).toBeNull();
    expect(describeDiff(same)).toEqual([]);
    expect(renderDiffText(same)).toContain('identical');
  });
});

describe('discloseDiff', () => {
  it('names no record the user view withholds, on either side, and does not count them', () => {
    const before = v3Receipt();
    const after = v3Receipt({
      selected: ['F-102'],
      trace: before.trace.map((item) =>
        item.id === 'ADD-7'
          ? { ...item, decision: 'excluded' as const, code: 'EXCLUDE_NOT_AUTHORISED', rank: null, score: null }
          : item.id === 'X9'
            ? { ...item, fact: 'edited' }
            : item,
      ),
      evidence: [
        { proposition: 'facility_limit', state: 'supported', records: ['F-102'] },
        { proposition: 'waiver_valid', state: 'supported', records: ['ADD-7'] },
      ],
    });
    // What the caller finds withheld in either receipt (src/core/disclosure.ts): ADD-7 now, X9 by a deny.
    const withheld = new Set(['ADD-7', 'X9']);
    const full = diffReceipts(before, after);
    const disclosed = discloseDiff(full, withheld);
    expect(full.decisions.map((change) => change.id)).toEqual(['ADD-7']);
    expect(disclosed.decisions).toEqual([]);
    expect(disclosed.rows).toEqual([]);
    expect(disclosed.packet.out).toEqual([]);
    expect(disclosed.evidence).toEqual([
      {
        proposition: 'waiver_valid',
        before: { state: 'unknown', records: [] },
        after: { state: 'supported', records: [] },
      },
    ]);
    expect(disclosed.identical).toBe(false);
    expect(disclosed.firstDifference).toBeNull();
    const text = renderDiffText(disclosed);
    expect(text).not.toMatch(/ADD-7|X9|outside the authorised scope/);
    expect(discloseDiff(full, new Set())).toBe(full);
  });

  it('shows nothing, not even that something differs, when only withheld records changed', () => {
    const before = v3Receipt();
    const after = v3Receipt({
      recordSetDigest: 'f'.repeat(64),
      trace: before.trace.map((item) => (item.id === 'X9' ? { ...item, fact: 'edited' } : item)),
    });
    const full = diffReceipts(before, after);
    expect(full.identical).toBe(false);
    expect(full.fields.map((change) => change.field)).toEqual(['recordSetDigest']);
    const disclosed = discloseDiff(full, new Set(['X9']));
    expect(disclosed).toMatchObject({
      identical: true,
      firstDifference: null,
      fields: [],
      rows: [],
      before: { receiptId: '' },
      after: { receiptId: '' },
    });
    expect(describeDiff(disclosed)).toEqual([]);
  });
});

describe('the ranking section and what a candidates receipt leaves out', () => {
  const ranked = (entries: readonly (readonly [string, number])[]) =>
    entries.map(([id, score], index) => ({ id, rank: index + 1, score }));
  const before = {
    ...v3Receipt(),
    ranked: ranked([
      ['ADD-7', 2],
      ['Q-1', 1],
    ]),
    omitted: { admittedDigest: 'a'.repeat(64), rows: { EXCLUDE_SCOPE: 3 } },
  };
  const after = {
    ...v3Receipt(),
    ranked: ranked([
      ['Q-1', 3],
      ['ADD-7', 1],
    ]),
    omitted: { admittedDigest: 'b'.repeat(64), rows: { EXCLUDE_SCOPE: 4 } },
  };

  it('compares ranks and scores by record, whatever order the statistics put them in', () => {
    const fields = diffReceipts(before, after).fields.map((change) => change.field);
    expect(fields).toEqual([
      'omitted.admittedDigest',
      'omitted.rows.EXCLUDE_SCOPE',
      'ranked[ADD-7].rank',
      'ranked[ADD-7].score',
      'ranked[Q-1].rank',
      'ranked[Q-1].score',
    ]);
  });

  it('shows the user view no entry of a withheld record and nothing of the rows left out', () => {
    const disclosed = discloseDiff(diffReceipts(before, after), new Set(['ADD-7']));
    expect(disclosed.fields.map((change) => change.field)).toEqual(['ranked[Q-1].rank', 'ranked[Q-1].score']);
  });
});

describe('firstDifference', () => {
  const base = v3Receipt();
  it('names the trace row and its field', () => {
    const edited = {
      ...base,
      trace: base.trace.map((item) => (item.id === 'W-55' ? { ...item, decision: 'selected' as const } : item)),
    };
    expect(firstDifference(base, edited)).toEqual({ path: 'trace[W-55].decision', recordId: 'W-55' });
  });

  it('names the evidence slot by its proposition and a selected id by its record', () => {
    const slot = {
      ...base,
      evidence: base.evidence.map((item) =>
        item.proposition === 'waiver_valid' ? { ...item, state: 'supported' as const } : item,
      ),
    };
    expect(firstDifference(base, slot)).toEqual({ path: 'evidence[waiver_valid].state', recordId: null });
    expect(firstDifference(base, { ...base, selected: ['F-102', 'W-55'] })).toEqual({
      path: 'selected[1]',
      recordId: 'ADD-7',
    });
    expect(firstDifference(base, { ...base, selected: ['F-102'] })).toEqual({ path: 'selected[1]', recordId: 'ADD-7' });
  });

  it('ignores the receipt id itself', () => {
    expect(firstDifference(base, { ...base, receiptId: 'f'.repeat(64) })).toBeNull();
  });
});

describe('diffReceipts at 100,000 rows', () => {
  it('diffs two large receipts in order, with every change counted', () => {
    const size = 100_000;
    const ids = Array.from({ length: size }, (_, index) => `R-${String(index).padStart(6, '0')}`);
    const trace = ids.map((id) => row(id));
    const before = v3Receipt({ trace, selected: ids.slice(0, 1_000) });
    const after = v3Receipt({
      trace: trace
        .map((item, index) =>
          index % 10 === 0
            ? { ...item, code: 'EXCLUDE_EXPIRED' }
            : index % 10 === 1
              ? { ...item, fingerprint: sha256.hex(item.id) }
              : item,
        )
        .slice(1),
      selected: ids.slice(500, 1_500),
    });
    const diff = diffReceipts(before, after);
    expect(diff.records.removed).toEqual(['R-000000']);
    expect(diff.records.changed).toHaveLength(size / 10);
    expect(diff.decisions).toHaveLength(size / 10 - 1);
    expect(diff.packet.in).toHaveLength(500);
    expect(diff.packet.out).toHaveLength(500);
    const sections = describeDiff(diff, 20);
    expect(sections.find((section) => section.key === 'decisions')?.more).toBe(size / 10 - 1 - 20);
    expect(sameJson(diffReceipts(before, after), diff)).toBe(true);
  });
});
