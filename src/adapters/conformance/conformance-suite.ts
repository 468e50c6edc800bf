import { sha256InNode } from '../../lib/node-sha256';
import type { CompileRequest } from '../../core/compile';
import { prepareCompile, type PreparedCompile } from '../../core/compile-stages';
import type { CompileError, Result } from '../../core/errors';
import { admit, createGateContext, evaluateGates, gateCodeOf } from '../../core/phases/4-admit/admit';
import { namingStoreOf } from '../../core/drill';
import { serialiseReceipt } from '../../core/phases/7-attest/attest';
import { createRecordSet, type RecordSet } from '../../core/phases/1-validate/validate';
import type { AdmissionPlan, PlanClause } from '../../core/phases/4-admit/admission-plan';
import { acceptAnswer, checkAdapterFor } from '../../core/phases/4-admit/adapter';
import type { AdmittingStore } from '../../core/phases/4-admit/adapter';
import type { CompileOutcome, Receipt } from '../../core/result';
import { brokenLinksCase, conformanceCases, type ConformanceCase } from './corpus';

/** An adapter as the suite drives it: a store to fill, the adapter over it, and the whole compile through it. */
export interface AdapterUnderTest {
  readonly name: string;
  /** Makes the store hold exactly these records. */
  load(recordSet: RecordSet): Promise<void>;
  adapter(): Promise<AdmittingStore>;
  compile(request: CompileRequest): Promise<Result<CompileOutcome, CompileError>>;
}

/** The compiler's reference: the built-in path's whole compile (SQLite in memory, checked by the evaluator). */
export type ReferenceCompile = (request: CompileRequest) => Promise<Result<CompileOutcome, CompileError>>;

export interface SuiteFinding {
  readonly section: 'capabilities' | 'conformance' | 'mutation' | 'errors';
  readonly adapter: string;
  readonly passed: boolean;
  readonly what: string;
}

/** The evaluator's verdict on every record: the admitted ids, and each excluded record's reason code. */
function referenceVerdicts(prepared: PreparedCompile): { admitted: Set<string>; codes: Map<string, string> } {
  const gates = createGateContext(prepared.resolution.contract);
  const admitted = new Set<string>();
  const codes = new Map<string, string>();
  for (const resolved of prepared.resolution.records) {
    const verdict = evaluateGates(gates, resolved);
    const id = resolved.checked.record.id;
    if (verdict.fact === null) admitted.add(id);
    else codes.set(id, gateCodeOf(verdict.fact));
  }
  return { admitted, codes };
}

/**
 * Admission through one adapter exactly as a compile does it: capabilities, the statement, the echo, then the
 * evaluator's recheck.
 */
export async function admitThrough(
  adapter: AdmittingStore,
  prepared: PreparedCompile,
): Promise<Result<ReadonlySet<string>, CompileError>> {
  const fits = checkAdapterFor(prepared.plan, adapter);
  if (!fits.ok) return fits;
  const answer = await adapter.admit(prepared.plan, prepared.digest);
  if (!answer.ok) return answer;
  const accepted = acceptAnswer(adapter, prepared.digest, answer.value);
  if (!accepted.ok) return accepted;
  const admission = admit(prepared.resolution, accepted.value.candidates);
  return admission.ok ? { ok: true, value: admission.value.admittedIds } : admission;
}

/**
 * `receipt` as it would read had `other`'s adapter admitted (name and version swapped, id recomputed): the
 * executed plan digest is kept, so two receipts compare equal this way only when they agree on everything
 * but which adapter they name.
 */
export function namingAdapterOf(receipt: Receipt, other: Receipt): Receipt {
  return namingStoreOf(sha256InNode, receipt, other.executedBy);
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const id of a) if (!b.has(id)) return false;
  return true;
}

/**
 * An adapter that runs another plan than it is given but echoes the digest it was given: what a faulty lowering looks
 * like from outside.
 */
function lyingAdapter(
  inner: AdmittingStore,
  rewrite: (plan: AdmissionPlan, digest: string) => { plan: AdmissionPlan; echo: string },
): AdmittingStore {
  return {
    name: inner.name,
    adapterVersion: inner.adapterVersion,
    version: inner.version,
    capabilities: inner.capabilities,
    operators: inner.operators,
    async admit(plan, digest) {
      const rewritten = rewrite(plan, digest);
      const answer = await inner.admit(rewritten.plan, rewritten.echo);
      if (!answer.ok) return answer;
      return answer.value.status === 'complete'
        ? { ok: true, value: { ...answer.value, predicateDigest: rewritten.echo } }
        : answer;
    },
  };
}

/** One value of a clause changed (a label altered), or null when the clause holds none. */
function altered(clause: PlanClause): PlanClause | null {
  const change = (value: string) => `${value}\u0301`;
  if ('set' in clause)
    return {
      ...clause,
      set: {
        ...clause.set,
        values:
          clause.set.values.length === 0
            ? ['hr']
            : [change(clause.set.values[0] as string), ...clause.set.values.slice(1)],
      },
    };
  if ('value' in clause) return { ...clause, value: { ...clause.value, value: change(clause.value.value) } };
  if (clause.op === 'in-force-at' || clause.op === 'not-superseded-at')
    return { ...clause, at: { ...clause.at, epochMs: clause.at.epochMs + 1 } };
  if (clause.op === 'every-group-meets-list')
    return {
      ...clause,
      groups: clause.groups.map((group, index) =>
        index === 0 ? { ...group, values: group.values.map(change) } : group,
      ),
    };
  if (clause.op === 'subject-resolves' && clause.subject !== null)
    return { ...clause, subject: { ...clause.subject, value: change(clause.subject.value) } };
  return null;
}

interface Mutant {
  readonly what: string;
  readonly rewrite: (plan: AdmissionPlan, digest: string) => { plan: AdmissionPlan; echo: string };
}

/**
 * Every mutant of this plan the suite must kill: each clause removed, each clause's value altered (a clause
 * with no value has no such mutant), and the previous case's plan replayed (honestly echoed, and not).
 */
function mutants(plan: AdmissionPlan, previous: PreparedCompile | null): Mutant[] {
  const out: Mutant[] = [];
  plan.clauses.forEach((clause, position) => {
    out.push({
      what: `clause ${position + 1} (${clause.gate} ${clause.op}) removed`,
      rewrite: (given, digest) => ({
        plan: { ...given, clauses: given.clauses.filter((_, index) => index !== position) },
        echo: digest,
      }),
    });
    const changed = altered(clause);
    if (changed !== null) {
      out.push({
        what: `clause ${position + 1} (${clause.gate} ${clause.op}) altered`,
        rewrite: (given, digest) => ({
          plan: { ...given, clauses: given.clauses.map((each, index) => (index === position ? changed : each)) },
          echo: digest,
        }),
      });
    }
  });
  if (previous !== null) {
    out.push({
      what: 'previous plan replayed (its own digest echoed)',
      rewrite: () => ({ plan: previous.plan, echo: previous.digest }),
    });
    out.push({
      what: 'previous plan replayed (the current digest echoed)',
      rewrite: (_, digest) => ({ plan: previous.plan, echo: digest }),
    });
  }
  return out;
}

/**
 * Runs every case through every adapter and the reference: identical admitted sets, reason codes and
 * receipts; then every mutant of every adapter over every case: a mutant whose answer differs from the
 * reference must be refused each time, and each mutant must be refused by some case (killed). A mutant
 * never makes a packet from an answer the reference disagrees with.
 */
export async function runConformanceSuite(
  adapters: readonly AdapterUnderTest[],
  reference: ReferenceCompile,
  options: { readonly combined?: number; readonly mutations?: boolean } = {},
): Promise<SuiteFinding[]> {
  const findings: SuiteFinding[] = [];
  const cases: ConformanceCase[] = [...conformanceCases(options.combined), brokenLinksCase()];
  for (const under of adapters) {
    const adapter = await under.adapter();
    const killed = new Map<string, number>();
    const tried = new Set<string>();
    let previous: PreparedCompile | null = null;
    const problems: string[] = [];
    for (const item of cases) {
      const request: CompileRequest = {
        contract: item.contract,
        recordSet: createRecordSet(sha256InNode, item.records),
      };
      const expected = await reference(request);
      await under.load(request.recordSet);
      const actual = await under.compile(request);
      const prepared = prepareCompile(sha256InNode, request);
      if (!prepared.ok) {
        // Refused before admission: every path must refuse it the same way.
        if (actual.ok || expected.ok || actual.error.code !== expected.error.code)
          problems.push(
            `${item.name}: expected the refusal ${expected.ok ? 'none' : expected.error.code}, got ` +
              `${actual.ok ? 'a compile' : actual.error.code}`,
          );
        continue;
      }
      const { admitted, codes } = referenceVerdicts(prepared.value);
      const through = await admitThrough(adapter, prepared.value);
      if (!through.ok) problems.push(`${item.name}: ${through.error.code} ${through.error.message}`);
      else if (!sameSet(through.value, admitted))
        problems.push(
          `${item.name}: admitted ${[...through.value].sort().join(',')} where the reference admits ` +
            `${[...admitted].sort().join(',')}`,
        );
      if (!actual.ok || !expected.ok)
        problems.push(
          `${item.name}: the compile failed ` +
            `(${actual.ok ? '' : actual.error.message}${expected.ok ? '' : expected.error.message})`,
        );
      else {
        const actualCodes = actual.value.receipt.trace
          .filter((row) => row.decision === 'excluded' && codes.has(row.id))
          .map((row) => `${row.id}:${row.code}`);
        const expectedCodes = expected.value.receipt.trace
          .filter((row) => row.decision === 'excluded' && codes.has(row.id))
          .map((row) => `${row.id}:${row.code}`);
        if (actualCodes.join() !== expectedCodes.join()) problems.push(`${item.name}: reason codes differ`);
        else if (
          serialiseReceipt(namingAdapterOf(actual.value.receipt, expected.value.receipt)) !==
          serialiseReceipt(expected.value.receipt)
        )
          problems.push(`${item.name}: the receipts differ`);
      }
      // A candidates compile is where a store that answers plans reads no refused record: the same receipt still.
      const answered: CompileRequest = { ...request, attestation: 'candidates' };
      const [expectedAnswer, actualAnswer] = [await reference(answered), await under.compile(answered)];
      if (!actualAnswer.ok || !expectedAnswer.ok) {
        if (
          actualAnswer.ok !== expectedAnswer.ok ||
          (!actualAnswer.ok && !expectedAnswer.ok && actualAnswer.error.code !== expectedAnswer.error.code)
        )
          problems.push(
            `${item.name}: the candidates compile ended ` +
              `${actualAnswer.ok ? 'with a receipt' : actualAnswer.error.code} where the reference's ` +
              `${expectedAnswer.ok ? 'has a receipt' : expectedAnswer.error.code}`,
          );
      } else if (
        serialiseReceipt(namingAdapterOf(actualAnswer.value.receipt, expectedAnswer.value.receipt)) !==
        serialiseReceipt(expectedAnswer.value.receipt)
      )
        problems.push(`${item.name}: the candidates receipts differ`);
      if (options.mutations !== false) {
        for (const mutant of mutants(prepared.value.plan, previous)) {
          tried.add(mutant.what);
          const result = await admitThrough(lyingAdapter(adapter, mutant.rewrite), prepared.value);
          if (!result.ok) killed.set(mutant.what, (killed.get(mutant.what) ?? 0) + 1);
          else if (!sameSet(result.value, admitted))
            problems.push(`${item.name}: mutant "${mutant.what}" was accepted with another admitted set`);
        }
      }
      previous = prepared.value;
    }
    findings.push({
      section: 'conformance',
      adapter: under.name,
      passed: problems.length === 0,
      what:
        problems.length === 0
          ? `${cases.length} cases: the same admitted sets, reason codes and receipts as the reference`
          : problems.join('\n'),
    });
    if (options.mutations !== false) {
      const names = [...tried];
      const survivors = names.filter((name) => (killed.get(name) ?? 0) === 0);
      findings.push({
        section: 'mutation',
        adapter: under.name,
        passed: survivors.length === 0,
        what:
          survivors.length === 0
            ? `all ${names.length} mutants refused (predicate removed, value altered, old plan replayed); none was ` +
              `ever accepted with another answer`
            : `not killed: ${survivors.join(', ')}`,
      });
    }
  }
  return findings;
}
