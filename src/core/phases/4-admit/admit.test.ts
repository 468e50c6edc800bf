import { sha256 } from '../../test-support/sha256';
import { describe, expect, it } from 'vitest';
import type { Contract } from '../../format/contract';
import { contentHashOf } from '../../fingerprints';
import { factContextOf, renderFact } from '../../reasons';
import { GATE_ORDER, type GateName } from '../../result';
import {
  buildContract,
  buildRecord,
  errorOf,
  resolveOrThrow,
  valueOf,
  type ContractOverrides,
  type RecordOverrides,
} from '../../test-support/builders';
import {
  admit,
  createGateContext,
  evaluateGates,
  explainGates,
  firstGate,
  GATE_BIT,
  gateCodeOf,
  gatesIn,
} from './admit';
import type { ResolvedRecord } from '../2-resolve/resolve';

type Verdict =
  | { admitted: true }
  | { admitted: false; first: { gate: GateName; code: string; fact: string }; failedGates: GateName[] };

/** What the evaluator decides about one record among others, its first fact in words. */
function verdictFor(
  record: RecordOverrides,
  contract: ContractOverrides = {},
  others: RecordOverrides[] = [],
): Verdict {
  const subject = buildRecord({ id: 'subject-record', ...record });
  const resolution = resolveOrThrow(buildContract(contract), [subject, ...others.map((o) => buildRecord(o))]);
  const resolved = resolution.records[resolution.indexOf.get(subject.id) as number] as ResolvedRecord;
  const context = createGateContext(resolution.contract);
  const { failed, fact } = evaluateGates(context, resolved);
  const gate = firstGate(failed);
  if (gate === null) return { admitted: true };
  if (fact === null) throw new Error(`${gate} failed without a fact`);
  const explained = explainGates(context, resolved);
  expect(explained.find((entry) => entry.gate === gate)?.fact).toEqual(fact);
  expect(explained.filter((entry) => entry.fact !== null).map((entry) => entry.gate)).toEqual(gatesIn(failed));
  return {
    admitted: false,
    first: { gate, code: gateCodeOf(fact), fact: renderFact(fact, factContextOf(resolution.contract.contract)) },
    failedGates: gatesIn(failed),
  };
}

const identities = [
  { id: 'cust-1', aliases: ['Jo', 'J. Smith'] },
  { id: 'cust-2', aliases: ['Jo', 'Jon'] },
];

describe('evaluateGates', () => {
  it('admits the default record under the default contract', () => {
    expect(verdictFor({})).toEqual({ admitted: true });
  });

  it.each<[string, RecordOverrides, ContractOverrides, string, string, RecordOverrides[]?]>([
    ['project', { project: 'borealis' }, {}, 'EXCLUDE_PROJECT', 'project borealis ≠ contract project atlas'],
    [
      'scope',
      { scope: 'legal' },
      { scopes: ['support', 'billing'] },
      'EXCLUDE_SCOPE',
      'scope legal not in allowed scopes [billing, support]',
    ],
    [
      'identity',
      { subject: 'Jon' },
      { subject: 'cust-1', identities },
      'EXCLUDE_IDENTITY',
      'subject cust-2 ≠ contract subject cust-1',
    ],
    [
      'identity',
      { subject: 'Jo' },
      { identities },
      'EXCLUDE_IDENTITY',
      'subject "Jo" is ambiguous: matches [cust-1, cust-2]',
    ],
    ['time', { knownAt: '2026-08-31' }, {}, 'EXCLUDE_FUTURE', 'known_at 2026-08-31 > as_of 2026-08-30T12:00:00Z'],
    [
      'time',
      { validFrom: '2026-08-30T12:00:00.001Z' },
      {},
      'EXCLUDE_FUTURE',
      'valid_from 2026-08-30T12:00:00.001Z > as_of 2026-08-30T12:00:00Z',
    ],
    ['time', { validTo: '2026-08-29' }, {}, 'EXCLUDE_EXPIRED', 'valid_to 2026-08-29 < as_of 2026-08-30T12:00:00Z'],
    [
      'supersession',
      {},
      {},
      'EXCLUDE_SUPERSEDED',
      'superseded by newer (in force from 2026-08-01)',
      [{ id: 'newer', supersedes: ['subject-record'] }],
    ],
    [
      'lifecycle',
      { lifecycle: 'draft' },
      { forbiddenLifecycle: ['draft', 'rejected'] },
      'EXCLUDE_LIFECYCLE',
      'lifecycle draft is forbidden by the contract',
    ],
    ['source', { sourceClass: 'chat' }, {}, 'EXCLUDE_SOURCE', 'source class chat not in allowed [ticket]'],
    [
      'authority',
      { authorityClass: 'rumour' },
      {},
      'EXCLUDE_AUTHORITY',
      'authority class rumour not in allowed [policy]',
    ],
    [
      'review',
      { reviewState: 'in_review' },
      { acceptedReviewStates: ['reviewed', 'approved'] },
      'EXCLUDE_REVIEW',
      'review state in_review not in accepted [approved, reviewed]',
    ],
    ['provenance', { provenance: null }, {}, 'EXCLUDE_PROVENANCE', 'no provenance recorded'],
    [
      'provenance',
      { text: 'x', provenance: { origin: 'o', contentHash: contentHashOf(sha256, 'y') } },
      {},
      'EXCLUDE_PROVENANCE',
      `content hash ${contentHashOf(sha256, 'y').slice(0, 19)}… does not match the text`,
    ],
    [
      'sensitivity',
      { sensitivity: 'secret' },
      { forbiddenSensitivity: ['secret'] },
      'EXCLUDE_SENSITIVITY',
      'sensitivity secret is forbidden for this task',
    ],
    [
      'authorisation',
      { access: { roles: ['lead', 'auditor'] } },
      {
        principals: [
          { id: 'dana', kind: 'human', roles: ['lead'] },
          { id: 'bot', kind: 'agent', roles: ['agent'] },
        ],
      },
      'EXCLUDE_NOT_AUTHORISED',
      'agent bot holds none of the allowed roles [auditor, lead]',
    ],
    [
      'authorisation',
      { access: { purposes: ['marketing', 'audit'] } },
      {},
      'EXCLUDE_PURPOSE',
      'purpose support not in released purposes [audit, marketing]',
    ],
    [
      'deny',
      { access: { labels: ['whistleblowing', 'investigation'] } },
      { denyLabels: ['whistleblowing', 'investigation'] },
      'EXCLUDE_DENY_LABEL',
      'label investigation, whistleblowing is denied by the contract',
    ],
    [
      'evidence',
      {},
      { typedEvidenceOnly: true, requiredPropositions: [{ id: 'p1', acceptedClasses: ['waiver'] }] },
      'EXCLUDE_NOT_NEEDED',
      'supports or contradicts no required proposition',
    ],
    [
      'evidence',
      { evidence: { class: 'email', supports: ['p2', 'p1'] } },
      {
        typedEvidenceOnly: true,
        requiredPropositions: [
          { id: 'p2', acceptedClasses: ['waiver', 'facility_record'] },
          { id: 'p1', acceptedClasses: ['waiver'] },
        ],
      },
      'EXCLUDE_EVIDENCE_CLASS',
      'class email is not accepted for p1 (accepts waiver)',
    ],
  ])('the %s gate refuses with %s and its boundary fact', (gate, record, contract, code, fact, others) => {
    expect(verdictFor(record, contract, others)).toEqual({
      admitted: false,
      first: { gate, code, fact },
      failedGates: [gate],
    });
  });

  it('admits at the exact boundaries: known and effective at the as-of, valid to the end of the as-of day', () => {
    expect(
      verdictFor({ knownAt: '2026-08-30T12:00:00Z', validFrom: '2026-08-30T14:00:00+02:00', validTo: '2026-08-30' }),
    ).toEqual({ admitted: true });
    expect(verdictFor({ validTo: '2026-08-30T12:00:00Z' })).toEqual({ admitted: true });
  });

  it('lets a subject outside the directory match only itself, and a subjectless record pass', () => {
    expect(verdictFor({ subject: 'stranger' }, { subject: 'stranger' })).toEqual({ admitted: true });
    expect(verdictFor({ subject: null }, { subject: 'cust-1', identities })).toEqual({ admitted: true });
    expect(verdictFor({ subject: 'J. Smith' }, { subject: 'cust-1', identities })).toEqual({ admitted: true });
  });

  it('names the first failure in the fixed order and lists every failed gate', () => {
    const verdict = verdictFor(
      { project: 'borealis', validTo: '2026-01-01', provenance: null, access: { roles: ['lead'], labels: ['hr'] } },
      { denyLabels: ['hr'] },
    );
    expect(verdict).toMatchObject({
      admitted: false,
      first: { gate: 'project' },
      failedGates: ['project', 'time', 'provenance', 'authorisation', 'deny'],
    });
    if (!verdict.admitted)
      expect([...verdict.failedGates].sort((a, b) => GATE_ORDER.indexOf(a) - GATE_ORDER.indexOf(b))).toEqual(
        verdict.failedGates,
      );
  });

  it('reports a deny even when authorisation already refuses', () => {
    const verdict = verdictFor(
      { access: { roles: ['lead'], labels: ['investigation'] } },
      { denyLabels: ['investigation'] },
    );
    expect(verdict).toMatchObject({
      first: { code: 'EXCLUDE_NOT_AUTHORISED' },
      failedGates: ['authorisation', 'deny'],
    });
  });

  it('explains every gate in order, with a fact for each one the record fails', () => {
    const resolution = resolveOrThrow(buildContract({ denyLabels: ['hr'] }), [
      buildRecord({ id: 'r', project: 'borealis', access: { labels: ['hr'] } }),
    ]);
    const explained = explainGates(createGateContext(resolution.contract), resolution.records[0] as ResolvedRecord);
    expect(explained.map((entry) => entry.gate)).toEqual([...GATE_ORDER]);
    expect(explained.filter((entry) => entry.fact !== null).map((entry) => entry.fact?.fact)).toEqual([
      'PROJECT_MISMATCH',
      'LABEL_DENIED',
    ]);
  });

  describe('typed-evidence mode', () => {
    const typed: Partial<Contract> = {
      typedEvidenceOnly: true,
      requiredPropositions: [{ id: 'p1', description: '', acceptedClasses: ['waiver'], blocking: true }],
    };

    it('admits accepted evidence that supports or contradicts a required proposition', () => {
      expect(verdictFor({ evidence: { class: 'waiver', supports: ['p1'] } }, typed)).toEqual({ admitted: true });
      expect(verdictFor({ evidence: { class: 'waiver', contradicts: ['p1'] } }, typed)).toEqual({ admitted: true });
    });

    it('exempts records the contract requires by name', () => {
      expect(verdictFor({ evidence: null }, { ...typed, requiredRecords: ['subject-record'] })).toEqual({
        admitted: true,
      });
    });

    it('refuses evidence for a proposition the contract does not require', () => {
      expect(verdictFor({ evidence: { class: 'waiver', supports: ['p9'] } }, typed)).toMatchObject({
        first: { code: 'EXCLUDE_NOT_NEEDED' },
      });
    });

    it('ignores evidence classes when the mode is off', () => {
      expect(
        verdictFor({ evidence: { class: 'email', supports: ['p1'] } }, { ...typed, typedEvidenceOnly: false }),
      ).toEqual({ admitted: true });
    });
  });
});

describe('admit', () => {
  const records = [
    buildRecord({ id: 'a' }),
    buildRecord({ id: 'b', scope: 'legal' }),
    buildRecord({ id: 'c' }),
    buildRecord({ id: 'd', supersedes: ['c'] }),
  ];
  const resolution = () => resolveOrThrow(buildContract(), records);

  it("returns the admitted set and every record's failed gates and first fact when both sides agree", () => {
    const admission = valueOf(admit(resolution(), new Set(['a', 'd'])));
    expect([...admission.admittedIds].sort()).toEqual(['a', 'd']);
    expect(admission.admitted).toEqual([0, 3]);
    expect(admission.verdicts[1]).toMatchObject({
      failed: GATE_BIT.scope,
      fact: { fact: 'SCOPE_NOT_ALLOWED', args: { scope: 'legal' } },
    });
    expect(admission.verdicts[2]).toMatchObject({
      failed: GATE_BIT.supersession,
      fact: { fact: 'SUPERSEDED_BY', args: { successor: 'd', since: '2026-08-01' } },
    });
  });

  it('stops with ADAPTER_MISMATCH when SQL drops a record the evaluator admits', () => {
    const error = errorOf(admit(resolution(), new Set(['a'])));
    expect(error).toMatchObject({
      pass: 'admit',
      code: 'ADAPTER_MISMATCH',
      recordId: 'd',
      words: { code: 'ADMISSION_DISAGREEMENT', args: { record: 'd' } },
    });
    expect(error.message).toMatch(/the evaluator admits it but the SQL lowering did not return it/);
  });

  it("stops when SQL admits a record the evaluator refuses, naming the evaluator's fact", () => {
    const error = errorOf(admit(resolution(), new Set(['a', 'b', 'd'])));
    expect(error).toMatchObject({ code: 'ADAPTER_MISMATCH', recordId: 'b' });
    expect(error.message).toMatch(/SQL admitted it but the evaluator refuses it \(SCOPE_NOT_ALLOWED\)/);
  });

  it('stops when SQL returns a record that is not in the supplied set', () => {
    const error = errorOf(admit(resolution(), new Set(['a', 'd', 'stray'])));
    expect(error).toMatchObject({ code: 'ADAPTER_MISMATCH', recordId: 'stray' });
    expect(error.message).toMatch(/not in the supplied set/);
  });
});
