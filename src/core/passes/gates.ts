import { canonicalJson, compareStrings, sortedSet } from '../canonical';
import { formatInstantShort } from '../format/time';
import type { Fact, FactId, ReasonCode } from '../reasons';
import { GATE_ORDER, type GateName } from '../result';
import { identitiesOf, type ResolvedContract, type Supersession } from './resolve';
import type { CheckedRecord } from './validate';

/** One bit per gate, in GATE_ORDER: a verdict is the set of gates a record fails. */
export const GATE_BIT: Readonly<Record<GateName, number>> = Object.fromEntries(GATE_ORDER.map((gate, index) => [gate, 1 << index])) as Record<GateName, number>;

/** The gates a record fails, first (in GATE_ORDER) first. */
export function gatesIn(mask: number): GateName[] {
  return GATE_ORDER.filter((gate) => (mask & GATE_BIT[gate]) !== 0);
}

export function firstGate(mask: number): GateName | null {
  if (mask === 0) return null;
  return GATE_ORDER[31 - Math.clz32(mask & -mask)] ?? null;
}

/**
 * What the evaluator decides about one record from the record alone: every gate but supersession,
 * which depends on other records and is added by the admit pass. `fact` states the first failure.
 */
export interface GateVerdict {
  readonly failed: number;
  readonly fact: Fact | null;
}

export const PASSED: GateVerdict = Object.freeze({ failed: 0, fact: null });

/**
 * The contract's lists as sets, built once per compilation; `evaluateGates` runs once per record.
 * This evaluator is the independent re-check of what the SQL lowering admits.
 */
export interface GateContext {
  readonly resolved: ResolvedContract;
  readonly scopes: ReadonlySet<string>;
  readonly sourceClasses: ReadonlySet<string>;
  readonly authorityClasses: ReadonlySet<string>;
  readonly reviewStates: ReadonlySet<string>;
  readonly forbiddenLifecycle: ReadonlySet<string>;
  readonly forbiddenSensitivity: ReadonlySet<string>;
  readonly denyLabels: ReadonlySet<string>;
  readonly acceptedClassesByProposition: ReadonlyMap<string, ReadonlySet<string>>;
  readonly required: ReadonlySet<string>;
  /** Everything a verdict depends on besides the record: equal keys, equal verdicts for the same record. */
  readonly key: string;
}

export function createGateContext(resolved: ResolvedContract): GateContext {
  const { contract } = resolved;
  // Every contract field a gate reads, and the resolved subject and identity directory; not the query, budget or task.
  const key = canonicalJson({
    asOf: resolved.asOf,
    subject: resolved.subject,
    identityNames: [...resolved.identityNames].sort(([a], [b]) => compareStrings(a, b)),
    project: contract.project,
    scopes: sortedSet(contract.scopes),
    allowedSourceClasses: sortedSet(contract.allowedSourceClasses),
    allowedAuthorityClasses: sortedSet(contract.allowedAuthorityClasses),
    acceptedReviewStates: sortedSet(contract.acceptedReviewStates),
    forbiddenLifecycle: sortedSet(contract.forbiddenLifecycle),
    forbiddenSensitivity: sortedSet(contract.forbiddenSensitivity),
    denyLabels: sortedSet(contract.denyLabels),
    principals: contract.principals.map((principal) => [principal.id, principal.kind, sortedSet(principal.roles)]),
    purpose: contract.purpose,
    typedEvidenceOnly: contract.typedEvidenceOnly,
    required: sortedSet(contract.requiredRecords),
    propositions: contract.requiredPropositions.map((proposition) => [proposition.id, sortedSet(proposition.acceptedClasses)]).sort(([a], [b]) => compareStrings(String(a), String(b))),
  });
  return {
    resolved,
    scopes: new Set(contract.scopes),
    sourceClasses: new Set(contract.allowedSourceClasses),
    authorityClasses: new Set(contract.allowedAuthorityClasses),
    reviewStates: new Set(contract.acceptedReviewStates),
    forbiddenLifecycle: new Set(contract.forbiddenLifecycle),
    forbiddenSensitivity: new Set(contract.forbiddenSensitivity),
    denyLabels: new Set(contract.denyLabels),
    acceptedClassesByProposition: new Map(contract.requiredPropositions.map((p) => [p.id, new Set(p.acceptedClasses)])),
    required: new Set(contract.requiredRecords),
    key,
  };
}

function identityFact(context: GateContext, item: CheckedRecord): Fact | null {
  const name = item.record.subject;
  if (name === null) return null;
  const identities = identitiesOf(name, context.resolved.identityNames);
  if (identities.length > 1) return { fact: 'SUBJECT_AMBIGUOUS', args: { subject: name, identities: [...identities] } };
  const expected = context.resolved.subject;
  const identity = identities[0] ?? name;
  if (expected !== null && identity !== expected) return { fact: 'SUBJECT_MISMATCH', args: { identity, expected } };
  return null;
}

function timeFact(context: GateContext, item: CheckedRecord): Fact | null {
  const asOf = context.resolved.asOf;
  if (item.knownAt > asOf) return { fact: 'KNOWN_AFTER_AS_OF', args: { knownAt: formatInstantShort(item.knownAt) } };
  if (item.validFrom > asOf) return { fact: 'VALID_FROM_AFTER_AS_OF', args: { validFrom: formatInstantShort(item.validFrom) } };
  if (item.validTo !== null && item.validTo < asOf) return { fact: 'VALID_TO_BEFORE_AS_OF', args: { validTo: formatInstantShort(item.validTo) } };
  return null;
}

function authorisationFact(context: GateContext, item: CheckedRecord): Fact | null {
  const { contract } = context.resolved;
  const allowedRoles = item.record.access.roles;
  for (const principal of contract.principals) {
    if (!principal.roles.some((role) => allowedRoles.includes(role))) {
      return { fact: 'PRINCIPAL_LACKS_ROLE', args: { kind: principal.kind, principal: principal.id, allowedRoles: sortedSet(allowedRoles) } };
    }
  }
  if (!item.record.access.purposes.includes(contract.purpose)) return { fact: 'PURPOSE_NOT_RELEASED', args: { purposes: sortedSet(item.record.access.purposes) } };
  return null;
}

function evidenceFact(context: GateContext, item: CheckedRecord): Fact | null {
  // A record required by name is needed by definition; the typed-evidence rule governs optional records.
  if (!context.resolved.contract.typedEvidenceOnly || context.required.has(item.record.id)) return null;
  const evidence = item.record.evidence;
  const claimed = evidence === null ? [] : [...evidence.supports, ...evidence.contradicts].filter((p) => context.acceptedClassesByProposition.has(p));
  if (evidence !== null && claimed.some((p) => context.acceptedClassesByProposition.get(p)?.has(evidence.class))) return null;
  if (evidence === null || claimed.length === 0) return { fact: 'CLAIMS_NO_REQUIRED_PROPOSITION', args: {} };
  const proposition = sortedSet(claimed)[0] ?? '';
  return {
    fact: 'EVIDENCE_CLASS_NOT_ACCEPTED',
    args: { evidenceClass: evidence.class, proposition, accepted: sortedSet([...(context.acceptedClassesByProposition.get(proposition) ?? [])]) },
  };
}

/**
 * The fact of one gate for one record: why it fails, or null when it passes. Supersession is the one
 * gate that reads other records; its successor is passed in.
 */
export function gateFact(context: GateContext, item: CheckedRecord, gate: GateName, supersededBy: Supersession | null = null): Fact | null {
  const { record } = item;
  const { contract } = context.resolved;
  switch (gate) {
    case 'project':
      return record.project === contract.project ? null : { fact: 'PROJECT_MISMATCH', args: { project: record.project } };
    case 'scope':
      return context.scopes.has(record.scope) ? null : { fact: 'SCOPE_NOT_ALLOWED', args: { scope: record.scope } };
    case 'identity':
      return identityFact(context, item);
    case 'time':
      return timeFact(context, item);
    case 'supersession':
      return supersededBy === null ? null : { fact: 'SUPERSEDED_BY', args: { successor: supersededBy.id, since: formatInstantShort(supersededBy.since) } };
    case 'lifecycle':
      return context.forbiddenLifecycle.has(record.lifecycle) ? { fact: 'LIFECYCLE_FORBIDDEN', args: { lifecycle: record.lifecycle } } : null;
    case 'source':
      return context.sourceClasses.has(record.sourceClass) ? null : { fact: 'SOURCE_NOT_ALLOWED', args: { sourceClass: record.sourceClass } };
    case 'authority':
      return context.authorityClasses.has(record.authorityClass) ? null : { fact: 'AUTHORITY_NOT_ALLOWED', args: { authorityClass: record.authorityClass } };
    case 'review':
      return context.reviewStates.has(record.reviewState) ? null : { fact: 'REVIEW_NOT_ACCEPTED', args: { reviewState: record.reviewState } };
    case 'provenance':
      if (item.provenanceVerified) return null;
      return record.provenance === null ? { fact: 'PROVENANCE_MISSING', args: {} } : { fact: 'CONTENT_HASH_MISMATCH', args: { contentHash: record.provenance.contentHash.slice(0, 19) } };
    case 'sensitivity':
      return context.forbiddenSensitivity.has(record.sensitivity) ? { fact: 'SENSITIVITY_FORBIDDEN', args: { sensitivity: record.sensitivity } } : null;
    case 'authorisation':
      return authorisationFact(context, item);
    case 'deny': {
      const denied = record.access.labels.filter((label) => context.denyLabels.has(label));
      return denied.length === 0 ? null : { fact: 'LABEL_DENIED', args: { labels: sortedSet(denied) } };
    }
    case 'evidence':
      return evidenceFact(context, item);
  }
}

/** Gates that read only the record and the contract: all but supersession. */
const LOCAL_GATES = GATE_ORDER.filter((gate) => gate !== 'supersession');

/**
 * Every gate but supersession, in GATE_ORDER. All are evaluated so that disclosure knows every reason,
 * not just the first; the fact is kept for the first failure only.
 */
export function evaluateGates(context: GateContext, item: CheckedRecord): GateVerdict {
  let failed = 0;
  let fact: Fact | null = null;
  for (const gate of LOCAL_GATES) {
    const failure = gateFact(context, item, gate);
    if (failure === null) continue;
    failed |= GATE_BIT[gate];
    fact ??= failure;
  }
  return failed === 0 ? PASSED : { failed, fact };
}

/** Equal verdicts, so a verdict evaluated again under a new contract can stand in for the old object. */
export function sameVerdict(a: GateVerdict, b: GateVerdict): boolean {
  return a.failed === b.failed && sameFact(a.fact, b.fact);
}

export function sameFact(a: Fact | null, b: Fact | null): boolean {
  if (a === b) return true;
  if (a === null || b === null || a.fact !== b.fact) return false;
  return canonicalJson(a.args) === canonicalJson(b.args);
}

/** Every gate with its fact, in order: the record inspector's explanation (like OPA's explain). */
export function explainGates(context: GateContext, item: CheckedRecord, supersededBy: Supersession | null): { readonly gate: GateName; readonly fact: Fact | null }[] {
  return GATE_ORDER.map((gate) => ({ gate, fact: gateFact(context, item, gate, supersededBy) }));
}

/** The reason code a gate's fact stands for (a gate can fail in more than one way, say expired or future). */
const GATE_CODES: Partial<Readonly<Record<FactId, ReasonCode>>> = {
  PROJECT_MISMATCH: 'EXCLUDE_PROJECT',
  SCOPE_NOT_ALLOWED: 'EXCLUDE_SCOPE',
  SUBJECT_AMBIGUOUS: 'EXCLUDE_IDENTITY',
  SUBJECT_MISMATCH: 'EXCLUDE_IDENTITY',
  KNOWN_AFTER_AS_OF: 'EXCLUDE_FUTURE',
  VALID_FROM_AFTER_AS_OF: 'EXCLUDE_FUTURE',
  VALID_TO_BEFORE_AS_OF: 'EXCLUDE_EXPIRED',
  SUPERSEDED_BY: 'EXCLUDE_SUPERSEDED',
  LIFECYCLE_FORBIDDEN: 'EXCLUDE_LIFECYCLE',
  SOURCE_NOT_ALLOWED: 'EXCLUDE_SOURCE',
  AUTHORITY_NOT_ALLOWED: 'EXCLUDE_AUTHORITY',
  REVIEW_NOT_ACCEPTED: 'EXCLUDE_REVIEW',
  PROVENANCE_MISSING: 'EXCLUDE_PROVENANCE',
  CONTENT_HASH_MISMATCH: 'EXCLUDE_PROVENANCE',
  SENSITIVITY_FORBIDDEN: 'EXCLUDE_SENSITIVITY',
  PRINCIPAL_LACKS_ROLE: 'EXCLUDE_NOT_AUTHORISED',
  PURPOSE_NOT_RELEASED: 'EXCLUDE_PURPOSE',
  LABEL_DENIED: 'EXCLUDE_DENY_LABEL',
  CLAIMS_NO_REQUIRED_PROPOSITION: 'EXCLUDE_NOT_NEEDED',
  EVIDENCE_CLASS_NOT_ACCEPTED: 'EXCLUDE_EVIDENCE_CLASS',
};

export function gateCodeOf(fact: Fact): ReasonCode {
  const code = GATE_CODES[fact.fact];
  if (code === undefined) throw new Error(`${fact.fact} is not a gate's fact`);
  return code;
}
