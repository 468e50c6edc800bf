import { sha256InNode } from '../src/lib/node-sha256';
import { createHash } from 'node:crypto';
import type { ContractInput } from '../src/core/format/contract';
import { LIFECYCLE_STATES, REVIEW_STATES, type RecordInput } from '../src/core/format/record';
import type { Control } from '../src/core/format/scenario';
import { createJsonlRecordReader, type RecordSet } from '../src/core/phases/1-validate/validate';
import { createPrng, type Prng } from '../src/shared/prng';

/**
 * A seeded corpus that looks like an analyst's export: a support-and-credit desk of three projects,
 * text drawn from a domain vocabulary with a Zipf-like skew (so query terms match a realistic share),
 * every metadata field exercised, and a mix of records the benchmark contract admits and refuses.
 */

const DOMAIN_WORDS = `refund chargeback waiver fee late payment invoice customer account balance credit limit
facility covenant breach default interest rate loan borrower lender collateral guarantee escrow settlement
dispute complaint ticket escalation policy exception approval review audit compliance regulator disclosure
statement transaction merchant card fraud alert freeze unfreeze verification identity address passport
onboarding offboarding termination contract clause amendment renewal notice deadline extension grace period
schedule instalment arrears recovery collection agency write off provision reserve exposure risk rating
downgrade upgrade memo minutes meeting committee board decision rationale evidence record document email
call transcript summary note draft final version supersedes replaces retired rejected approved pending
signed unsigned attachment spreadsheet report quarterly annual forecast budget variance margin revenue
cost expense reimbursement travel vendor supplier purchase order receipt tax withholding payroll salary
bonus overtime leave absence investigation whistleblowing grievance disciplinary hearing appeal outcome
finding remediation action owner due overdue closed open reopened priority severity incident outage
service level agreement breach penalty credit note adjustment reversal reconciliation ledger journal entry
posting period close accrual deferral cash flow liquidity funding drawdown repayment prepayment maturity
tenor margin call hedge swap currency exchange wire transfer beneficiary sanction screening watchlist match
false positive clearance hold release branch region desk team manager analyst officer counsel legal
privileged confidential internal public restricted personal data subject request deletion retention archive`
  .split(/\s+/)
  .filter((word) => word.length > 0);

const FILLER_WORDS =
  'the a of to and in for on with by from at as is was be has have that this it which under per after before'.split(
    ' ',
  );

export const PROJECTS = ['atlas', 'borealis', 'cedar'] as const;
export const SCOPES = ['support', 'credit', 'legal', 'hr'] as const;
export const SOURCE_CLASSES = ['ticket', 'facility_record', 'email', 'chat', 'wiki', 'crm'] as const;
export const AUTHORITY_CLASSES = ['policy', 'system_of_record', 'correspondence', 'opinion'] as const;
export const SENSITIVITIES = ['public', 'internal', 'confidential', 'restricted'] as const;
export const ROLES = ['agent', 'analyst', 'credit_officer', 'counsel', 'hr_partner', 'assistant'] as const;
export const PURPOSES = ['support', 'credit_decision', 'audit', 'litigation'] as const;
export const LABELS = ['investigation', 'whistleblowing', 'legal_hold', 'pii'] as const;
export const EVIDENCE_CLASSES = ['facility_record', 'approved_waiver', 'email', 'call_note', 'ledger_entry'] as const;
export const PROPOSITIONS = ['waiver_granted', 'payment_late', 'customer_notified', 'covenant_met'] as const;
/** Identities with aliases; `C-0002` and `C-0003` share the alias `j.smith`, so it is ambiguous. */
export const IDENTITIES = [
  { id: 'C-0001', aliases: ['acme-ltd', 'acme'] },
  { id: 'C-0002', aliases: ['j.smith', 'john-smith'] },
  { id: 'C-0003', aliases: ['j.smith', 'jane-smith'] },
  { id: 'C-0004', aliases: [] },
] as const;
const SUBJECT_NAMES = [
  'C-0001',
  'acme-ltd',
  'acme',
  'C-0002',
  'john-smith',
  'j.smith',
  'C-0003',
  'C-0004',
  'unknown-party',
];

export const AS_OF = '2026-08-30T12:00:00Z';
const AS_OF_DAY = Date.UTC(2026, 7, 30);
const DAY_MS = 86_400_000;

export interface GeneratedCorpus {
  readonly records: readonly RecordInput[];
  /** Ids of a few admitted records the benchmark contract requires by name. */
  readonly requiredIds: readonly string[];
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Index into a list with a Zipf-like skew: low indexes are common, the tail is rare. */
function skewedIndex(prng: Prng, length: number): number {
  return Math.min(length - 1, Math.floor(length * prng.next() ** 2.2));
}

function sentence(prng: Prng, words: number): string {
  const parts: string[] = [];
  for (let index = 0; index < words; index += 1) {
    parts.push(
      prng.chance(0.3) ? prng.pick(FILLER_WORDS) : (DOMAIN_WORDS[skewedIndex(prng, DOMAIN_WORDS.length)] ?? 'note'),
    );
  }
  const text = parts.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function bodyText(prng: Prng): string {
  let remaining = prng.int(50, 300);
  const sentences: string[] = [];
  while (remaining > 0) {
    const length = Math.min(remaining, prng.int(6, 18));
    sentences.push(sentence(prng, length));
    remaining -= length;
  }
  return sentences.join(' ');
}

function isoDay(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

function subsetOf<T>(prng: Prng, items: readonly T[], probability: number): T[] {
  return items.filter(() => prng.chance(probability));
}

/** Mostly fitting values with a minority of each kind of illegality, so every gate excludes something. */
function generateRecord(prng: Prng, index: number, earlierIds: readonly string[]): RecordInput {
  const id = `rec-${String(index).padStart(7, '0')}`;
  const text = bodyText(prng);
  const words = text.split(' ').length;
  const knownOffset = prng.chance(0.05) ? prng.int(1, 60) : -prng.int(0, 900);
  const knownAt = AS_OF_DAY + knownOffset * DAY_MS;
  const validFrom = knownAt - prng.int(0, 30) * DAY_MS;
  const validTo = prng.chance(0.15) ? validFrom + prng.int(10, 1200) * DAY_MS : null;
  const provenanceKind = prng.next();
  const provenance =
    provenanceKind < 0.04
      ? null
      : {
          origin: `${prng.pick(SOURCE_CLASSES)}/${id}`,
          contentHash: `sha256:${sha256Hex(provenanceKind < 0.07 ? `${text} (edited)` : text)}`,
        };
  const hasEvidence = prng.chance(0.12);
  const claims = hasEvidence ? subsetOf(prng, PROPOSITIONS, 0.35) : [];
  const roles = subsetOf(prng, ROLES, 0.35);
  const purposes = subsetOf(prng, PURPOSES, 0.5);
  const supersedes = earlierIds.length > 0 && prng.chance(0.03) ? [prng.pick(earlierIds.slice(-200))] : [];
  const timeHint = validTo === null ? '' : ` until ${isoDay(validTo)}`;
  return {
    id,
    title: `${sentence(prng, prng.int(3, 8)).slice(0, -1)}${timeHint}`,
    text,
    tokens: Math.round(words * 1.3),
    project: prng.chance(0.8) ? 'atlas' : prng.pick(PROJECTS),
    scope: prng.chance(0.7) ? prng.pick(['support', 'credit']) : prng.pick(SCOPES),
    subject: prng.chance(0.4) ? null : prng.pick(SUBJECT_NAMES),
    knownAt: prng.chance(0.5)
      ? isoDay(knownAt)
      : new Date(knownAt + prng.int(0, 86_399) * 1000).toISOString().replace('.000Z', 'Z'),
    validFrom: isoDay(validFrom),
    validTo: validTo === null ? null : isoDay(validTo),
    lifecycle: prng.chance(0.8) ? 'active' : prng.pick(LIFECYCLE_STATES),
    supersedes,
    sourceClass: prng.chance(0.75) ? prng.pick(['ticket', 'facility_record', 'email']) : prng.pick(SOURCE_CLASSES),
    authorityClass: prng.chance(0.8) ? prng.pick(['policy', 'system_of_record']) : prng.pick(AUTHORITY_CLASSES),
    reviewState: prng.chance(0.75) ? prng.pick(['reviewed', 'approved']) : prng.pick(REVIEW_STATES),
    provenance,
    sensitivity: prng.chance(0.9) ? prng.pick(['public', 'internal', 'confidential']) : prng.pick(SENSITIVITIES),
    access: {
      roles: roles.length > 0 ? [...roles, 'agent'] : ['agent'],
      purposes: purposes.length > 0 ? purposes : ['support'],
      labels: prng.chance(0.08) ? [prng.pick(LABELS)] : [],
    },
    evidence: hasEvidence
      ? {
          class: prng.pick(EVIDENCE_CLASSES),
          supports: claims.filter(() => prng.chance(0.8)),
          contradicts: claims.filter(() => prng.chance(0.15)),
        }
      : null,
    relevance: prng.chance(0.3) ? Math.round(prng.next() * 1000) / 1000 : null,
  };
}

/** An admitted, present and fitting record: what a contract can require by name without failing closed. */
function makeRequirable(record: RecordInput): RecordInput {
  return {
    ...record,
    project: 'atlas',
    scope: 'support',
    subject: null,
    knownAt: '2026-01-15',
    validFrom: '2026-01-15',
    validTo: null,
    lifecycle: 'active',
    supersedes: [],
    sourceClass: 'ticket',
    authorityClass: 'policy',
    reviewState: 'approved',
    provenance: { origin: `ticket/${record.id}`, contentHash: `sha256:${sha256Hex(record.text)}` },
    sensitivity: 'internal',
    access: { roles: ['agent', 'credit_officer'], purposes: ['support', 'credit_decision'], labels: [] },
  };
}

export function generateRecords(count: number, seed: number): GeneratedCorpus {
  const prng = createPrng(seed);
  const records: RecordInput[] = [];
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const record = generateRecord(prng, index, ids);
    records.push(record);
    ids.push(record.id);
  }
  // Required records are never superseded targets, so the requirement cannot fail closed on supersession.
  const targets = new Set(records.flatMap((record) => record.supersedes ?? []));
  const requiredIds: string[] = [];
  for (let index = 7; index < records.length && requiredIds.length < 3; index += Math.max(1, Math.floor(count / 3))) {
    const record = records[index];
    if (!record || targets.has(record.id)) continue;
    records[index] = makeRequirable(record);
    requiredIds.push(record.id);
  }
  return { records, requiredIds };
}

/** The records read as a records file is, a line at a time: a million records' JSONL is over V8's longest string. */
export function readGenerated(records: readonly RecordInput[]): RecordSet {
  const reader = createJsonlRecordReader(sha256InNode, 'generated.jsonl');
  for (const record of records) reader.push(`${JSON.stringify(record)}\n`);
  const read = reader.finish();
  if (!read.ok) throw new Error(read.error.message);
  return read.value;
}

export function toJsonl(records: readonly RecordInput[]): string {
  return `${records.map((record) => JSON.stringify(record)).join('\n')}\n`;
}

/** The benchmark task: a credit-desk question on project atlas, gating on every dimension. */
export function benchContract(requiredIds: readonly string[]): ContractInput {
  return {
    task: 'Decide whether the late-payment fee waiver for Acme can stand',
    query: 'late payment fee waiver approval for the customer account',
    asOf: AS_OF,
    principals: [
      { id: 'dana', kind: 'human', roles: ['credit_officer', 'analyst'] },
      { id: 'copilot', kind: 'agent', roles: ['agent', 'assistant'] },
    ],
    purpose: 'credit_decision',
    project: 'atlas',
    scopes: ['support', 'credit'],
    subject: null,
    identities: IDENTITIES.map((identity) => ({ id: identity.id, aliases: [...identity.aliases] })),
    allowedSourceClasses: ['ticket', 'facility_record', 'email', 'crm'],
    allowedAuthorityClasses: ['policy', 'system_of_record'],
    acceptedReviewStates: ['reviewed', 'approved'],
    forbiddenLifecycle: ['draft', 'rejected', 'retired', 'generated'],
    forbiddenSensitivity: ['restricted'],
    denyLabels: ['investigation', 'whistleblowing'],
    requiredRecords: [...requiredIds],
    requiredPropositions: [
      {
        id: 'waiver_granted',
        description: 'A waiver of the fee was approved',
        acceptedClasses: ['approved_waiver', 'facility_record'],
      },
      {
        id: 'payment_late',
        description: 'The payment arrived after the due date',
        acceptedClasses: ['ledger_entry', 'facility_record'],
        blocking: false,
      },
    ],
    tokenBudget: 8_000,
    naiveTopK: 40,
    ranking: 'bm25',
  };
}

/**
 * The control the benchmark toggles: one record gains a denied label, so it leaves the packet and the trace says why.
 */
export function benchControl(
  targetId: string,
  id = 'deny-one-record',
  label = 'Put one record under investigation',
): Control {
  return {
    id,
    label,
    explanation: 'A single record gains a denied label; only that record is re-indexed.',
    patches: [{ op: 'mergeRecord', id: targetId, patch: { access: { labels: ['investigation'] } } }],
  };
}
