import { compileError, err, ok, type CompileError, type Result } from '../../errors';
import type { ReceiptAdmission } from '../../result';
import { mistypedClause, PLAN_OPERATORS, type AdmissionPlan, type PlanOperator } from './admission-plan';

/**
 * The gate semantics a store may or may not preserve. Each is a way two stores can parse the same plan
 * and return different sets; an adapter claims one only if its lowering keeps it exactly.
 */
export const CAPABILITIES = {
  'binary-collation':
    'strings are equal, and members of a set, only when their code points are: no case folding, locale or accent rules',
  'no-normalisation': 'strings are compared as given: an NFC and an NFD spelling of one word are different values',
  'utc-millisecond-instants':
    'instants are compared as whole UTC milliseconds, boundaries inclusive, with no time-zone conversion or rounding',
  'empty-lists':
    'an empty list is a list with no members, not a missing field: an empty deny or forbidden set ' +
    'excludes nothing, an empty allowed set admits nothing, a record with no labels carries none',
  'null-subjects':
    'a record without a subject is about no identity and passes the identity gate; it is never compared ' +
    'as the text "null"',
} as const;

export type Capability = keyof typeof CAPABILITIES;

export const ALL_CAPABILITIES = Object.keys(CAPABILITIES) as Capability[];

/** Who admitted: named in the CLI output and, name and adapter version, in the receipt. */
export interface AdapterIdentity {
  /** A stable name: `sqlite`, `postgresql`. */
  readonly name: string;
  /** The adapter's own version: changes whenever its lowering changes what it sends. */
  readonly adapterVersion: string;
  /** The adapter's own version and the store's, e.g. `1 (PostgreSQL 15.8)`. */
  readonly version: string;
  readonly capabilities: ReadonlySet<Capability>;
  readonly operators: ReadonlySet<PlanOperator>;
}

/**
 * What an adapter returns for one plan. `complete` only when every candidate of the store's answer is
 * here; a timeout, a dropped connection or a result cut short is `incomplete`, and then `candidates`
 * is never used (no packet is made from part of an answer, nor from unfiltered rows).
 */
export type AdmissionAnswer =
  | { readonly status: 'complete'; readonly candidates: ReadonlySet<string>; readonly predicateDigest: string }
  | { readonly status: 'incomplete'; readonly problem: string; readonly predicateDigest: string | null };

/**
 * A store seen only as far as admission (`Store` in src/core/store.ts is the whole of it): what the conformance suite
 * certifies, plan by plan.
 */
export interface AdmittingStore extends AdapterIdentity {
  /**
   * The store's candidates for a plan, echoing the digest of the plan it executed: complete, or incomplete and never
   * used.
   */
  admit(plan: AdmissionPlan, digest: string): Promise<Result<AdmissionAnswer, CompileError>>;
}

/**
 * Every plan needs all five: the gates compare names (collation, normalisation), instants (decision time)
 * and records' lists that may be empty, and records may have no subject. Written as a function of the plan
 * so that a plan kind that needs fewer can say so.
 */
export function requiredCapabilities(plan: AdmissionPlan): readonly Capability[] {
  return plan.clauses.length === 0 ? [] : ALL_CAPABILITIES;
}

/**
 * Refuses a plan the adapter cannot execute exactly: a capability it lacks, an operator it does not lower,
 * a clause whose operand is of the wrong type. Checked before anything is sent to the store.
 */
export function checkAdapterFor(plan: AdmissionPlan, adapter: AdapterIdentity): Result<void, CompileError> {
  const missing = requiredCapabilities(plan).filter((capability) => !adapter.capabilities.has(capability));
  if (missing.length > 0) {
    return err(
      compileError({ pass: 'admit', code: 'ADAPTER_INCAPABLE' }, 'ADAPTER_LACKS', {
        adapter: adapter.name,
        missing,
        why: missing.map((capability) => CAPABILITIES[capability]),
      }),
    );
  }
  const unknown = plan.clauses.find(
    (clause) => !PLAN_OPERATORS.includes(clause.op) || !adapter.operators.has(clause.op),
  );
  if (unknown !== undefined) {
    return err(
      compileError({ pass: 'admit', code: 'LOWERING_UNSUPPORTED' }, 'ADAPTER_CANNOT_LOWER', {
        adapter: adapter.name,
        op: String(unknown.op),
        gate: unknown.gate,
      }),
    );
  }
  const mistyped = mistypedClause(plan);
  if (mistyped !== null) {
    return err(
      compileError({ pass: 'admit', code: 'LOWERING_UNSUPPORTED' }, 'CLAUSE_MISTYPED', { gate: mistyped.gate }),
    );
  }
  return ok(undefined);
}

/** A complete answer to this plan: its candidates, and what the receipt records of who admitted them. */
export interface AcceptedAnswer {
  readonly candidates: ReadonlySet<string>;
  readonly admission: ReceiptAdmission;
}

/**
 * The candidates of a complete answer to this plan. An incomplete answer, or one that echoes the digest
 * of another plan (an old plan replayed, a cached statement), is refused: the candidates are never read.
 */
export function acceptAnswer(
  adapter: AdapterIdentity,
  digest: string,
  answer: AdmissionAnswer,
): Result<AcceptedAnswer, CompileError> {
  if (answer.status === 'incomplete') {
    return err(
      compileError({ pass: 'admit', code: 'ADAPTER_INCOMPLETE' }, 'ADAPTER_NO_ANSWER', {
        adapter: adapter.name,
        problem: answer.problem,
      }),
    );
  }
  if (answer.predicateDigest !== digest) {
    return err(
      compileError({ pass: 'admit', code: 'ADAPTER_MISMATCH' }, 'ADAPTER_OTHER_PLAN', {
        adapter: adapter.name,
        executed: answer.predicateDigest,
        expected: digest,
      }),
    );
  }
  return ok({
    candidates: answer.candidates,
    admission: { adapter: adapter.name, adapterVersion: adapter.adapterVersion, planDigest: answer.predicateDigest },
  });
}

/** The candidates a store admits for this plan, once the plan is checked against it and its answer is accepted. */
export async function candidatesFrom(
  store: AdmittingStore,
  plan: AdmissionPlan,
  digest: string,
): Promise<Result<AcceptedAnswer, CompileError>> {
  const fits = checkAdapterFor(plan, store);
  if (!fits.ok) return fits;
  const answer = await store.admit(plan, digest);
  return answer.ok ? acceptAnswer(store, digest, answer.value) : answer;
}
