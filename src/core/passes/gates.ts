import { formatInstantShort } from '../format/time';
import type { ReasonCode } from '../reasons';
import type { GateName } from '../result';
import { describeSupersession, type ResolvedContract, type ResolvedRecord } from './resolve';

export interface GateFailure {
  readonly gate: GateName;
  readonly code: ReasonCode;
  readonly fact: string;
}

export type Admission =
  | { readonly admitted: true }
  | { readonly admitted: false; readonly first: GateFailure; readonly failedGates: readonly GateName[] };

/** Sorted, so that reordering a set-like list in the contract or a record changes no byte of a fact. */
const list = (values: Iterable<string>) => `[${[...values].sort().join(', ')}]`;

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
  /** Texts that every failing record's fact repeats, formatted once per compilation. */
  readonly text: { readonly asOf: string; readonly scopes: string; readonly sourceClasses: string; readonly authorityClasses: string; readonly reviewStates: string };
}

export function createGateContext(resolved: ResolvedContract): GateContext {
  const { contract } = resolved;
  const scopes = new Set(contract.scopes);
  const sourceClasses = new Set(contract.allowedSourceClasses);
  const authorityClasses = new Set(contract.allowedAuthorityClasses);
  const reviewStates = new Set(contract.acceptedReviewStates);
  return {
    resolved,
    scopes,
    sourceClasses,
    authorityClasses,
    reviewStates,
    forbiddenLifecycle: new Set(contract.forbiddenLifecycle),
    forbiddenSensitivity: new Set(contract.forbiddenSensitivity),
    denyLabels: new Set(contract.denyLabels),
    acceptedClassesByProposition: new Map(contract.requiredPropositions.map((p) => [p.id, new Set(p.acceptedClasses)])),
    required: new Set(contract.requiredRecords),
    text: {
      asOf: formatInstantShort(resolved.asOf),
      scopes: list(scopes),
      sourceClasses: list(sourceClasses),
      authorityClasses: list(authorityClasses),
      reviewStates: list(reviewStates),
    },
  };
}

function checkIdentity(context: GateContext, item: ResolvedRecord): GateFailure | null {
  const identities = item.subjectIdentities;
  if (identities === null) return null;
  const subjectName = item.record.subject ?? '';
  if (identities.length > 1) {
    return { gate: 'identity', code: 'EXCLUDE_IDENTITY', fact: `subject "${subjectName}" is ambiguous: matches ${list(identities)}` };
  }
  const expected = context.resolved.subject;
  if (expected !== null && identities[0] !== expected) {
    return { gate: 'identity', code: 'EXCLUDE_IDENTITY', fact: `subject ${identities[0]} ≠ contract subject ${expected}` };
  }
  return null;
}

function checkTime(context: GateContext, item: ResolvedRecord): GateFailure | null {
  const asOf = context.resolved.asOf;
  const asOfText = context.text.asOf;
  const { knownAt, validFrom, validTo } = item.times;
  if (knownAt > asOf) return { gate: 'time', code: 'EXCLUDE_FUTURE', fact: `known_at ${formatInstantShort(knownAt)} > as_of ${asOfText}` };
  if (validFrom > asOf) return { gate: 'time', code: 'EXCLUDE_FUTURE', fact: `valid_from ${formatInstantShort(validFrom)} > as_of ${asOfText}` };
  if (validTo !== null && validTo < asOf) return { gate: 'time', code: 'EXCLUDE_EXPIRED', fact: `valid_to ${formatInstantShort(validTo)} < as_of ${asOfText}` };
  return null;
}

function checkAuthorisation(context: GateContext, item: ResolvedRecord): GateFailure | null {
  const { contract } = context.resolved;
  const allowedRoles = item.record.access.roles;
  for (const principal of contract.principals) {
    if (!principal.roles.some((role) => allowedRoles.includes(role))) {
      return {
        gate: 'authorisation',
        code: 'EXCLUDE_NOT_AUTHORISED',
        fact: `${principal.kind} ${principal.id} holds none of the allowed roles ${list(allowedRoles)}`,
      };
    }
  }
  if (!item.record.access.purposes.includes(contract.purpose)) {
    return { gate: 'authorisation', code: 'EXCLUDE_PURPOSE', fact: `purpose ${contract.purpose} not in released purposes ${list(item.record.access.purposes)}` };
  }
  return null;
}

function checkEvidence(context: GateContext, item: ResolvedRecord): GateFailure | null {
  // A record required by name is needed by definition; the typed-evidence rule governs optional records.
  if (!context.resolved.contract.typedEvidenceOnly || context.required.has(item.record.id)) return null;
  const evidence = item.record.evidence;
  const claimed = evidence === null ? [] : [...evidence.supports, ...evidence.contradicts].filter((p) => context.acceptedClassesByProposition.has(p));
  if (evidence !== null && claimed.some((p) => context.acceptedClassesByProposition.get(p)?.has(evidence.class))) return null;
  if (evidence === null || claimed.length === 0) {
    return { gate: 'evidence', code: 'EXCLUDE_NOT_NEEDED', fact: 'supports or contradicts no required proposition' };
  }
  const proposition = [...claimed].sort()[0] ?? '';
  const accepted = context.acceptedClassesByProposition.get(proposition) ?? new Set<string>();
  return {
    gate: 'evidence',
    code: 'EXCLUDE_EVIDENCE_CLASS',
    fact: `class ${evidence.class} is not accepted for ${proposition} (accepts ${[...accepted].sort().join(', ')})`,
  };
}

/** Every gate, in GATE_ORDER. All are evaluated so that disclosure knows every reason, not just the first. */
export function evaluateGates(context: GateContext, item: ResolvedRecord): Admission {
  const { contract } = context.resolved;
  const { record } = item;
  const failures: (GateFailure | null)[] = [
    record.project === contract.project ? null : { gate: 'project', code: 'EXCLUDE_PROJECT', fact: `project ${record.project} ≠ contract project ${contract.project}` },
    context.scopes.has(record.scope) ? null : { gate: 'scope', code: 'EXCLUDE_SCOPE', fact: `scope ${record.scope} not in allowed scopes ${context.text.scopes}` },
    checkIdentity(context, item),
    checkTime(context, item),
    item.supersededBy === null ? null : { gate: 'supersession', code: 'EXCLUDE_SUPERSEDED', fact: describeSupersession(item.supersededBy) },
    context.forbiddenLifecycle.has(record.lifecycle) ? { gate: 'lifecycle', code: 'EXCLUDE_LIFECYCLE', fact: `lifecycle ${record.lifecycle} is forbidden by the contract` } : null,
    context.sourceClasses.has(record.sourceClass) ? null : { gate: 'source', code: 'EXCLUDE_SOURCE', fact: `source class ${record.sourceClass} not in allowed ${context.text.sourceClasses}` },
    context.authorityClasses.has(record.authorityClass) ? null : { gate: 'authority', code: 'EXCLUDE_AUTHORITY', fact: `authority class ${record.authorityClass} not in allowed ${context.text.authorityClasses}` },
    context.reviewStates.has(record.reviewState) ? null : { gate: 'review', code: 'EXCLUDE_REVIEW', fact: `review state ${record.reviewState} not in accepted ${context.text.reviewStates}` },
    item.provenanceVerified
      ? null
      : { gate: 'provenance', code: 'EXCLUDE_PROVENANCE', fact: record.provenance === null ? 'no provenance recorded' : `content hash ${record.provenance.contentHash.slice(0, 19)}… does not match the text` },
    context.forbiddenSensitivity.has(record.sensitivity) ? { gate: 'sensitivity', code: 'EXCLUDE_SENSITIVITY', fact: `sensitivity ${record.sensitivity} is forbidden for this task` } : null,
    checkAuthorisation(context, item),
    checkDeny(context, item),
    checkEvidence(context, item),
  ];
  const failed = failures.filter((failure): failure is GateFailure => failure !== null);
  const first = failed[0];
  if (first === undefined) return { admitted: true };
  return { admitted: false, first, failedGates: failed.map((failure) => failure.gate) };
}

function checkDeny(context: GateContext, item: ResolvedRecord): GateFailure | null {
  const denied = item.record.access.labels.filter((label) => context.denyLabels.has(label));
  if (denied.length === 0) return null;
  return { gate: 'deny', code: 'EXCLUDE_DENY_LABEL', fact: `label ${[...denied].sort().join(', ')} is denied by the contract` };
}
