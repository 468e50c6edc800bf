import { err, ok, type CompileError, type Result } from '../../core/errors';
import type { AdmissionPlan, ListField, PlanClause, ScalarField } from '../../core/phases/4-admit/admission-plan';

/** The plan as one parameterised statement: its text (no value is ever spliced in) and its values. */
export interface PostgresStatement {
  readonly text: string;
  readonly values: readonly unknown[];
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

const LIST: Readonly<Record<ListField, { readonly table: string; readonly member: string }>> = {
  roles: { table: 'record_roles', member: 'role' },
  purposes: { table: 'record_purposes', member: 'purpose' },
  labels: { table: 'record_labels', member: 'label' },
};

/** Every comparison is made in the "C" collation, whatever the database's default: code points, nothing folded. */
const C = 'COLLATE "C"';

interface Lowering {
  readonly schema: string;
  readonly clauses: string[];
  readonly values: unknown[];
  readonly ctes: string[];
}

function bind(into: Lowering, value: unknown, type: string): string {
  into.values.push(value);
  return `$${into.values.length}::${type}`;
}

function lowerClause(clause: PlanClause, into: Lowering): boolean {
  const add = (sql: string) => into.clauses.push(sql);
  switch (clause.op) {
    case 'equals':
      add(`${COLUMN[clause.field]} ${C} = ${bind(into, clause.value.value, 'text')}`);
      return true;
    case 'member-of':
      add(`${COLUMN[clause.field]} ${C} = ANY (${bind(into, clause.set.values, 'text[]')})`);
      return true;
    case 'not-member-of':
      add(`NOT (${COLUMN[clause.field]} ${C} = ANY (${bind(into, clause.set.values, 'text[]')}))`);
      return true;
    case 'list-contains': {
      const list = LIST[clause.field];
      add(`EXISTS (SELECT 1 FROM ${into.schema}.${list.table} x WHERE x.record_id = r.id AND x.${list.member} ${C} = ${bind(into, clause.value.value, 'text')})`);
      return true;
    }
    case 'list-disjoint': {
      const list = LIST[clause.field];
      add(`NOT EXISTS (SELECT 1 FROM ${into.schema}.${list.table} x WHERE x.record_id = r.id AND x.${list.member} ${C} = ANY (${bind(into, clause.set.values, 'text[]')}))`);
      return true;
    }
    case 'every-group-meets-list': {
      const list = LIST[clause.field];
      const groups = bind(into, JSON.stringify(clause.groups.map((group) => group.values)), 'jsonb');
      // No principal of the chain may hold none of the roles the record allows (a principal with no roles holds none).
      add(`NOT EXISTS (SELECT 1 FROM jsonb_array_elements(${groups}) g(members) WHERE NOT EXISTS (
      SELECT 1 FROM ${into.schema}.${list.table} x WHERE x.record_id = r.id AND x.${list.member} ${C} IN (SELECT jsonb_array_elements_text(g.members))))`);
      return true;
    }
    case 'subject-resolves': {
      const pairs = clause.directory.flatMap(({ name, identities }) => identities.map((identity) => [name, identity]));
      into.ctes.push(`directory AS MATERIALIZED (SELECT (d->>0) COLLATE "C" AS name, (d->>1) COLLATE "C" AS identity FROM jsonb_array_elements(${bind(into, JSON.stringify(pairs), 'jsonb')}) d)`);
      if (clause.subject === null) {
        add('r.subject IS NULL OR (SELECT count(DISTINCT n.identity) FROM directory n WHERE n.name = r.subject) <= 1');
      } else {
        const subject = bind(into, clause.subject.value, 'text');
        add(`r.subject IS NULL OR CASE WHEN EXISTS (SELECT 1 FROM directory n WHERE n.name = r.subject)
        THEN (SELECT count(DISTINCT n.identity) FROM directory n WHERE n.name = r.subject) = 1
             AND EXISTS (SELECT 1 FROM directory n WHERE n.name = r.subject AND n.identity = ${subject})
        ELSE r.subject ${C} = ${subject} END`);
      }
      return true;
    }
    case 'in-force-at': {
      const at = bind(into, clause.at.epochMs, 'bigint');
      add(`r.known_at <= ${at} AND r.valid_from <= ${at} AND (r.valid_to IS NULL OR r.valid_to >= ${at})`);
      return true;
    }
    case 'not-superseded-at': {
      const at = bind(into, clause.at.epochMs, 'bigint');
      add(`NOT EXISTS (SELECT 1 FROM ${into.schema}.supersessions sup JOIN ${into.schema}.records y ON y.id = sup.successor
       WHERE sup.target = r.id AND y.lifecycle = 'active' AND y.known_at <= ${at} AND y.valid_from <= ${at})`);
      return true;
    }
    case 'provenance-verified':
      add('r.provenance_ok');
      return true;
    case 'required-or-accepted-evidence': {
      const required = bind(into, clause.required.values, 'text[]');
      const accepted = bind(into, JSON.stringify(clause.accepted.flatMap(({ proposition, classes }) => classes.values.map((cls) => [proposition, cls]))), 'jsonb');
      add(`r.id ${C} = ANY (${required}) OR EXISTS (SELECT 1 FROM ${into.schema}.record_claims c JOIN jsonb_array_elements(${accepted}) a ON a->>0 = c.proposition ${C}
         WHERE c.record_id = r.id AND a->>1 = r.evidence_class ${C})`);
      return true;
    }
    default:
      return false;
  }
}

/**
 * One statement per plan. Its first value is the plan's digest, which every row echoes; every row also
 * carries the number of admitted records, so an answer cut short is known to be (`incomplete`). With no
 * record admitted there is still one row, with a null id.
 */
export function lowerPlan(plan: AdmissionPlan, digest: string, schema: string): Result<PostgresStatement, CompileError> {
  const into: Lowering = { schema, clauses: [], values: [digest], ctes: [] };
  for (const clause of plan.clauses) {
    if (!lowerClause(clause, into)) {
      return err({
        pass: 'admit',
        code: 'LOWERING_UNSUPPORTED',
        message: `The PostgreSQL lowering has no form for the operator ${String((clause as { op: unknown }).op)}. Refusing rather than dropping a gate.`,
      });
    }
  }
  const where = into.clauses.length === 0 ? 'true' : into.clauses.map((clause) => `(${clause})`).join('\n  AND ');
  const ctes = [...into.ctes, `admitted AS MATERIALIZED (SELECT r.id FROM ${schema}.records r WHERE ${where})`, 'counted AS (SELECT count(*) AS total FROM admitted)'];
  const text = `WITH ${ctes.join(',\n')}
SELECT $1::text AS digest, counted.total::bigint AS total, admitted.id FROM counted LEFT JOIN admitted ON true`;
  return ok({ text, values: into.values });
}
