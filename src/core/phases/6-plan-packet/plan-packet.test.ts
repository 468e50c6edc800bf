import { sha256 } from '../../test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../../../adapters/sqlite/compiler';
import { discloseOutcome } from '../../disclosure';
import type { SourceRecord } from '../../format/record';
import type { Fact } from '../../reasons';
import type { CompiledPacket, CompileOutcome, FailedClosed, GateName, TraceRow } from '../../result';
import {
  buildContract,
  buildRecord,
  buildRecordSet,
  valueOf,
  type ContractOverrides,
  type RecordOverrides,
} from '../../test-support/builders';
import { sharedDriver } from '../../test-support/node-driver';

let compiler: SqliteCompiler;

beforeAll(async () => {
  compiler = createSqliteCompiler(sha256, await sharedDriver());
});

async function compile(overrides: ContractOverrides, records: readonly SourceRecord[]): Promise<CompileOutcome> {
  return valueOf(await compiler.compile({ contract: buildContract(overrides), recordSet: buildRecordSet(records) }));
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
const declared = (id: string, relevance: number, tokens = 10, extra: RecordOverrides = {}) =>
  buildRecord({ id, relevance, tokens, ...extra });

describe('required records', () => {
  it('come first, protected before ranking, then evidence, then ranked optionals', async () => {
    const records = [
      declared('opt', 9),
      declared('req-b', 0),
      declared('req-a', 0),
      declared('ev', 1, 10, { evidence: { class: 'waiver', supports: ['p1'] } }),
    ];
    const outcome = packetOf(
      await compile(
        {
          ranking: 'declared',
          requiredRecords: ['req-b', 'req-a'],
          requiredPropositions: [{ id: 'p1', acceptedClasses: ['waiver'] }],
        },
        records,
      ),
    );
    expect(outcome.packet.entries.map((entry) => [entry.id, entry.code])).toEqual([
      ['req-a', 'SELECTED_REQUIRED'],
      ['req-b', 'SELECTED_REQUIRED'],
      ['ev', 'SELECTED_EVIDENCE'],
      ['opt', 'SELECTED_RANKED'],
    ]);
  });

  it('fail closed with REQUIRED_NOT_FOUND and no packet', async () => {
    const outcome = failureOf(await compile({ requiredRecords: ['ghost'] }, [buildRecord({ id: 'a' })]));
    expect(outcome.failure).toMatchObject({ code: 'REQUIRED_NOT_FOUND', recordId: 'ghost' });
    expect(outcome.receipt).toMatchObject({
      outcome: 'fail_closed',
      packetFingerprint: null,
      selected: [],
      tokensUsed: 0,
    });
    expect(rowOf(outcome, 'a')).toMatchObject({ decision: 'excluded', code: 'EXCLUDE_FAIL_CLOSED' });
  });

  it.each<[string, RecordOverrides, Fact, GateName[]]>([
    [
      'REQUIRED_ILLEGAL',
      { validTo: '2026-01-31' },
      { fact: 'VALID_TO_BEFORE_AS_OF', args: { validTo: '2026-01-31' } },
      ['time'],
    ],
    [
      'REQUIRED_NOT_AUTHORISED',
      { access: { roles: ['auditor'] } },
      { fact: 'PRINCIPAL_LACKS_ROLE', args: { kind: 'human', principal: 'dana', allowedRoles: ['auditor'] } },
      ['authorisation'],
    ],
    [
      'REQUIRED_NOT_AUTHORISED',
      { project: 'borealis', access: { labels: ['hr'] } },
      { fact: 'PROJECT_MISMATCH', args: { project: 'borealis' } },
      ['project', 'deny'],
    ],
    ['REQUIRED_MISSING_PROVENANCE', { provenance: null }, { fact: 'PROVENANCE_MISSING', args: {} }, ['provenance']],
  ])('fail closed with %s and no packet when a required record fails a gate', async (code, overrides, fact, gates) => {
    const outcome = failureOf(
      await compile({ requiredRecords: ['req'], denyLabels: ['hr'] }, [
        buildRecord({ id: 'req', ...overrides }),
        buildRecord({ id: 'ok' }),
      ]),
    );
    expect(outcome.failure).toMatchObject({ pass: 'plan', code, recordId: 'req', fact });
    expect(rowOf(outcome, 'req')).toMatchObject({
      decision: 'excluded',
      code,
      fact: fact.fact,
      args: fact.args,
      gates,
    });
    expect(rowOf(outcome, 'ok')).toMatchObject({
      decision: 'excluded',
      code: 'EXCLUDE_FAIL_CLOSED',
      fact: 'PACKET_WITHHELD',
      args: { failure: code },
    });
    expect(outcome.receipt.selected).toEqual([]);
  });

  it('keeps a legal record visible to the user when a withheld required record stops compilation', async () => {
    const outcome = failureOf(
      await compile({ requiredRecords: ['req'] }, [
        buildRecord({ id: 'req', access: { roles: ['auditor'] } }),
        buildRecord({ id: 'ok' }),
      ]),
    );
    const view = discloseOutcome(outcome, 'user');
    expect(view.rows.map((row) => row.id)).toEqual(['ok']);
    expect(view.withheld).toEqual(new Set(['req']));
    expect(JSON.stringify(view.rows)).not.toContain('"req"');
  });

  it('fail closed with REQUIRED_OVER_BUDGET when the required records do not fit', async () => {
    const outcome = failureOf(
      await compile({ requiredRecords: ['a', 'b'], tokenBudget: 15 }, [
        buildRecord({ id: 'a', tokens: 10 }),
        buildRecord({ id: 'b', tokens: 10 }),
      ]),
    );
    expect(outcome.failure).toMatchObject({
      code: 'REQUIRED_OVER_BUDGET',
      fact: { fact: 'REQUIRED_TOKENS_OVER_BUDGET', args: { tokens: 20 } },
    });
  });
});

describe('budget', () => {
  it('prunes greedily: a record that does not fit is skipped and smaller ones after it still go in', async () => {
    const records = [declared('first', 3, 10), declared('big', 2, 20), declared('small', 1, 10)];
    const outcome = packetOf(await compile({ ranking: 'declared', tokenBudget: 25 }, records));
    expect(outcome.packet.entries.map((entry) => entry.id)).toEqual(['first', 'small']);
    expect(outcome.packet.tokensUsed).toBe(20);
    expect(rowOf(outcome, 'big')).toMatchObject({
      decision: 'excluded',
      code: 'EXCLUDE_BUDGET',
      fact: 'BUDGET_EXCEEDED',
      args: { tokens: 20, remaining: 15 },
    });
    expect(outcome.ranked.find((entry) => entry.id === 'big')).toEqual({ id: 'big', rank: 2, score: 2 });
  });

  it('ranks only admitted records; ties break by id', async () => {
    const records = [declared('b', 1), declared('a', 1), declared('illegal', 9, 10, { scope: 'legal' })];
    const outcome = packetOf(await compile({ ranking: 'declared' }, records));
    expect(outcome.packet.entries.map((entry) => entry.id)).toEqual(['a', 'b']);
    expect(rowOf(outcome, 'illegal')).toMatchObject({ code: 'EXCLUDE_SCOPE' });
    expect(outcome.ranked.map((entry) => entry.id)).toEqual(['a', 'b']);
  });

  it('marks a legal record that does not match the query as not relevant', async () => {
    const outcome = packetOf(
      await compile({ query: 'refund' }, [
        buildRecord({ id: 'hit', text: 'refund rules' }),
        buildRecord({ id: 'miss', title: 'Weather', text: 'sunny' }),
      ]),
    );
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

  it('are supported, contradicted (contradictions kept however many support) or unknown', async () => {
    const outcome = packetOf(await compile({ requiredPropositions: propositions, tokenBudget: 100 }, records));
    const slots = new Map(outcome.evidence.map((slot) => [slot.proposition, slot]));
    expect(slots.get('p-support')).toMatchObject({ state: 'supported', supporting: ['s1'], contradicting: [] });
    expect(slots.get('p-contra')).toMatchObject({
      state: 'contradicted',
      supporting: ['s1', 's2'],
      contradicting: ['c1'],
    });
    expect(slots.get('p-unknown')).toMatchObject({ state: 'unknown', supporting: [], notAccepted: ['mail'] });
    expect(slots.get('p-displaced')).toMatchObject({ state: 'unknown', displaced: ['big'] });
    expect(outcome.decisionBlockedBy).toEqual(['p-contra', 'p-displaced']);
    expect(rowOf(outcome, 'big')).toMatchObject({ code: 'EXCLUDE_BUDGET' });
  });

  it('lists the propositions a record is selected for in sorted order, whatever the declaration order', async () => {
    const record = buildRecord({ id: 'w', evidence: { class: 'waiver', supports: ['p-b', 'p-a'] } });
    const forward = await compile(
      {
        requiredPropositions: [
          { id: 'p-a', acceptedClasses: ['waiver'] },
          { id: 'p-b', acceptedClasses: ['waiver'] },
        ],
      },
      [record],
    );
    const backward = await compile(
      {
        requiredPropositions: [
          { id: 'p-b', acceptedClasses: ['waiver'] },
          { id: 'p-a', acceptedClasses: ['waiver'] },
        ],
      },
      [record],
    );
    expect(rowOf(forward, 'w')).toMatchObject({
      fact: 'EVIDENCE_PLANNED',
      args: { evidenceClass: 'waiver', propositions: ['p-a', 'p-b'] },
    });
    expect(rowOf(backward, 'w')?.args).toEqual(rowOf(forward, 'w')?.args);
  });
});

describe('baselines', () => {
  it('show the naive top-k taking an illegal record that the post-filter drops, under the same budget', async () => {
    const records = [
      buildRecord({ id: 'legal', text: 'refund' }),
      buildRecord({ id: 'secret', text: 'refund refund policy', access: { labels: ['hr'] } }),
    ];
    const request = {
      contract: buildContract({ denyLabels: ['hr'], requiredRecords: ['legal'] }),
      recordSet: buildRecordSet(records),
    };
    const outcome = packetOf(valueOf(await compiler.compile(request)));
    const baselines = compiler.baselines(request, outcome);
    expect(baselines.naive).toMatchObject({ kind: 'naive', illegal: ['secret'], requiredMissed: [] });
    expect(baselines.naive.selected).toContain('secret');
    expect(baselines.postFilter).toMatchObject({ selected: ['legal'], illegal: [] });
  });
});
