import { compileError, err, ok, type CompileError, type Result } from '../../core/errors';
import type { AdmissionPlan, ListField, PlanClause, ScalarField } from '../../core/phases/4-admit/admission-plan';
import type { Database } from './schema';

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

/** A record's lists are text[] COLLATE "C" columns of the narrow table: '{}' when empty, never null. */
const LIST: Readonly<Record<ListField, string>> = {
  roles: 'r.roles',
  purposes: 'r.purposes',
  labels: 'r.labels',
};

/** Every comparison is made in the "C" collation, whatever the database's default: code points, nothing folded. */
const C = 'COLLATE "C"';

/**
 * What lowering a plan builds up: its values (each bound, never spliced), and the CTEs and joins its conditions read.
 */
export interface Lowering {
  readonly schema: string;
  readonly values: unknown[];
  readonly ctes: string[];
  /** Joins to the records row, each matching at most one row (a LEFT JOIN on a key), so no record is counted twice. */
  readonly joins: string[];
  /**
   * Set for an answer's statement, on one server or sent by a coordinator to each shard (shard-answer.ts): every
   * condition is then written with the row's own columns, bound values and built-in operators only, which
   * postgres_fdw sends to the shard and a parallel scan runs in each worker, never with a table expression or a
   * subquery; the ids some successor in force supersedes, which a shard cannot know of the others, are read
   * beforehand and given here.
   */
  readonly shippable?: { readonly superseded: readonly string[] };
}

export function bind(into: Lowering, value: unknown, type: string): string {
  into.values.push(value);
  return `$${into.values.length}::${type}`;
}

/**
 * The forms of a shard's statement for the clauses whose usual form reads a table expression: the same
 * conditions, with the directory and the accepted evidence unfolded here into bound lists. Null for the others.
 */
function shippableClause(clause: PlanClause, into: Lowering, superseded: readonly string[]): string | null {
  switch (clause.op) {
    case 'subject-resolves': {
      const subject = clause.subject?.value ?? null;
      const identities = new Map<string, Set<string>>();
      for (const { name, identities: named } of clause.directory)
        for (const identity of named) identities.set(name, (identities.get(name) ?? new Set()).add(identity));
      // A name passes when it means one identity, the task's own when the task has a subject.
      const passing = [...identities]
        .filter(([, named]) => named.size === 1 && (subject === null || named.has(subject)))
        .map(([name]) => name);
      const unknown = `NOT (r.subject ${C} = ANY (${bind(into, [...identities.keys()], 'text[]')}))`;
      const itself = subject === null ? 'true' : `r.subject ${C} = ${bind(into, subject, 'text')}`;
      return `r.subject IS NULL OR r.subject ${C} = ANY (${bind(into, passing, 'text[]')}) OR (${unknown} AND ${itself})`;
    }
    case 'not-superseded-at':
      return `NOT (r.id ${C} = ANY (${bind(into, superseded, 'text[]')}))`;
    case 'required-or-accepted-evidence': {
      const byClass = new Map<string, string[]>();
      for (const { proposition, classes } of clause.accepted)
        for (const cls of classes.values) byClass.set(cls, [...(byClass.get(cls) ?? []), proposition]);
      const accepted = [...byClass].map(
        ([cls, propositions]) =>
          `(r.evidence_class ${C} = ${bind(into, cls, 'text')} AND r.claims && ${bind(into, propositions, 'text[]')})`,
      );
      return `r.id ${C} = ANY (${bind(into, clause.required.values, 'text[]')}) OR ${accepted.length === 0 ? 'false' : accepted.join(' OR ')}`;
    }
    default:
      return null;
  }
}

/** The clause's condition on a row `r` of the narrow table, or null for an operator the lowering has no form for. */
export function lowerClause(clause: PlanClause, into: Lowering): string | null {
  const shipped = into.shippable === undefined ? null : shippableClause(clause, into, into.shippable.superseded);
  if (shipped !== null) return shipped;
  switch (clause.op) {
    case 'equals':
      return `${COLUMN[clause.field]} ${C} = ${bind(into, clause.value.value, 'text')}`;
    case 'member-of':
      return `${COLUMN[clause.field]} ${C} = ANY (${bind(into, clause.set.values, 'text[]')})`;
    case 'not-member-of':
      return `NOT (${COLUMN[clause.field]} ${C} = ANY (${bind(into, clause.set.values, 'text[]')}))`;
    case 'list-contains':
      return `${bind(into, clause.value.value, 'text')} = ANY (${LIST[clause.field]})`;
    case 'list-disjoint':
      // && of any array with '{}' is false: an empty set is disjoint from every list.
      return `NOT (${LIST[clause.field]} && ${bind(into, clause.set.values, 'text[]')})`;
    case 'every-group-meets-list':
      // One overlap per principal: a principal with no roles binds '{}', which overlaps nothing; no principal at all is
      // no condition.
      return clause.groups.length === 0
        ? 'true'
        : clause.groups.map((group) => `${LIST[clause.field]} && ${bind(into, group.values, 'text[]')}`).join(' AND ');
    case 'subject-resolves': {
      const pairs = clause.directory.flatMap(({ name, identities }) => identities.map((identity) => [name, identity]));
      const subject = clause.subject === null ? 'NULL::text' : bind(into, clause.subject.value, 'text');
      const directory = `directory_${into.ctes.length}`;
      // One row per name: how many identities it may mean, and whether one of them is the task's subject (any, when the
      // task has none).
      into.ctes
        .push(`${directory} AS MATERIALIZED (SELECT (d->>0) COLLATE "C" AS name, count(DISTINCT d->>1) AS identities,
        bool_or(${subject} IS NULL OR (d->>1) ${C} = ${subject}) AS matches FROM jsonb_array_elements(${bind(into, JSON.stringify(pairs), 'jsonb')}) d GROUP BY 1)`);
      const joined = `n${into.joins.length}`;
      into.joins.push(`LEFT JOIN ${directory} ${joined} ON ${joined}.name = r.subject`);
      // A subject the directory does not know stands for itself: one identity, the task's only when spelled the same.
      return `r.subject IS NULL OR CASE WHEN ${joined}.name IS NOT NULL THEN ${joined}.identities = 1 AND ${joined}.matches
        ELSE ${subject} IS NULL OR r.subject ${C} = ${subject} END`;
    }
    case 'in-force-at': {
      const at = bind(into, clause.at.epochMs, 'bigint');
      return `r.known_at <= ${at} AND r.valid_from <= ${at} AND (r.valid_to IS NULL OR r.valid_to >= ${at})`;
    }
    case 'not-superseded-at': {
      const at = bind(into, clause.at.epochMs, 'bigint');
      // The ids some successor in force names, found once from the few records that supersede anything.
      const name = `superseded_${into.ctes.length}`;
      into.ctes
        .push(`${name} AS MATERIALIZED (SELECT DISTINCT t.id COLLATE "C" AS id FROM ${into.schema}.records y CROSS JOIN LATERAL unnest(y.supersedes) AS t(id)
       WHERE cardinality(y.supersedes) > 0 AND y.lifecycle = 'active' AND y.known_at <= ${at} AND y.valid_from <= ${at})`);
      return `NOT EXISTS (SELECT 1 FROM ${name} s WHERE s.id = r.id)`;
    }
    case 'provenance-verified':
      return 'r.provenance_ok';
    case 'required-or-accepted-evidence': {
      const required = bind(into, clause.required.values, 'text[]');
      const accepted = bind(
        into,
        JSON.stringify(
          clause.accepted.flatMap(({ proposition, classes }) => classes.values.map((cls) => [proposition, cls])),
        ),
        'jsonb',
      );
      return `r.id ${C} = ANY (${required}) OR EXISTS (SELECT 1 FROM jsonb_array_elements(${accepted}) a
         WHERE (a->>0) ${C} = ANY (r.claims) AND (a->>1) ${C} = r.evidence_class)`;
    }
    default:
      return null;
  }
}

/**
 * One statement per plan. Its first value is the plan's digest, which every row echoes; every row also
 * carries the number of admitted records, so an answer cut short is known to be (`incomplete`). With no
 * record admitted there is still one row, with a null id.
 */
export function lowerPlan(
  plan: AdmissionPlan,
  digest: string,
  schema: string,
): Result<PostgresStatement, CompileError> {
  const into: Lowering = { schema, values: [digest], ctes: [], joins: [] };
  const conditions = lowerConditions(plan, into);
  if (!conditions.ok) return conditions;
  const where =
    conditions.value.length === 0 ? 'true' : conditions.value.map((condition) => `(${condition})`).join('\n  AND ');
  const ctes = [
    ...into.ctes,
    `admitted AS MATERIALIZED (SELECT r.id FROM ${schema}.records r ${into.joins.join(' ')} WHERE ${where})`,
    'counted AS (SELECT count(*) AS total FROM admitted)',
  ];
  const text = `WITH ${ctes.join(',\n')}
SELECT $1::text AS digest, counted.total::bigint AS total, admitted.id FROM counted LEFT JOIN admitted ON true`;
  return ok({ text, values: into.values });
}

/**
 * Each clause's condition, in the plan's order; an operator without a form fails the plan rather than dropping a gate.
 */
export function lowerConditions(plan: AdmissionPlan, into: Lowering): Result<string[], CompileError> {
  const conditions: string[] = [];
  for (const clause of plan.clauses) {
    const condition = lowerClause(clause, into);
    if (condition === null) {
      return err(
        compileError({ pass: 'admit', code: 'LOWERING_UNSUPPORTED' }, 'LOWERING_NO_FORM', {
          store: 'PostgreSQL',
          op: String((clause as { op: unknown }).op),
        }),
      );
    }
    conditions.push(condition);
  }
  return ok(conditions);
}

/**
 * A lowering for an answer's statement (`shippable`): the plan digest is its first value, and `superseded` the ids
 * `supersededAt` read for it.
 */
export const answerLowering = (schema: string, digest: string, superseded: readonly string[]): Lowering => ({
  schema,
  values: [digest],
  ctes: [],
  joins: [],
  shippable: { superseded },
});

/** The statement giving the ids some successor in force at `$1` supersedes, through the index of the successors. */
export const supersededStatement = (schema: string) =>
  `SELECT DISTINCT t.id FROM ${schema}.records y CROSS JOIN LATERAL unnest(y.supersedes) AS t(id)
   WHERE cardinality(y.supersedes) > 0 AND y.lifecycle = 'active' AND y.known_at <= $1 AND y.valid_from <= $1`;

/**
 * The ids some successor in force at the plan's decision time supersedes, few rows: read before admission, so its
 * statement holds them as a bound set (`shippable`). Through a coordinator they are read from every shard (a successor
 * may live on another).
 */
export async function supersededAt(client: Database, plan: AdmissionPlan): Promise<string[]> {
  const clause = plan.clauses.find((item) => item.op === 'not-superseded-at');
  if (clause?.op !== 'not-superseded-at') return [];
  const { rows } = await client.query<{ id: string }>(supersededStatement(client.schema), [clause.at.epochMs]);
  return rows.map((row) => row.id);
}
