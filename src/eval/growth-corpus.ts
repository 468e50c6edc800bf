import { contentHashOf, type Sha256 } from '../core/fingerprints';
import { contractSchema, type Contract } from '../core/format/contract';
import type { SourceRecord } from '../core/format/record';
import { createPrng, type Prng } from '../shared/prng';

/**
 * Records come in blocks of this many; every block holds the same mix, so each corpus size keeps a
 * fixed share of legal relevant records and a superseded version never loses its successor.
 */
export const GROWTH_BLOCK_SIZE = 20;

/**
 * Per block: 1 legal relevant record hidden among 11 similar illegal ones and 8 legal records the task does not need.
 */
export const GROWTH_BLOCK_MIX = {
  legal: 1,
  superseded: 1,
  otherTenant: 3,
  future: 2,
  wrongClass: 3,
  denied: 2,
  unneeded: 8,
} as const;

export type GrowthCategory = keyof typeof GROWTH_BLOCK_MIX;

interface PropositionSpec {
  readonly id: string;
  readonly description: string;
  readonly evidenceClass: string;
  readonly phrase: readonly string[];
}

/** Each phrase carries exactly two query terms, so no proposition wins the ranking by its wording alone. */
const PROPOSITIONS: readonly PropositionSpec[] = [
  {
    id: 'facility_limit',
    description: 'The approved facility limit',
    evidenceClass: 'facility_record',
    phrase: ['overdraft', 'facility', 'limit'],
  },
  {
    id: 'review_open',
    description: 'The annual review is open',
    evidenceClass: 'workflow_event',
    phrase: ['annual', 'review', 'open'],
  },
  {
    id: 'waiver_valid',
    description: 'A covenant waiver is valid on the decision date',
    evidenceClass: 'approved_waiver',
    phrase: ['signed', 'covenant', 'waiver'],
  },
  {
    id: 'continuation_rule',
    description: 'The policy clause that governs continuation',
    evidenceClass: 'policy_clause',
    phrase: ['continuation', 'policy', 'clause'],
  },
];

const WRONG_CLASSES = ['email', 'case_note', 'meeting_minutes'] as const;
const OTHER_BORROWERS = [
  'Boreal Freight',
  'Cobalt Marine',
  'Dunmore Textiles',
  'Elstree Foods',
  'Fenwick Haulage',
] as const;
const FILLER = [
  'ledger',
  'quarterly',
  'counterparty',
  'collateral',
  'statement',
  'branch',
  'treasury',
  'settlement',
  'exposure',
  'memo',
  'balance',
  'schedule',
  'forecast',
  'margin',
  'invoice',
  'receivable',
  'payable',
  'audit',
  'tenor',
  'pricing',
  'hedge',
  'drawdown',
  'repayment',
  'interest',
  'guarantee',
  'security',
  'valuation',
  'inventory',
  'customer',
  'supplier',
  'cashflow',
  'budget',
  'reconciliation',
  'committee',
  'minutes',
  'team',
  'summary',
  'update',
  'figures',
  'report',
] as const;
/**
 * Legal records the task does not need still share a word or two with it, as real neighbours do (one per proposition,
 * to keep the terms' weights even).
 */
const SHARED_WORDS = ['limit', 'open', 'waiver', 'policy'] as const;

const SUBJECT = 'ATLAS-IN-01';
const BORROWER = 'Atlas Industrial';
const PROJECT = 'atlas-bank';
const AS_OF = '2026-08-30';

/** The task every growth corpus is compiled for: seed 000's Atlas contract, ranked by bm25. */
export function createGrowthContract(k: number, tokenBudget: number): Contract {
  return contractSchema.parse({
    task: 'Decide whether Atlas Industrial\u2019s facility may continue through the annual credit review',
    query: 'Atlas facility limit, open review, covenant waiver and continuation policy',
    asOf: AS_OF,
    principals: [{ id: 'maya', kind: 'human', roles: ['credit_analyst'] }],
    purpose: 'annual_credit_review',
    project: PROJECT,
    scopes: ['credit'],
    subject: SUBJECT,
    identities: [{ id: SUBJECT, aliases: [BORROWER] }],
    allowedSourceClasses: ['bank_system'],
    allowedAuthorityClasses: ['system_of_record'],
    acceptedReviewStates: ['approved'],
    denyLabels: ['investigation'],
    requiredPropositions: PROPOSITIONS.map((p) => ({
      id: p.id,
      description: p.description,
      acceptedClasses: [p.evidenceClass],
    })),
    typedEvidenceOnly: true,
    tokenBudget,
    naiveTopK: k,
    ranking: 'bm25',
  });
}

function shuffle<T>(prng: Prng, items: readonly T[]): T[] {
  return items
    .map((item) => ({ item, key: prng.next() }))
    .sort((a, b) => a.key - b.key)
    .map(({ item }) => item);
}

function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new RangeError(`index ${index} outside a list of ${items.length}`);
  return item;
}

function date(year: number, month: number, day: number): string {
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * Every claim-bearing record, legal or not, draws its wording from the same distribution: only metadata tells them
 * apart.
 */
function claimText(prng: Prng, proposition: PropositionSpec, borrower: string): string[] {
  const words: string[] = borrower.toLowerCase().split(' ');
  const repeats = prng.int(1, 3);
  for (let i = 0; i < repeats; i += 1)
    for (const word of proposition.phrase.filter(() => prng.chance(0.8))) words.push(word);
  return words;
}

function fillerWords(prng: Prng, count: number): string[] {
  return Array.from({ length: count }, () => prng.pick(FILLER));
}

interface Draft {
  readonly category: GrowthCategory;
  readonly proposition: PropositionSpec;
}

function buildRecord(
  sha256: Sha256,
  prng: Prng,
  id: string,
  draft: Draft,
  supersedes: readonly string[],
): SourceRecord {
  const { category, proposition } = draft;
  const borrower = category === 'otherTenant' ? prng.pick(OTHER_BORROWERS) : BORROWER;
  const core =
    category === 'unneeded'
      ? [...BORROWER.toLowerCase().split(' '), ...SHARED_WORDS.filter(() => prng.chance(0.3))]
      : claimText(prng, proposition, borrower);
  const words = shuffle(prng, [...core, ...fillerWords(prng, prng.int(12, 48))]);
  const text = `${words.join(' ')}.`;
  const month = prng.int(1, 8);
  const known =
    category === 'superseded'
      ? date(2025, prng.int(1, 12), prng.int(1, 28))
      : category === 'future'
        ? date(2026, prng.int(9, 12), prng.int(1, 28))
        : date(2026, month, prng.int(1, 28));
  const evidenceClass = category === 'wrongClass' ? prng.pick(WRONG_CLASSES) : proposition.evidenceClass;
  return {
    id,
    title:
      category === 'unneeded' ? `${borrower} ${prng.pick(FILLER)} note` : `${borrower} ${proposition.phrase.join(' ')}`,
    text,
    tokens: 20 + 2 * words.length,
    project: PROJECT,
    scope: 'credit',
    subject: category === 'otherTenant' ? borrower.toUpperCase().replace(' ', '-') : SUBJECT,
    knownAt: known,
    validFrom: known,
    validTo: null,
    lifecycle: 'active',
    supersedes: [...supersedes],
    sourceClass: 'bank_system',
    authorityClass: 'system_of_record',
    reviewState: 'approved',
    provenance: { origin: `growth/${id}`, contentHash: contentHashOf(sha256, text) },
    sensitivity: 'confidential',
    access: {
      roles: ['credit_analyst'],
      purposes: ['annual_credit_review'],
      labels: category === 'denied' ? ['investigation'] : [],
    },
    evidence: category === 'unneeded' ? null : { class: evidenceClass, supports: [proposition.id], contradicts: [] },
    relevance: null,
  };
}

export interface GrowthRecord {
  readonly record: SourceRecord;
  /**
   * The generator's own label, kept beside the record so measurements never have to trust the compiler for ground
   * truth.
   */
  readonly category: GrowthCategory;
}

/**
 * A contaminated corpus of `size` records (a multiple of GROWTH_BLOCK_SIZE). Corpora of one seed
 * are prefixes of each other, so a growth run can index the largest once, in steps.
 */
export function generateGrowthCorpus(sha256: Sha256, seed: number, size: number): GrowthRecord[] {
  if (!Number.isInteger(size) || size <= 0 || size % GROWTH_BLOCK_SIZE !== 0) {
    throw new RangeError(`corpus size ${size} is not a positive multiple of ${GROWTH_BLOCK_SIZE}`);
  }
  const prng = createPrng(seed);
  const out: GrowthRecord[] = [];
  for (let block = 0; block < size / GROWTH_BLOCK_SIZE; block += 1) {
    // Cycling the legal record's proposition puts evidence for all four in every corpus of 80 records or more.
    // Cycling the legal record's proposition puts evidence for all four in every corpus of 80 records or more.
    const legalProposition = at(PROPOSITIONS, block % PROPOSITIONS.length);
    const drafts: Draft[] = [];
    for (const [category, count] of Object.entries(GROWTH_BLOCK_MIX) as [GrowthCategory, number][]) {
      for (let i = 0; i < count; i += 1) {
        const sameAsLegal = category === 'legal' || category === 'superseded';
        drafts.push({ category, proposition: sameAsLegal ? legalProposition : prng.pick(PROPOSITIONS) });
      }
    }
    const placed = shuffle(prng, drafts);
    const idAt = (position: number) => `r${String(block * GROWTH_BLOCK_SIZE + position).padStart(6, '0')}`;
    const supersededId = idAt(placed.findIndex((draft) => draft.category === 'superseded'));
    placed.forEach((draft, position) => {
      out.push({
        record: buildRecord(sha256, prng, idAt(position), draft, draft.category === 'legal' ? [supersededId] : []),
        category: draft.category,
      });
    });
  }
  return out;
}
