import { sortedSet } from '../../canonical';
import { compileError, err, ok, type CompileError, type Result } from '../../errors';
import type { Contract } from '../../format/contract';
import type { SourceRecord } from '../../format/record';
import { formatInstantShort } from '../../format/time';
import type { Fact, FactId, ReasonCode } from '../../reasons';
import { GATE_ORDER, type GateName } from '../../result';
import {
  buildIdentityNames,
  identitiesOf,
  type BrokenLink,
  type IdPositions,
  type ResolvedRecord,
  type Resolution,
  type Supersession,
} from '../2-resolve/resolve';
import type { CheckedRecord } from '../1-validate/validate';

/*
 * Pass 4's reference evaluator: every gate, judged one record at a time (`evaluateGates`), and `admit`, whose
 * admitted set must equal the one the store admitted.
 */

/** One bit per gate, in GATE_ORDER: a verdict is the set of gates a record fails. */
export const GATE_BIT: Readonly<Record<GateName, number>> = Object.fromEntries(
  GATE_ORDER.map((gate, index) => [gate, 1 << index]),
) as Record<GateName, number>;

/** The gates a record fails, first (in GATE_ORDER) first. */
export function gatesIn(mask: number): GateName[] {
  return GATE_ORDER.filter((gate) => (mask & GATE_BIT[gate]) !== 0);
}

export function firstGate(mask: number): GateName | null {
  if (mask === 0) return null;
  return GATE_ORDER[31 - Math.clz32(mask & -mask)] ?? null;
}

/** What the evaluator decides about one resolved record: every gate it fails, and the fact of the first. */
export interface GateVerdict {
  readonly resolved: ResolvedRecord;
  readonly failed: number;
  readonly fact: Fact | null;
}

/**
 * Every contract field a gate reads, once: the evaluator is handed exactly these (`GateInputs`), and a
 * memo that keys verdicts by exactly these cannot miss a field a gate reads.
 */
export const GATE_FIELDS = [
  'asOf',
  'subject',
  'identities',
  'project',
  'scopes',
  'allowedSourceClasses',
  'allowedAuthorityClasses',
  'acceptedReviewStates',
  'forbiddenLifecycle',
  'forbiddenSensitivity',
  'denyLabels',
  'principals',
  'purpose',
  'typedEvidenceOnly',
  'requiredRecords',
  'requiredPropositions',
] as const satisfies readonly (keyof Contract)[];

export type GateInputs = Pick<Contract, (typeof GATE_FIELDS)[number]>;

/**
 * The gate fields as the evaluator uses them: lists as sets, the as-of time and the subject resolved
 * from them, built once per compilation; `evaluateGates` runs once per record.
 * This evaluator is the independent re-check of what the adapter admits.
 */
export interface GateContext {
  readonly contract: GateInputs;
  readonly asOf: number;
  /** The contract subject as one canonical identity (resolve has refused an ambiguous one), or null. */
  readonly subject: string | null;
  readonly identityNames: ReadonlyMap<string, readonly string[]>;
  readonly scopes: ReadonlySet<string>;
  readonly sourceClasses: ReadonlySet<string>;
  readonly authorityClasses: ReadonlySet<string>;
  readonly reviewStates: ReadonlySet<string>;
  readonly forbiddenLifecycle: ReadonlySet<string>;
  readonly forbiddenSensitivity: ReadonlySet<string>;
  readonly denyLabels: ReadonlySet<string>;
  readonly acceptedClassesByProposition: ReadonlyMap<string, ReadonlySet<string>>;
  readonly required: ReadonlySet<string>;
}

/** The gate context from the gate fields alone (`asOf` is the instant resolve read from the contract's `asOf`). */
export function gateContextOf(contract: GateInputs, asOf: number): GateContext {
  const identityNames = buildIdentityNames(contract);
  return {
    contract,
    asOf,
    subject: contract.subject === null ? null : (identitiesOf(contract.subject, identityNames)[0] ?? null),
    identityNames,
    scopes: new Set(contract.scopes),
    sourceClasses: new Set(contract.allowedSourceClasses),
    authorityClasses: new Set(contract.allowedAuthorityClasses),
    reviewStates: new Set(contract.acceptedReviewStates),
    forbiddenLifecycle: new Set(contract.forbiddenLifecycle),
    forbiddenSensitivity: new Set(contract.forbiddenSensitivity),
    denyLabels: new Set(contract.denyLabels),
    acceptedClassesByProposition: new Map(contract.requiredPropositions.map((p) => [p.id, new Set(p.acceptedClasses)])),
    required: new Set(contract.requiredRecords),
  };
}

export function createGateContext(resolved: { readonly contract: Contract; readonly asOf: number }): GateContext {
  return gateContextOf(resolved.contract, resolved.asOf);
}

function someInSet(values: readonly string[], set: ReadonlySet<string>): boolean {
  for (const value of values) if (set.has(value)) return true;
  return false;
}

function someInList(values: readonly string[], list: readonly string[]): boolean {
  for (const value of values) if (list.includes(value)) return true;
  return false;
}

/**
 * The gates a record fails, as a mask of GATE_BIT: each gate's condition, written once. Evaluating
 * a large corpus runs this once per record, every condition in one pass with plain loops (a call per gate through
 * a switch, and a closure or a spread array per list, cost markedly more); the fact, with its
 * details, is worked out only for the first failure.
 */
function failedGates(
  context: GateContext,
  item: CheckedRecord,
  supersededBy: Supersession | null,
  brokenLink: BrokenLink | null,
): number {
  const { record } = item;
  const { contract, asOf } = context;
  let failed = 0;
  if (record.project !== contract.project) failed |= GATE_BIT.project;
  if (!context.scopes.has(record.scope)) failed |= GATE_BIT.scope;
  if (record.subject !== null) {
    const identities = identitiesOf(record.subject, context.identityNames);
    if (identities.length > 1 || (context.subject !== null && identities[0] !== context.subject))
      failed |= GATE_BIT.identity;
  }
  if (item.knownAt > asOf || item.validFrom > asOf || (item.validTo !== null && item.validTo < asOf))
    failed |= GATE_BIT.time;
  if (supersededBy !== null || brokenLink !== null) failed |= GATE_BIT.supersession;
  if (context.forbiddenLifecycle.has(record.lifecycle)) failed |= GATE_BIT.lifecycle;
  if (!context.sourceClasses.has(record.sourceClass)) failed |= GATE_BIT.source;
  if (!context.authorityClasses.has(record.authorityClass)) failed |= GATE_BIT.authority;
  if (!context.reviewStates.has(record.reviewState)) failed |= GATE_BIT.review;
  if (!item.provenanceVerified) failed |= GATE_BIT.provenance;
  if (context.forbiddenSensitivity.has(record.sensitivity)) failed |= GATE_BIT.sensitivity;
  if (
    lackingPrincipal(contract.principals, record.access.roles) !== undefined ||
    !record.access.purposes.includes(contract.purpose)
  )
    failed |= GATE_BIT.authorisation;
  if (someInSet(record.access.labels, context.denyLabels)) failed |= GATE_BIT.deny;
  // A record required by name is needed by definition; the typed-evidence rule governs optional records.
  if (contract.typedEvidenceOnly && !context.required.has(record.id) && !acceptedAsEvidence(context, record.evidence))
    failed |= GATE_BIT.evidence;
  return failed;
}

/**
 * Whether the contract withholds the record from the caller: the authorisation and deny gates' own conditions,
 * which read nothing but the record and the contract.
 */
export function withheldByContract(contract: Contract, record: SourceRecord): boolean {
  if (
    lackingPrincipal(contract.principals, record.access.roles) !== undefined ||
    !record.access.purposes.includes(contract.purpose)
  )
    return true;
  return someInList(record.access.labels, contract.denyLabels);
}

/** The first principal of the chain that holds none of the roles a record allows. */
function lackingPrincipal(
  principals: Contract['principals'],
  allowedRoles: readonly string[],
): Contract['principals'][number] | undefined {
  for (const principal of principals) if (!someInList(principal.roles, allowedRoles)) return principal;
  return undefined;
}

/** Whether the record's evidence is of a class some proposition it claims accepts. */
function acceptedAsEvidence(context: GateContext, evidence: SourceRecord['evidence']): boolean {
  if (evidence === null) return false;
  for (const proposition of evidence.supports)
    if (context.acceptedClassesByProposition.get(proposition)?.has(evidence.class)) return true;
  for (const proposition of evidence.contradicts)
    if (context.acceptedClassesByProposition.get(proposition)?.has(evidence.class)) return true;
  return false;
}

/** Why a record fails a gate it fails (see `failedGates`): the fact, with the values that decided it. */
function failureFact(
  context: GateContext,
  item: CheckedRecord,
  gate: GateName,
  supersededBy: Supersession | null,
  brokenLink: BrokenLink | null,
): Fact {
  const { record } = item;
  const { contract } = context;
  switch (gate) {
    case 'project':
      return { fact: 'PROJECT_MISMATCH', args: { project: record.project } };
    case 'scope':
      return { fact: 'SCOPE_NOT_ALLOWED', args: { scope: record.scope } };
    case 'identity': {
      const name = record.subject ?? '';
      const identities = identitiesOf(name, context.identityNames);
      if (identities.length > 1)
        return { fact: 'SUBJECT_AMBIGUOUS', args: { subject: name, identities: [...identities] } };
      return { fact: 'SUBJECT_MISMATCH', args: { identity: identities[0] ?? name, expected: context.subject ?? '' } };
    }
    case 'time': {
      const asOf = context.asOf;
      if (item.knownAt > asOf)
        return { fact: 'KNOWN_AFTER_AS_OF', args: { knownAt: formatInstantShort(item.knownAt) } };
      if (item.validFrom > asOf)
        return { fact: 'VALID_FROM_AFTER_AS_OF', args: { validFrom: formatInstantShort(item.validFrom) } };
      return { fact: 'VALID_TO_BEFORE_AS_OF', args: { validTo: formatInstantShort(item.validTo ?? asOf) } };
    }
    case 'supersession':
      // The record's own broken links first: a successor in force is a reason too, but a broken history is the record's
      // own.
      if (brokenLink?.kind === 'dangling') return { fact: 'SUPERSEDES_MISSING', args: { targets: brokenLink.targets } };
      if (brokenLink?.kind === 'self') return { fact: 'SUPERSEDES_ITSELF', args: {} };
      if (brokenLink?.kind === 'cycle')
        return { fact: 'ON_SUPERSESSION_CYCLE', args: { successors: brokenLink.successors } };
      return {
        fact: 'SUPERSEDED_BY',
        args: { successor: supersededBy?.id ?? '', since: formatInstantShort(supersededBy?.since ?? 0) },
      };
    case 'lifecycle':
      return { fact: 'LIFECYCLE_FORBIDDEN', args: { lifecycle: record.lifecycle } };
    case 'source':
      return { fact: 'SOURCE_NOT_ALLOWED', args: { sourceClass: record.sourceClass } };
    case 'authority':
      return { fact: 'AUTHORITY_NOT_ALLOWED', args: { authorityClass: record.authorityClass } };
    case 'review':
      return { fact: 'REVIEW_NOT_ACCEPTED', args: { reviewState: record.reviewState } };
    case 'provenance':
      return record.provenance === null
        ? { fact: 'PROVENANCE_MISSING', args: {} }
        : { fact: 'CONTENT_HASH_MISMATCH', args: { contentHash: record.provenance.contentHash.slice(0, 19) } };
    case 'sensitivity':
      return { fact: 'SENSITIVITY_FORBIDDEN', args: { sensitivity: record.sensitivity } };
    case 'authorisation': {
      const lacking = lackingPrincipal(contract.principals, record.access.roles);
      if (lacking !== undefined)
        return {
          fact: 'PRINCIPAL_LACKS_ROLE',
          args: { kind: lacking.kind, principal: lacking.id, allowedRoles: sortedSet(record.access.roles) },
        };
      return { fact: 'PURPOSE_NOT_RELEASED', args: { purposes: sortedSet(record.access.purposes) } };
    }
    case 'deny':
      return {
        fact: 'LABEL_DENIED',
        args: { labels: sortedSet(record.access.labels.filter((label) => context.denyLabels.has(label))) },
      };
    case 'evidence': {
      const evidence = record.evidence;
      const claimed =
        evidence === null
          ? []
          : sortedSet(
              [...evidence.supports, ...evidence.contradicts].filter((p) =>
                context.acceptedClassesByProposition.has(p),
              ),
            );
      const proposition = claimed[0];
      if (evidence === null || proposition === undefined) return { fact: 'CLAIMS_NO_REQUIRED_PROPOSITION', args: {} };
      return {
        fact: 'EVIDENCE_CLASS_NOT_ACCEPTED',
        args: {
          evidenceClass: evidence.class,
          proposition,
          accepted: sortedSet([...(context.acceptedClassesByProposition.get(proposition) ?? [])]),
        },
      };
    }
  }
}

/**
 * Every gate, in GATE_ORDER. All are evaluated so that disclosure knows every reason, not just the
 * first; the fact is worked out for the first failure only.
 */
export function evaluateGates(context: GateContext, resolved: ResolvedRecord): GateVerdict {
  const failed = failedGates(context, resolved.checked, resolved.supersededBy, resolved.brokenLink);
  const first = firstGate(failed);
  return {
    resolved,
    failed,
    fact:
      first === null ? null : failureFact(context, resolved.checked, first, resolved.supersededBy, resolved.brokenLink),
  };
}

/**
 * Every gate with its fact, in order: the record inspector's explanation (like OPA's explain). Supersession
 * is the one gate that reads other records; the resolved record carries its successor and its broken links.
 */
export function explainGates(
  context: GateContext,
  resolved: ResolvedRecord,
): { readonly gate: GateName; readonly fact: Fact | null }[] {
  const { checked, supersededBy, brokenLink } = resolved;
  const failed = failedGates(context, checked, supersededBy, brokenLink);
  return GATE_ORDER.map((gate) => ({
    gate,
    fact: (failed & GATE_BIT[gate]) !== 0 ? failureFact(context, checked, gate, supersededBy, brokenLink) : null,
  }));
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
  SUPERSEDES_MISSING: 'EXCLUDE_DANGLING_SUPERSESSION',
  SUPERSEDES_ITSELF: 'EXCLUDE_SUPERSESSION_CYCLE',
  ON_SUPERSESSION_CYCLE: 'EXCLUDE_SUPERSESSION_CYCLE',
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

export interface Admission {
  readonly gates: GateContext;
  /** Per position (id order): every gate the record fails (none when admitted) and the fact of the first. */
  readonly verdicts: readonly GateVerdict[];
  /** The admitted positions, ascending (id order). */
  readonly admitted: readonly number[];
  readonly admittedIds: ReadonlySet<string>;
  /**
   * Each admitted id's position: the ranking names records by id, and a search of every id per name costs more than
   * the map.
   */
  readonly admittedAt: ReadonlyMap<string, number>;
}

/** The admitted positions' ids and each id's position. */
export function admittedSets(
  indexOf: IdPositions,
  admitted: readonly number[],
): Pick<Admission, 'admitted' | 'admittedIds' | 'admittedAt'> {
  const admittedIds = new Set<string>();
  const admittedAt = new Map<string, number>();
  for (const position of admitted) {
    const id = indexOf.idAt(position);
    admittedIds.add(id);
    admittedAt.set(id, position);
  }
  return { admitted, admittedIds, admittedAt };
}

/** The admitted records, in id order. */
export function admittedChecked(admission: Admission): CheckedRecord[] {
  return admission.admitted.map((position) => (admission.verdicts[position] as GateVerdict).resolved.checked);
}

export function divergence(id: string, detail: string): CompileError {
  return compileError({ pass: 'admit', code: 'ADAPTER_MISMATCH', recordId: id }, 'ADMISSION_DISAGREEMENT', {
    record: id,
    detail,
  });
}

/** The admitted positions (no gate failed), ascending. */
export function admittedPositions(verdicts: readonly GateVerdict[]): number[] {
  const positions: number[] = [];
  for (let position = 0; position < verdicts.length; position += 1)
    if ((verdicts[position] as GateVerdict).failed === 0) positions.push(position);
  return positions;
}

/**
 * The reference evaluator's admitted set must equal the candidates the store admitted (`storeAdmitted`):
 * any difference stops compilation, naming a record on which they disagree.
 */
export function checkAgreement(
  resolution: Resolution,
  verdicts: readonly GateVerdict[],
  admittedIds: ReadonlySet<string>,
  storeAdmitted: ReadonlySet<string>,
): Result<null, CompileError> {
  for (const id of storeAdmitted) {
    if (admittedIds.has(id)) continue;
    const position = resolution.indexOf.get(id);
    if (position === undefined)
      return err(divergence(id, 'the SQL index returned a record that is not in the supplied set'));
    return err(
      divergence(id, `SQL admitted it but the evaluator refuses it (${verdicts[position]?.fact?.fact ?? 'a gate'})`),
    );
  }
  // Every store id is admitted here too: sets of the same size are then the same set.
  if (storeAdmitted.size !== admittedIds.size) {
    for (const id of admittedIds) {
      if (!storeAdmitted.has(id))
        return err(divergence(id, 'the evaluator admits it but the SQL lowering did not return it'));
    }
  }
  return ok(null);
}

/**
 * Pass 4: the TypeScript evaluator (the reference every adapter is compared with) decides every record's
 * verdict (`evaluateGates`, one record at a time), and the result must equal the candidates the adapter
 * admitted from its own store (`sqlAdmitted`); any difference stops compilation. The two sides share no
 * derived state: each finds its own answer.
 */
export function admit(resolution: Resolution, sqlAdmitted: ReadonlySet<string>): Result<Admission, CompileError> {
  const gates = createGateContext(resolution.contract);
  const verdicts = resolution.records.map((resolved) => evaluateGates(gates, resolved));
  const sets = admittedSets(resolution.indexOf, admittedPositions(verdicts));
  const agreed = checkAgreement(resolution, verdicts, sets.admittedIds, sqlAdmitted);
  return agreed.ok ? ok({ gates, verdicts, ...sets }) : agreed;
}
