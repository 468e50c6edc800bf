import { canonicalJson, compareStrings, sortedSet } from '../../canonical';
import type { Sha256 } from '../../fingerprints';
import type { ResolvedContract } from '../2-resolve/resolve';
import type { GateName } from '../../result';

/**
 * The admission plan: every legality gate as a set or a constraint over typed values, in the words of no
 * store. Adapters lower it (to one SQLite WHERE, one PostgreSQL statement); the reference evaluator
 * (4-admit/admit.ts) decides the same records from the contract, and any difference stops compilation.
 *
 * Every value carries its domain, so a lowering cannot compare a subject's identity with a scope name or
 * a decision time with an ingestion time: a clause's field and its operand's domain must agree (`FIELD_DOMAIN`).
 */
export type PlanDomain =
  | 'project'
  | 'scope'
  | 'identity'
  | 'identity-name'
  | 'lifecycle'
  | 'source-class'
  | 'authority-class'
  | 'review-state'
  | 'sensitivity'
  | 'role'
  | 'purpose'
  | 'label'
  | 'record-id'
  | 'proposition'
  | 'evidence-class';

/** A set of values of one domain: distinct, in code-point order. */
export interface TypedSet<D extends PlanDomain = PlanDomain> {
  readonly domain: D;
  readonly values: readonly string[];
}

export interface TypedValue<D extends PlanDomain = PlanDomain> {
  readonly domain: D;
  readonly value: string;
}

/** The decision time: a UTC instant in whole milliseconds, never an ingestion or upload time. */
export interface DecisionTime {
  readonly type: 'decision-time';
  readonly epochMs: number;
}

/** A record's fields a clause may read, with the domain of the values each holds. */
export const FIELD_DOMAIN = {
  id: 'record-id',
  project: 'project',
  scope: 'scope',
  lifecycle: 'lifecycle',
  sourceClass: 'source-class',
  authorityClass: 'authority-class',
  reviewState: 'review-state',
  sensitivity: 'sensitivity',
  roles: 'role',
  purposes: 'purpose',
  labels: 'label',
} as const satisfies Record<string, PlanDomain>;

export type ScalarField =
  'id' | 'project' | 'scope' | 'lifecycle' | 'sourceClass' | 'authorityClass' | 'reviewState' | 'sensitivity';
export type ListField = 'roles' | 'purposes' | 'labels';

/**
 * One constraint. All clauses of a plan must hold (a conjunction); each names the gate it stands for, so a
 * lowering that loses one is found by the gate it lost. The operators are the whole vocabulary: an adapter
 * lists the ones it lowers exactly, and a plan with any other fails (`LOWERING_UNSUPPORTED`).
 */
export type PlanClause =
  | { readonly gate: GateName; readonly op: 'equals'; readonly field: ScalarField; readonly value: TypedValue }
  | {
      readonly gate: GateName;
      readonly op: 'member-of' | 'not-member-of';
      readonly field: ScalarField;
      readonly set: TypedSet;
    }
  /** The record's list holds this value (the task's purpose is among those released). */
  | { readonly gate: GateName; readonly op: 'list-contains'; readonly field: ListField; readonly value: TypedValue }
  /** The record's list shares no value with the set (deny labels): an empty set holds for every record. */
  | { readonly gate: GateName; readonly op: 'list-disjoint'; readonly field: ListField; readonly set: TypedSet }
  /** Every principal's roles meet the record's allowed roles (a record allowing no role admits nobody). */
  | {
      readonly gate: GateName;
      readonly op: 'every-group-meets-list';
      readonly field: ListField;
      readonly groups: readonly TypedSet[];
    }
  /**
   * A record without a subject passes; otherwise the names the directory maps its subject to must be one
   * identity, equal to `subject` when there is one; a subject the directory does not know stands for itself.
   */
  | {
      readonly gate: GateName;
      readonly op: 'subject-resolves';
      readonly subject: TypedValue<'identity'> | null;
      readonly directory: readonly { readonly name: string; readonly identities: readonly string[] }[];
    }
  /** known_at <= at, valid_from <= at, and valid_to absent or >= at: both ends inclusive. */
  | { readonly gate: GateName; readonly op: 'in-force-at'; readonly at: DecisionTime }
  /** No active record known and valid by `at` names this record in its supersedes. */
  | { readonly gate: GateName; readonly op: 'not-superseded-at'; readonly at: DecisionTime }
  | { readonly gate: GateName; readonly op: 'provenance-verified' }
  /**
   * The record is required by name, or its evidence class is accepted for some proposition it supports or
   * contradicts.
   */
  | {
      readonly gate: GateName;
      readonly op: 'required-or-accepted-evidence';
      readonly required: TypedSet<'record-id'>;
      readonly accepted: readonly { readonly proposition: string; readonly classes: TypedSet<'evidence-class'> }[];
    };

export type PlanOperator = PlanClause['op'];

export const PLAN_OPERATORS: readonly PlanOperator[] = [
  'equals',
  'member-of',
  'not-member-of',
  'list-contains',
  'list-disjoint',
  'every-group-meets-list',
  'subject-resolves',
  'in-force-at',
  'not-superseded-at',
  'provenance-verified',
  'required-or-accepted-evidence',
];

export interface AdmissionPlan {
  readonly kind: 'admission-plan';
  readonly version: 1;
  readonly clauses: readonly PlanClause[];
}

function typedSet<D extends PlanDomain>(domain: D, values: readonly string[]): TypedSet<D> {
  return { domain, values: sortedSet(values) };
}

function typedValue<D extends PlanDomain>(domain: D, value: string): TypedValue<D> {
  return { domain, value };
}

/**
 * The plan of a resolved contract: the gates in GATE_ORDER. It is built from the contract, independently
 * of the evaluator that re-checks every candidate, and from the one thing resolve decided about the records
 * as a whole: which have broken supersession links (`brokenLinks`, ids). Whether a record lies on a cycle
 * depends on every link of the cycle, which a store re-running only the rows that changed cannot see, so
 * both sides read the one answer resolve found and agree on it by construction.
 */
export function buildAdmissionPlan(resolved: ResolvedContract, brokenLinks: readonly string[]): AdmissionPlan {
  const { contract, asOf, subject } = resolved;
  const at: DecisionTime = { type: 'decision-time', epochMs: asOf };
  const directory = [...resolved.identityNames]
    .map(([name, identities]) => ({ name, identities: sortedSet(identities) }))
    .sort((a, b) => compareStrings(a.name, b.name));
  const clauses: PlanClause[] = [
    { gate: 'project', op: 'equals', field: 'project', value: typedValue('project', contract.project) },
    { gate: 'scope', op: 'member-of', field: 'scope', set: typedSet('scope', contract.scopes) },
    {
      gate: 'identity',
      op: 'subject-resolves',
      subject: subject === null ? null : typedValue('identity', subject),
      directory,
    },
    { gate: 'time', op: 'in-force-at', at },
    { gate: 'supersession', op: 'not-superseded-at', at },
    { gate: 'supersession', op: 'not-member-of', field: 'id', set: typedSet('record-id', brokenLinks) },
    {
      gate: 'lifecycle',
      op: 'not-member-of',
      field: 'lifecycle',
      set: typedSet('lifecycle', contract.forbiddenLifecycle),
    },
    {
      gate: 'source',
      op: 'member-of',
      field: 'sourceClass',
      set: typedSet('source-class', contract.allowedSourceClasses),
    },
    {
      gate: 'authority',
      op: 'member-of',
      field: 'authorityClass',
      set: typedSet('authority-class', contract.allowedAuthorityClasses),
    },
    {
      gate: 'review',
      op: 'member-of',
      field: 'reviewState',
      set: typedSet('review-state', contract.acceptedReviewStates),
    },
    { gate: 'provenance', op: 'provenance-verified' },
    {
      gate: 'sensitivity',
      op: 'not-member-of',
      field: 'sensitivity',
      set: typedSet('sensitivity', contract.forbiddenSensitivity),
    },
    // Principals keep the contract's order: the chain is a sequence, and a fact names its first principal lacking a
    // role.
    {
      gate: 'authorisation',
      op: 'every-group-meets-list',
      field: 'roles',
      groups: contract.principals.map((principal) => typedSet('role', principal.roles)),
    },
    { gate: 'authorisation', op: 'list-contains', field: 'purposes', value: typedValue('purpose', contract.purpose) },
    { gate: 'deny', op: 'list-disjoint', field: 'labels', set: typedSet('label', contract.denyLabels) },
  ];
  if (contract.typedEvidenceOnly) {
    clauses.push({
      gate: 'evidence',
      op: 'required-or-accepted-evidence',
      required: typedSet('record-id', contract.requiredRecords),
      accepted: contract.requiredPropositions
        .map((proposition) => ({
          proposition: proposition.id,
          classes: typedSet('evidence-class', proposition.acceptedClasses),
        }))
        .sort((a, b) => compareStrings(a.proposition, b.proposition)),
    });
  }
  return { kind: 'admission-plan', version: 1, clauses };
}

/** The canonical predicate digest: what an adapter echoes to say which plan it executed. */
export function planDigest(sha256: Sha256, plan: AdmissionPlan): string {
  return `sha256:${sha256.hex(canonicalJson(plan))}`;
}

/**
 * A clause whose field and operand domains disagree, or null: a plan built here never has one, but a plan
 * is also what an adapter receives, and it is checked before it is lowered.
 */
export function mistypedClause(plan: AdmissionPlan): PlanClause | null {
  for (const clause of plan.clauses) {
    if (!('field' in clause)) continue;
    const expected = FIELD_DOMAIN[clause.field];
    if ('value' in clause && clause.value.domain !== expected) return clause;
    if ('set' in clause && clause.set.domain !== expected) return clause;
    if ('groups' in clause && clause.groups.some((group) => group.domain !== expected)) return clause;
  }
  return null;
}
