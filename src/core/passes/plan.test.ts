import { beforeAll, describe, expect, it } from 'vitest';
import { createCompiler, type Compiler } from '../compile';
import { discloseOutcome } from '../disclosure';
import type { SourceRecord } from '../format/record';
import type { CompiledPacket, CompileOutcome, FailedClosed, TraceRow } from '../result';
import { buildContract, buildRecord, buildRecordSet, valueOf, type ContractOverrides, type RecordOverrides } from '../test-support/builders';
import { sharedDriver } from '../test-support/node-driver';

let compiler: Compiler;

beforeAll(async () => {
  compiler = createCompiler(await sharedDriver());
});

function compile(overrides: ContractOverrides, records: readonly SourceRecord[]): CompileOutcome {
  return valueOf(compiler.compile({ contract: buildContract(overrides), recordSet: buildRecordSet(records) }));
}

function packetOf(outcome: CompileOutcome): CompiledPacket {
  if (outcome.status !== 'packet') throw new Error(`expected a packet, failed closed with ${outcome.failure.code}`);
  return outcome;
}

function failureOf(outcome: CompileOutcome): FailedClosed {
  if (outcome.status !== 'fail_closed') throw new Error('expected a fail-closed outcome');
  return outcome;
}

const rowOf = (outcome: CompileOutcome, id: string): TraceRow | undefined => outcome.trace.find((row) => row.id === id);
const declared = (id: string, relevance: number, tokens = 10, extra: RecordOverrides = {}) => buildRecord({ id, relevance, tokens, ...extra });

describe('required records', () => {
  it('come first, protected before ranking, then evidence, then ranked optionals', () => {
    const records = [declared('opt', 9), declared('req-b', 0), declared('req-a', 0), declared('ev', 1, 10, { evidence: { class: 'waiver', supports: ['p1'] } })];
    const outcome = packetOf(compile({ ranking: 'declared', requiredRecords: ['req-b', 'req-a'], requiredPropositions: [{ id: 'p1', acceptedClasses: ['waiver'] }] }, records));
    expect(outcome.packet.entries.map((entry) => [entry.id, entry.code])).toEqual([
      ['req-a', 'SELECTED_REQUIRED'],
      ['req-b', 'SELECTED_REQUIRED'],
      ['ev', 'SELECTED_EVIDENCE'],
      ['opt', 'SELECTED_RANKED'],
    ]);
  });

  it('fail closed with REQUIRED_NOT_FOUND and no packet', () => {
    const outcome = failureOf(compile({ requiredRecords: ['ghost'] }, [buildRecord({ id: 'a' })]));
    expect(outcome.failure).toMatchObject({ code: 'REQUIRED_NOT_FOUND', recordId: 'ghost' });
    expect(outcome.receipt).toMatchObject({ outcome: 'fail_closed', packetFingerprint: null, selected: [], tokensUsed: 0 });
    expect(rowOf(outcome, 'a')).toMatchObject({ decision: 'excluded', code: 'EXCLUDE_FAIL_CLOSED' });
  });

  it.each<[string, RecordOverrides, string]>([
    ['REQUIRED_ILLEGAL', { validTo: '2026-01-31' }, 'EXCLUDE_EXPIRED: valid_to 2026-01-31 < as_of 2026-08-30T12:00:00Z'],
    ['REQUIRED_NOT_AUTHORISED', { access: { roles: ['auditor'] } }, 'human dana holds none of the allowed roles [auditor]'],
    ['REQUIRED_NOT_AUTHORISED', { project: 'borealis', access: { labels: ['hr'] } }, 'project borealis ≠ contract project atlas'],
    ['REQUIRED_MISSING_PROVENANCE', { provenance: null }, 'no provenance recorded'],
  ])('fail closed with %s and no packet when a required record fails a gate', (code, overrides, fact) => {
    const outcome = failureOf(compile({ requiredRecords: ['req'], denyLabels: ['hr'] }, [buildRecord({ id: 'req', ...overrides }), buildRecord({ id: 'ok' })]));
    expect(outcome.failure).toMatchObject({ pass: 'plan', code, recordId: 'req', fact });
    expect(rowOf(outcome, 'req')).toMatchObject({ decision: 'excluded', code });
    expect(rowOf(outcome, 'ok')).toMatchObject({ decision: 'excluded', code: 'EXCLUDE_FAIL_CLOSED', fact: `no packet is emitted: a required obligation failed (${code})` });
    expect(outcome.receipt.selected).toEqual([]);
  });

  it('keeps a legal record visible to the user when a withheld required record stops compilation', () => {
    const outcome = failureOf(compile({ requiredRecords: ['req'] }, [buildRecord({ id: 'req', access: { roles: ['auditor'] } }), buildRecord({ id: 'ok' })]));
    const view = discloseOutcome(outcome, 'user');
    expect(view.rows.map((row) => row.id)).toEqual(['ok']);
    expect(view.withheldCount).toBe(1);
    expect(JSON.stringify(view.rows)).not.toContain('"req"');
  });

  it('fail closed with REQUIRED_OVER_BUDGET when the required records do not fit', () => {
    const outcome = failureOf(compile({ requiredRecords: ['a', 'b'], tokenBudget: 15 }, [buildRecord({ id: 'a', tokens: 10 }), buildRecord({ id: 'b', tokens: 10 })]));
    expect(outcome.failure).toMatchObject({ code: 'REQUIRED_OVER_BUDGET', fact: 'required records need 20 tokens > budget 15' });
  });
});

describe('budget', () => {
  it('prunes greedily: a record that does not fit is skipped and smaller ones after it still go in', () => {
    const records = [declared('first', 3, 10), declared('big', 2, 20), declared('small', 1, 10)];
    const outcome = packetOf(compile({ ranking: 'declared', tokenBudget: 25 }, records));
    expect(outcome.packet.entries.map((entry) => entry.id)).toEqual(['first', 'small']);
    expect(outcome.packet.tokensUsed).toBe(20);
    expect(rowOf(outcome, 'big')).toMatchObject({ decision: 'excluded', code: 'EXCLUDE_BUDGET', fact: 'needs 20 tokens; 15 of 25 remain', rank: 2 });
  });

  it('ranks only admitted records; ties break by id', () => {
    const records = [declared('b', 1), declared('a', 1), declared('illegal', 9, 10, { scope: 'legal' })];
    const outcome = packetOf(compile({ ranking: 'declared' }, records));
    expect(outcome.packet.entries.map((entry) => entry.id)).toEqual(['a', 'b']);
    expect(rowOf(outcome, 'illegal')).toMatchObject({ code: 'EXCLUDE_SCOPE', rank: null, score: null });
  });

  it('marks a legal record that does not match the query as not relevant', () => {
    const outcome = packetOf(compile({ query: 'refund' }, [buildRecord({ id: 'hit', text: 'refund rules' }), buildRecord({ id: 'miss', title: 'Weather', text: 'sunny' })]));
    expect(rowOf(outcome, 'miss')).toMatchObject({ decision: 'excluded', code: 'EXCLUDE_NOT_RELEVANT' });
    expect(rowOf(outcome, 'hit')).toMatchObject({ decision: 'selected', code: 'SELECTED_RANKED' });
  });
});

describe('evidence slots', () => {
  const propositions = [
    { id: 'p-support', acceptedClasses: ['waiver'] },
    { id: 'p-contra', acceptedClasses: ['waiver'] },
    { id: 'p-unknown', acceptedClasses: ['waiver'], blocking: false },
    { id: 'p-displaced', acceptedClasses: ['facility_record'] },
  ];
  const records = [
    buildRecord({ id: 's1', tokens: 5, evidence: { class: 'waiver', supports: ['p-support', 'p-contra'] } }),
    buildRecord({ id: 's2', tokens: 5, evidence: { class: 'waiver', supports: ['p-contra'] } }),
    buildRecord({ id: 'c1', tokens: 5, evidence: { class: 'waiver', contradicts: ['p-contra'] } }),
    buildRecord({ id: 'mail', tokens: 5, evidence: { class: 'email', supports: ['p-unknown'] } }),
    buildRecord({ id: 'big', tokens: 500, evidence: { class: 'facility_record', supports: ['p-displaced'] } }),
  ];

  it('are supported, contradicted (contradictions kept however many support) or unknown', () => {
    const outcome = packetOf(compile({ requiredPropositions: propositions, tokenBudget: 100 }, records));
    const slots = new Map(outcome.evidence.map((slot) => [slot.proposition, slot]));
    expect(slots.get('p-support')).toMatchObject({ state: 'supported', supporting: ['s1'], contradicting: [] });
    expect(slots.get('p-contra')).toMatchObject({ state: 'contradicted', supporting: ['s1', 's2'], contradicting: ['c1'] });
    expect(slots.get('p-unknown')).toMatchObject({ state: 'unknown', supporting: [], notAccepted: ['mail'] });
    expect(slots.get('p-displaced')).toMatchObject({ state: 'unknown', displaced: ['big'] });
    expect(outcome.decisionBlockedBy).toEqual(['p-contra', 'p-displaced']);
    expect(rowOf(outcome, 'big')).toMatchObject({ code: 'EXCLUDE_BUDGET' });
  });

  it('lists the propositions a record is selected for in sorted order, whatever the declaration order', () => {
    const record = buildRecord({ id: 'w', evidence: { class: 'waiver', supports: ['p-b', 'p-a'] } });
    const forward = compile({ requiredPropositions: [{ id: 'p-a', acceptedClasses: ['waiver'] }, { id: 'p-b', acceptedClasses: ['waiver'] }] }, [record]);
    const backward = compile({ requiredPropositions: [{ id: 'p-b', acceptedClasses: ['waiver'] }, { id: 'p-a', acceptedClasses: ['waiver'] }] }, [record]);
    expect(rowOf(forward, 'w')?.fact).toMatch(/^accepted waiver evidence for p-a, p-b;/);
    expect(rowOf(backward, 'w')?.fact).toBe(rowOf(forward, 'w')?.fact);
  });
});

describe('baselines', () => {
  it('show the naive top-k taking an illegal record that the post-filter drops, under the same budget', () => {
    const records = [buildRecord({ id: 'legal', text: 'refund' }), buildRecord({ id: 'secret', text: 'refund refund policy', access: { labels: ['hr'] } })];
    const outcome = packetOf(compile({ denyLabels: ['hr'], requiredRecords: ['legal'] }, records));
    expect(outcome.baselines.naive).toMatchObject({ kind: 'naive', illegal: ['secret'], requiredMissed: [] });
    expect(outcome.baselines.naive.selected).toContain('secret');
    expect(outcome.baselines.postFilter).toMatchObject({ selected: ['legal'], illegal: [] });
  });
});
