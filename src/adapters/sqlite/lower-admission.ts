import { compileError, err, ok, type CompileError, type Result } from '../../core/errors';
import type { AdmissionPlan, ListField, PlanClause, ScalarField } from '../../core/phases/4-admit/admission-plan';
import type { SqlValue } from './driver';

/**
 * The admission plan as SQL over `records r`, plus the rows of the per-predicate temp tables (identity
 * directory, accepted evidence, each principal's roles). The list gates are decided once per distinct list
 * (`r.roles IN (SELECT list …)`: SQLite evaluates an uncorrelated subquery once, a correlated EXISTS per record). Lists
 * are bound as one JSON array each, so a
 * plan's sets may be as long as they like without running out of bound parameters.
 */
export interface LoweredAdmission {
  /** The digest of the plan this was lowered from: what the adapter echoes. */
  readonly digest: string;
  readonly where: string;
  readonly params: readonly SqlValue[];
  readonly identityNames: readonly (readonly [string, string])[];
  readonly acceptedEvidence: readonly (readonly [string, string])[];
  /** The principals' positions in the chain, and (position, role) for every role of every principal. */
  readonly principals: readonly number[];
  readonly principalRoles: readonly (readonly [number, string])[];
}

const COLUMN: Readonly<Record<ScalarField, string>> = {
  id: 'r.id',
  project: 'r.project',
  scope: 'r.scope',
  lifecycle: 'r.lifecycle',
  sourceClass: 'r.source_class',
  authorityClass: 'r.authority_class',
  reviewState: 'r.review_state',
  sensitivity: 'r.sensitivity',
};

/** A record's list column (a list number) and the table and column holding its members. */
const LIST: Readonly<Record<ListField, { readonly column: string; readonly table: string; readonly member: string }>> =
  {
    roles: { column: 'r.roles', table: 'role_lists', member: 'role' },
    purposes: { column: 'r.purposes', table: 'purpose_lists', member: 'purpose' },
    labels: { column: 'r.labels', table: 'label_lists', member: 'label' },
  };

interface Lowering {
  readonly clauses: string[];
  readonly params: SqlValue[];
  readonly identityNames: [string, string][];
  readonly acceptedEvidence: [string, string][];
  readonly principals: number[];
  readonly principalRoles: [number, string][];
}

/** One clause into `into`; false when its operator is not one this lowering knows (the plan then fails). */
function lowerClause(clause: PlanClause, into: Lowering): boolean {
  const add = (sql: string, values: readonly SqlValue[] = []) => {
    into.clauses.push(sql);
    for (const value of values) into.params.push(value);
  };
  switch (clause.op) {
    case 'equals':
      add(`${COLUMN[clause.field]} = ?`, [clause.value.value]);
      return true;
    case 'member-of':
      add(`${COLUMN[clause.field]} IN (SELECT value FROM json_each(?))`, [JSON.stringify(clause.set.values)]);
      return true;
    case 'not-member-of':
      if (clause.set.values.length > 0)
        add(`${COLUMN[clause.field]} NOT IN (SELECT value FROM json_each(?))`, [JSON.stringify(clause.set.values)]);
      return true;
    case 'list-contains': {
      const list = LIST[clause.field];
      add(`${list.column} IN (SELECT x.list FROM ${list.table} x WHERE x.${list.member} = ?)`, [clause.value.value]);
      return true;
    }
    case 'list-disjoint': {
      const list = LIST[clause.field];
      if (clause.set.values.length > 0)
        add(
          `${list.column} NOT IN (SELECT x.list FROM ${list.table} x WHERE x.${list.member} IN (SELECT value ` +
            `FROM json_each(?)))`,
          [JSON.stringify(clause.set.values)],
        );
      return true;
    }
    case 'every-group-meets-list': {
      const list = LIST[clause.field];
      clause.groups.forEach((group, position) => {
        into.principals.push(position);
        for (const role of group.values) into.principalRoles.push([position, role]);
      });
      // No principal of the chain may lack every role the record allows. Decided once per distinct list (a
      // list no record row holds costs nothing; the empty list holds no row and fails while any principal
      // exists, as it would per record).
      add(`NOT EXISTS (SELECT 1 FROM principals) OR ${list.column} IN (SELECT l.list FROM (SELECT DISTINCT list FROM ${list.table}) l
    WHERE NOT EXISTS (SELECT 1 FROM principals p WHERE NOT EXISTS (
      SELECT 1 FROM ${list.table} x JOIN principal_roles pr ON pr.role = x.${list.member} WHERE x.list = l.list AND pr.principal = p.principal)))`);
      return true;
    }
    case 'subject-resolves':
      for (const { name, identities } of clause.directory)
        for (const identity of identities) into.identityNames.push([name, identity]);
      if (clause.subject === null) {
        add(
          '(r.subject IS NULL OR (SELECT COUNT(DISTINCT n.identity) FROM identity_names n WHERE n.name = ' +
            'r.subject) <= 1)',
        );
      } else {
        add(
          `(r.subject IS NULL OR CASE WHEN EXISTS (SELECT 1 FROM identity_names n WHERE n.name = r.subject)
        THEN (SELECT COUNT(DISTINCT n.identity) FROM identity_names n WHERE n.name = r.subject) = 1
             AND EXISTS (SELECT 1 FROM identity_names n WHERE n.name = r.subject AND n.identity = ?)
        ELSE r.subject = ? END)`,
          [clause.subject.value, clause.subject.value],
        );
      }
      return true;
    case 'in-force-at': {
      const at = clause.at.epochMs;
      add('r.known_at <= ? AND r.valid_from <= ? AND (r.valid_to IS NULL OR r.valid_to >= ?)', [at, at, at]);
      return true;
    }
    case 'not-superseded-at':
      add(
        `NOT EXISTS (SELECT 1 FROM supersessions s JOIN records y ON y.id = s.successor
       WHERE s.target = r.id AND y.lifecycle = 'active' AND y.known_at <= ? AND y.valid_from <= ?)`,
        [clause.at.epochMs, clause.at.epochMs],
      );
      return true;
    case 'provenance-verified':
      add('r.provenance_ok = 1');
      return true;
    case 'required-or-accepted-evidence':
      for (const { proposition, classes } of clause.accepted)
        for (const cls of classes.values) into.acceptedEvidence.push([proposition, cls]);
      add(
        `r.id IN (SELECT value FROM json_each(?)) OR EXISTS (SELECT 1 FROM record_claims c JOIN accepted_evidence a ON a.proposition = c.proposition
         WHERE c.record_rowid = r.rowid AND a.class = r.evidence_class)`,
        [JSON.stringify(clause.required.values)],
      );
      return true;
    default:
      return false;
  }
}

/**
 * Lowers every clause of the plan into one parameterised WHERE (values are always bound, never spliced).
 * If a clause cannot be expressed exactly, it refuses; it never emits a weaker filter.
 */
export function lowerAdmission(
  plan: AdmissionPlan,
  digest: string,
  maxParameters: number,
): Result<LoweredAdmission, CompileError> {
  const into: Lowering = {
    clauses: [],
    params: [],
    identityNames: [],
    acceptedEvidence: [],
    principals: [],
    principalRoles: [],
  };
  for (const clause of plan.clauses) {
    if (!lowerClause(clause, into)) {
      return err(
        compileError({ pass: 'admit', code: 'LOWERING_UNSUPPORTED' }, 'LOWERING_NO_FORM', {
          store: 'SQLite',
          op: String((clause as { op: unknown }).op),
        }),
      );
    }
  }
  if (into.params.length > maxParameters) {
    return err(
      compileError({ pass: 'admit', code: 'LOWERING_UNSUPPORTED' }, 'LOWERING_TOO_MANY_VALUES', {
        needed: into.params.length,
        allowed: maxParameters,
      }),
    );
  }
  const where = into.clauses.length === 0 ? '1' : into.clauses.map((clause) => `(${clause})`).join('\n  AND ');
  const { params, identityNames, acceptedEvidence, principals, principalRoles } = into;
  return ok({ digest, where, params, identityNames, acceptedEvidence, principals, principalRoles });
}
