import { err, ok, type CompileError, type Result } from '../errors';
import type { SqlValue } from '../search/driver';
import type { ResolvedContract } from './resolve';

/**
 * The admission predicate as SQL over `records r`, plus the rows of the per-predicate temp tables
 * (identity directory, accepted evidence, each principal's roles). Lists are bound as one JSON array
 * each, so a contract's lists may be as long as it likes without running out of bound parameters.
 */
export interface LoweredAdmission {
  readonly where: string;
  readonly params: readonly SqlValue[];
  readonly identityNames: readonly (readonly [string, string])[];
  readonly acceptedEvidence: readonly (readonly [string, string])[];
  /** (principal position in the chain, role) for every role of every principal. */
  readonly principalRoles: readonly (readonly [number, string])[];
}

/**
 * Lowers every legality gate into one parameterised WHERE (values are always bound, never spliced).
 * It is written from the contract alone, independently of the TypeScript evaluator that re-checks
 * each row. If a gate cannot be expressed exactly, it refuses; it never emits a weaker filter.
 */
export function lowerAdmission(resolved: ResolvedContract, maxParameters: number): Result<LoweredAdmission, CompileError> {
  const { contract, asOf, subject } = resolved;
  const clauses: string[] = [];
  const params: SqlValue[] = [];
  const add = (clause: string, values: readonly SqlValue[] = []) => {
    clauses.push(clause);
    for (const value of values) params.push(value);
  };
  const inList = (column: string, values: readonly string[]) => add(`${column} IN (SELECT value FROM json_each(?))`, [JSON.stringify(values)]);
  const notInList = (column: string, values: readonly string[]) => {
    if (values.length > 0) add(`${column} NOT IN (SELECT value FROM json_each(?))`, [JSON.stringify(values)]);
  };

  add('r.project = ?', [contract.project]);
  inList('r.scope', contract.scopes);
  if (subject === null) {
    add('(r.subject IS NULL OR (SELECT COUNT(DISTINCT n.identity) FROM identity_names n WHERE n.name = r.subject) <= 1)');
  } else {
    add(
      `(r.subject IS NULL OR CASE WHEN EXISTS (SELECT 1 FROM identity_names n WHERE n.name = r.subject)
        THEN (SELECT COUNT(DISTINCT n.identity) FROM identity_names n WHERE n.name = r.subject) = 1
             AND EXISTS (SELECT 1 FROM identity_names n WHERE n.name = r.subject AND n.identity = ?)
        ELSE r.subject = ? END)`,
      [subject, subject],
    );
  }
  add('r.known_at <= ? AND r.valid_from <= ? AND (r.valid_to IS NULL OR r.valid_to >= ?)', [asOf, asOf, asOf]);
  add(
    `NOT EXISTS (SELECT 1 FROM supersessions s JOIN records y ON y.id = s.successor
       WHERE s.target = r.id AND y.lifecycle = 'active' AND y.known_at <= ? AND y.valid_from <= ?)`,
    [asOf, asOf],
  );
  notInList('r.lifecycle', contract.forbiddenLifecycle);
  inList('r.source_class', contract.allowedSourceClasses);
  inList('r.authority_class', contract.allowedAuthorityClasses);
  inList('r.review_state', contract.acceptedReviewStates);
  add('r.provenance_ok = 1');
  notInList('r.sensitivity', contract.forbiddenSensitivity);
  // No principal of the chain may lack every role the record allows.
  add(`NOT EXISTS (SELECT 1 FROM principals p WHERE NOT EXISTS (
    SELECT 1 FROM role_lists x JOIN principal_roles pr ON pr.role = x.role WHERE x.list = r.roles AND pr.principal = p.principal))`);
  add('EXISTS (SELECT 1 FROM purpose_lists x WHERE x.list = r.purposes AND x.purpose = ?)', [contract.purpose]);
  if (contract.denyLabels.length > 0) {
    add('NOT EXISTS (SELECT 1 FROM label_lists x WHERE x.list = r.labels AND x.label IN (SELECT value FROM json_each(?)))', [JSON.stringify(contract.denyLabels)]);
  }
  if (contract.typedEvidenceOnly) {
    add(
      `r.id IN (SELECT value FROM json_each(?)) OR EXISTS (SELECT 1 FROM record_claims c JOIN accepted_evidence a ON a.proposition = c.proposition
         WHERE c.record_rowid = r.rowid AND a.class = r.evidence_class)`,
      [JSON.stringify(contract.requiredRecords)],
    );
  }

  if (params.length > maxParameters) {
    return err({
      pass: 'admit',
      code: 'LOWERING_UNSUPPORTED',
      message: `The contract needs ${params.length} bound values; this SQLite build allows ${maxParameters}. Refusing rather than dropping a gate.`,
    });
  }

  const identityNames: [string, string][] = [];
  for (const [name, identities] of resolved.identityNames) for (const identity of identities) identityNames.push([name, identity]);
  const acceptedEvidence: [string, string][] = [];
  for (const proposition of contract.requiredPropositions) for (const cls of proposition.acceptedClasses) acceptedEvidence.push([proposition.id, cls]);
  const principalRoles: [number, string][] = [];
  contract.principals.forEach((principal, position) => {
    for (const role of principal.roles) principalRoles.push([position, role]);
  });

  return ok({ where: clauses.map((clause) => `(${clause})`).join('\n  AND '), params, identityNames, acceptedEvidence, principalRoles });
}
