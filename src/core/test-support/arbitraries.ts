import { sha256 } from './sha256';
import fc from 'fast-check';
import { contractSchema, type Contract, type ContractInput } from '../format/contract';
import { LIFECYCLE_STATES, recordSchema, REVIEW_STATES, type RecordInput, type SourceRecord } from '../format/record';
import { parseInstant } from '../format/time';
import { contentHashOf } from '../fingerprints';

/**
 * Small vocabularies so that every gate both passes and fails often: a wide vocabulary would make
 * almost every generated record fail the project or scope gate and test nothing after it.
 */
export const VOCABULARY = {
  projects: ['atlas', 'borealis'],
  scopes: ['support', 'billing', 'legal'],
  roles: ['agent', 'lead', 'auditor'],
  purposes: ['support', 'audit'],
  labels: ['investigation', 'whistleblowing', 'hr'],
  sourceClasses: ['ticket', 'email', 'policy_doc'],
  authorityClasses: ['policy', 'note'],
  sensitivities: ['internal', 'confidential', 'secret'],
  evidenceClasses: ['facility_record', 'email', 'waiver'],
  propositions: ['p1', 'p2', 'p3'],
  words: ['refund', 'policy', 'waiver', 'retry', 'retrying', 'atlas', 'customer', 'late', 'fee', 'jo'],
  /** `Jo` names both customers, so a record about "Jo" is ambiguous whenever both identities are listed. */
  identities: [
    { id: 'cust-1', aliases: ['Jo', 'J. Smith'] },
    { id: 'cust-2', aliases: ['Jo', 'Jon'] },
  ],
  recordSubjects: [null, 'cust-1', 'cust-2', 'Jo', 'Jon', 'J. Smith', 'stranger'],
  contractSubjects: [null, 'cust-1', 'cust-2', 'Jon', 'J. Smith', 'stranger'],
} as const;

export const PROPERTY_AS_OF = '2026-08-30T12:00:00Z';
const MAX_RECORDS = 8;

/** Instants on both sides of the as-of, including the edges a date-only bound and an offset create. */
export const INSTANTS = [
  '2026-07-01',
  '2026-08-29',
  '2026-08-30',
  '2026-08-30T11:59:59.999Z',
  '2026-08-30T12:00:00Z',
  '2026-08-30T14:00:00+02:00',
  '2026-08-30T12:00:00.001Z',
  '2026-08-31',
  '2026-10-01',
] as const;

export const subsetOf = <T>(values: readonly T[], minLength = 0) => fc.subarray([...values], { minLength });

/** Mostly a value the contract accepts, sometimes any value: each gate then passes about nine times in ten. */
function preferFrom<T>(preferred: readonly T[], all: readonly T[]): fc.Arbitrary<T> {
  const any = fc.constantFrom(...all);
  return preferred.length === 0
    ? any
    : fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...preferred) }, { weight: 1, arbitrary: any });
}

export const textArbitrary = fc
  .array(fc.constantFrom(...VOCABULARY.words), { minLength: 1, maxLength: 6 })
  .map((words) => words.join(' '));

const asOfMs = parseInstant(PROPERTY_AS_OF) ?? 0;
const PAST = INSTANTS.filter((instant) => (parseInstant(instant) ?? 0) <= asOfMs);
const NOT_EXPIRED = INSTANTS.filter((instant) => (parseInstant(instant, 'end') ?? 0) >= asOfMs);

function recordBodyArbitrary(contract: Contract) {
  const principalRoles = fc.tuple(...contract.principals.map((principal) => fc.constantFrom(...principal.roles)));
  const acceptedPairs = contract.requiredPropositions.flatMap((p) =>
    p.acceptedClasses.map((cls) => ({ proposition: p.id, cls })),
  );
  const anyEvidence = fc.record({
    class: fc.constantFrom(...VOCABULARY.evidenceClasses),
    supports: subsetOf(VOCABULARY.propositions),
    contradicts: subsetOf(VOCABULARY.propositions),
  });
  const acceptedEvidence =
    acceptedPairs.length === 0
      ? anyEvidence
      : fc
          .tuple(fc.constantFrom(...acceptedPairs), fc.boolean(), subsetOf(VOCABULARY.propositions))
          .map(([pair, contradicts, others]) => ({
            class: pair.cls,
            supports: contradicts ? others : [...new Set([pair.proposition, ...others])],
            contradicts: contradicts ? [pair.proposition] : [],
          }));
  return fc.record({
    title: textArbitrary,
    text: textArbitrary,
    tokens: fc.integer({ min: 0, max: 60 }),
    project: preferFrom([contract.project], VOCABULARY.projects),
    scope: preferFrom(contract.scopes, VOCABULARY.scopes),
    subject: preferFrom([null, contract.subject], VOCABULARY.recordSubjects),
    knownAt: preferFrom(PAST, INSTANTS),
    validFrom: preferFrom(PAST, INSTANTS),
    validTo: preferFrom([null, ...NOT_EXPIRED], [null, ...INSTANTS]),
    lifecycle: preferFrom(
      LIFECYCLE_STATES.filter((state) => !contract.forbiddenLifecycle.includes(state)),
      LIFECYCLE_STATES,
    ),
    sourceClass: preferFrom(contract.allowedSourceClasses, VOCABULARY.sourceClasses),
    authorityClass: preferFrom(contract.allowedAuthorityClasses, VOCABULARY.authorityClasses),
    reviewState: preferFrom(
      REVIEW_STATES.filter((state) => contract.acceptedReviewStates.includes(state)),
      REVIEW_STATES,
    ),
    provenance: preferFrom(['verified'], ['verified', 'missing', 'wrong-hash'] as const),
    sensitivity: preferFrom(
      VOCABULARY.sensitivities.filter((level) => !contract.forbiddenSensitivity.includes(level)),
      VOCABULARY.sensitivities,
    ),
    roles: fc.oneof(
      {
        weight: 6,
        arbitrary: fc
          .tuple(principalRoles, subsetOf(VOCABULARY.roles))
          .map(([held, extra]) => [...new Set([...held, ...extra])]),
      },
      { weight: 1, arbitrary: subsetOf(VOCABULARY.roles, 1) },
    ),
    purposes: fc.oneof(
      {
        weight: 6,
        arbitrary: subsetOf(VOCABULARY.purposes).map((extra) => [...new Set([contract.purpose, ...extra])]),
      },
      { weight: 1, arbitrary: subsetOf(VOCABULARY.purposes, 1) },
    ),
    labels: fc.oneof(
      { weight: 3, arbitrary: fc.constant<string[]>([]) },
      { weight: 1, arbitrary: subsetOf(VOCABULARY.labels) },
    ),
    evidence: fc.oneof(
      { weight: 2, arbitrary: fc.constant(null) },
      { weight: contract.typedEvidenceOnly ? 6 : 2, arbitrary: acceptedEvidence },
      { weight: 1, arbitrary: anyEvidence },
    ),
    relevance: fc.option(fc.integer({ min: 0, max: 5 }), { freq: 3 }),
    /** Supersession targets as positions among earlier records: valid links, which form no cycle. */
    supersedes: fc.array(fc.nat({ max: MAX_RECORDS - 1 }), { maxLength: 2 }),
    /**
     * Now and then one link more that may be broken: to any position (itself, a later record and so a
     * possible cycle, or past the last record, which dangles), or to an id no record has.
     */
    extraLink: fc.oneof(
      { weight: 14, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.nat({ max: MAX_RECORDS - 1 }) },
      { weight: 1, arbitrary: fc.constant('missing' as const) },
    ),
  });
}

type RecordBody = ReturnType<typeof recordBodyArbitrary> extends fc.Arbitrary<infer T> ? T : never;

function bodyToRecord(body: RecordBody, index: number): SourceRecord {
  const id = `r${index}`;
  const extra = body.extraLink === null ? [] : [body.extraLink === 'missing' ? 'gone' : `r${body.extraLink}`];
  const targets = [
    ...new Set([...body.supersedes.filter((position) => position < index).map((position) => `r${position}`), ...extra]),
  ];
  const provenance =
    body.provenance === 'missing'
      ? null
      : {
          origin: `sys/${id}`,
          contentHash: contentHashOf(sha256, body.provenance === 'verified' ? body.text : `${body.text}!`),
        };
  const input: RecordInput = {
    id,
    title: body.title,
    text: body.text,
    tokens: body.tokens,
    project: body.project,
    scope: body.scope,
    subject: body.subject,
    knownAt: body.knownAt,
    validFrom: body.validFrom,
    validTo: body.validTo,
    lifecycle: body.lifecycle,
    supersedes: targets,
    sourceClass: body.sourceClass,
    authorityClass: body.authorityClass,
    reviewState: body.reviewState,
    provenance,
    sensitivity: body.sensitivity,
    access: { roles: body.roles, purposes: body.purposes, labels: body.labels },
    evidence: body.evidence,
    relevance: body.relevance,
  };
  return recordSchema.parse(input);
}

export const principalArbitrary = fc.record({
  id: fc.constantFrom('dana', 'bot', 'svc'),
  kind: fc.constantFrom('human', 'agent', 'service') as fc.Arbitrary<'human' | 'agent' | 'service'>,
  roles: subsetOf(VOCABULARY.roles, 1),
});

export const propositionArbitrary = (id: string) =>
  fc.record({ id: fc.constant(id), acceptedClasses: subsetOf(VOCABULARY.evidenceClasses, 1), blocking: fc.boolean() });

export const RECORD_IDS = Array.from({ length: MAX_RECORDS }, (_, index) => `r${index}`);

/** A contract over the shared vocabulary; it may require ids that the records do not reach. */
export const contractArbitrary: fc.Arbitrary<Contract> = fc
  .record({
    principals: fc.array(principalArbitrary, { minLength: 1, maxLength: 3 }),
    purpose: fc.constantFrom(...VOCABULARY.purposes),
    project: fc.constantFrom(...VOCABULARY.projects),
    scopes: subsetOf(VOCABULARY.scopes, 1),
    subject: fc.constantFrom(...VOCABULARY.contractSubjects),
    identities: subsetOf(VOCABULARY.identities),
    allowedSourceClasses: subsetOf(VOCABULARY.sourceClasses, 1),
    allowedAuthorityClasses: subsetOf(VOCABULARY.authorityClasses, 1),
    acceptedReviewStates: subsetOf(REVIEW_STATES, 1),
    forbiddenLifecycle: subsetOf(LIFECYCLE_STATES),
    forbiddenSensitivity: subsetOf(VOCABULARY.sensitivities),
    denyLabels: subsetOf(VOCABULARY.labels),
    requiredRecords: fc.oneof(
      { weight: 2, arbitrary: fc.constant<string[]>([]) },
      { weight: 1, arbitrary: subsetOf(RECORD_IDS.slice(0, 3)) },
    ),
    propositions: subsetOf(VOCABULARY.propositions),
    acceptedByProposition: fc.tuple(propositionArbitrary('p1'), propositionArbitrary('p2'), propositionArbitrary('p3')),
    typedEvidenceOnly: fc.boolean(),
    tokenBudget: fc.integer({ min: 0, max: 200 }),
    naiveTopK: fc.integer({ min: 1, max: 8 }),
    ranking: fc.constantFrom('bm25', 'declared') as fc.Arbitrary<'bm25' | 'declared'>,
    query: textArbitrary,
  })
  .map((draft) => {
    const propositions = new Set<string>(draft.propositions);
    const input: ContractInput = {
      task: 'Generated task',
      query: draft.query,
      asOf: PROPERTY_AS_OF,
      principals: draft.principals,
      purpose: draft.purpose,
      project: draft.project,
      scopes: draft.scopes,
      subject: draft.subject,
      identities: draft.identities.map((identity) => ({ id: identity.id, aliases: [...identity.aliases] })),
      allowedSourceClasses: draft.allowedSourceClasses,
      allowedAuthorityClasses: draft.allowedAuthorityClasses,
      acceptedReviewStates: draft.acceptedReviewStates,
      forbiddenLifecycle: draft.forbiddenLifecycle,
      forbiddenSensitivity: draft.forbiddenSensitivity,
      denyLabels: draft.denyLabels,
      requiredRecords: draft.requiredRecords,
      requiredPropositions: draft.acceptedByProposition.filter((proposition) => propositions.has(proposition.id)),
      typedEvidenceOnly: draft.typedEvidenceOnly && propositions.size > 0,
      tokenBudget: draft.tokenBudget,
      naiveTopK: draft.naiveTopK,
      ranking: draft.ranking,
    };
    return contractSchema.parse(input);
  });

/** A contract, then records that mostly conform to it, each field drifting outside it now and then. */
export const caseArbitrary = contractArbitrary.chain((contract) =>
  fc
    .array(recordBodyArbitrary(contract), { minLength: 1, maxLength: MAX_RECORDS })
    .map((bodies) => ({ contract, records: bodies.map(bodyToRecord) })),
);

/** fast-check prints the seed of a failing run; `FC_SEED=<seed>` replays it. */
export function propertyParameters(numRuns: number): fc.Parameters<unknown> {
  const seed = process.env.FC_SEED;
  return seed === undefined || seed === '' ? { numRuns } : { numRuns, seed: Number(seed) };
}
