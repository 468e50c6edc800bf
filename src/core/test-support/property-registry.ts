import fc from 'fast-check';
import { canonicalJson } from '../canonical';
import { createCompiler, type CompileRequest, type Compiler } from '../compile';
import type { Contract } from '../format/contract';
import type { SourceRecord } from '../format/record';
import { serialiseReceipt } from '../passes/attest';
import { createGateContext, evaluateGates } from '../passes/gates';
import { lowerResolved } from './builders';
import { resolve } from '../passes/resolve';
import { createRecordSet } from '../passes/validate';
import type { SqlDriver } from '../search/driver';
import { createRecordIndex } from '../search/record-index';
import { caseArbitrary } from './arbitraries';
import { noninterferenceArbitrary, noninterferenceDifferences } from './noninterference';

/**
 * The project's properties, in one registry: `npm test` runs each for its `testRuns` cases (the test files
 * beside the code), `npm run fuzz` runs any of them for millions (scripts/fuzz.ts). Adding a property is
 * one entry here. A property throws an Error on a counterexample, so it runs the same under Vitest and alone.
 */
export interface PropertyContext {
  /** A fresh in-memory database (the caller's SQLite build); each property opens what it needs, one index per database. */
  readonly openDatabase: () => Promise<SqlDriver>;
}

export interface RegisteredProperty {
  readonly name: string;
  readonly summary: string;
  /** Cases `npm test` runs. */
  readonly testRuns: number;
  readonly property: (context: PropertyContext) => Promise<fc.IRawProperty<unknown, boolean>>;
}

function same(actual: unknown, expected: unknown, what: string): void {
  const [a, b] = [canonicalJson(actual), canonicalJson(expected)];
  if (a !== b) throw new Error(`${what} differ:\n  got      ${a.slice(0, 2_000)}\n  expected ${b.slice(0, 2_000)}`);
}

/** The admitted set by the SQL lowering (through the record index, and as one full query) equals the TypeScript evaluator's. */
const admissionDifferential: RegisteredProperty = {
  name: 'admission-differential',
  summary: 'SQL lowering and TypeScript evaluator admit the same records',
  testRuns: 10_000,
  property: async ({ openDatabase }) => {
    const driver = await openDatabase();
    const index = createRecordIndex(driver);
    return fc.property(caseArbitrary, ({ records, contract }) => {
      const recordSet = createRecordSet(records);
      const resolution = resolve(contract, recordSet);
      // Broken supersession links are generated and resolve; the generators rule out an ambiguous contract subject.
      if (!resolution.ok) throw new Error(`generated case does not resolve: ${resolution.error.message}`);
      index.sync(recordSet);
      const lowered = lowerResolved(resolution.value, driver.maxParameters);
      if (!lowered.ok) throw new Error(lowered.error.message);
      // The index re-runs the predicate only over rows it changed since the last case; the full query checks that too.
      const sql = [...index.admit(lowered.value)].sort();
      const full = driver.all(`SELECT r.id FROM records r WHERE ${lowered.value.where}`, lowered.value.params).map(([id]) => String(id)).sort();
      const context = createGateContext(resolution.value.contract);
      // Every gate in TypeScript, supersession included.
      const evaluator = resolution.value.records
        .filter((item) => evaluateGates(context, item).failed === 0)
        .map((item) => item.checked.record.id)
        .sort();
      same(sql, evaluator, 'SQL (index) and evaluator admitted sets');
      same(full, evaluator, 'SQL (full query) and evaluator admitted sets');
    });
  },
};

type Step =
  | { readonly kind: 'replace-record' | 'append-record' | 'drop-record' | 'flip-lifecycle' | 'add-label'; readonly position: number }
  | { readonly kind: 'other-contract' | 'other-query' | 'other-budget' | 'other-as-of' | 'same-again' };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('replace-record' as const, 'append-record' as const, 'drop-record' as const, 'flip-lifecycle' as const, 'add-label' as const),
    position: fc.nat(20),
  }),
  fc.record({ kind: fc.constantFrom('other-contract' as const, 'other-query' as const, 'other-budget' as const, 'other-as-of' as const, 'same-again' as const) }),
);

export function applyStep(step: Step, contract: Contract, records: readonly SourceRecord[], other: { contract: Contract; records: readonly SourceRecord[] }) {
  switch (step.kind) {
    case 'replace-record': {
      // The other case numbers its records the same way (r0, r1, …), so this is a new version of the same id.
      const replacement = other.records[step.position % Math.max(other.records.length, 1)];
      if (replacement === undefined) return { contract, records };
      const at = records.findIndex((record) => record.id === replacement.id);
      return { contract, records: at < 0 ? records : records.map((record, index) => (index === at ? replacement : record)) };
    }
    case 'append-record': {
      const source = other.records[step.position % Math.max(other.records.length, 1)];
      if (source === undefined) return { contract, records };
      return { contract, records: [...records, { ...source, id: `${source.id}-copy-${records.length}`, supersedes: [] }] };
    }
    // Metadata-only changes, as most controls make: the supersession links and the text stay as they were.
    case 'flip-lifecycle':
      return { contract, records: patchAt(records, step.position, (record) => ({ ...record, lifecycle: record.lifecycle === 'active' ? 'draft' : 'active' })) };
    case 'add-label':
      return { contract, records: patchAt(records, step.position, (record) => ({ ...record, access: { ...record.access, labels: [...new Set([...record.access.labels, 'investigation'])] } })) };
    case 'drop-record':
      return { contract, records: records.filter((_, index) => index !== step.position % Math.max(records.length, 1)) };
    case 'other-contract':
      return { contract: other.contract, records };
    case 'other-query':
      return { contract: { ...contract, query: other.contract.query }, records };
    case 'other-budget':
      return { contract: { ...contract, tokenBudget: Math.max(1, Math.floor(contract.tokenBudget / 2)) }, records };
    case 'other-as-of':
      return { contract: { ...contract, asOf: other.contract.asOf === contract.asOf ? '2026-08-31' : other.contract.asOf }, records };
    case 'same-again':
      return { contract, records };
  }
}

function patchAt(records: readonly SourceRecord[], position: number, patch: (record: SourceRecord) => SourceRecord): readonly SourceRecord[] {
  const at = position % Math.max(records.length, 1);
  return records.map((record, index) => (index === at ? patch(record) : record));
}

/** Everything a compilation shows: the receipt bytes, the trace rows, the counts and the baselines; or the error. */
function observable(compiler: Compiler, request: CompileRequest): unknown {
  const result = compiler.compile(request);
  if (!result.ok) return { error: result.error };
  const { receipt, trace, counts, status, admitted } = result.value;
  return { status, receipt: serialiseReceipt(receipt), trace, counts, admitted: [...admitted].sort(), baselines: compiler.baselines(request, result.value) };
}

/** A compiler that reuses its previous work produces exactly what a fresh compiler on a fresh database produces, step after step. */
const incrementalEqualsFresh: RegisteredProperty = {
  name: 'incremental-equals-fresh',
  summary: 'an incremental compiler equals a fresh one after every change',
  // Each run compiles every step twice (kept compiler, fresh database): the fresh one is the slow part.
  testRuns: 60,
  property: async ({ openDatabase }) => {
    const kept = createCompiler(await openDatabase());
    return fc.asyncProperty(caseArbitrary, caseArbitrary, fc.array(stepArbitrary, { minLength: 1, maxLength: 6 }), async (first, other, steps) => {
      let contract = first.contract;
      let records: readonly SourceRecord[] = first.records;
      for (const step of [{ kind: 'same-again' } as const, ...steps]) {
        ({ contract, records } = applyStep(step, contract, records, other));
        const request = { contract, recordSet: createRecordSet(records) };
        const fresh = createCompiler(await openDatabase());
        same(observable(kept, request), observable(fresh, request), `kept and fresh compilations after ${step.kind}`);
      }
    });
  },
};

/** Nothing the caller may not see changes what the caller gets (src/core/test-support/noninterference.ts; npm test runs it in noninterference.test.ts). */
const noninterference: RegisteredProperty = {
  name: 'noninterference',
  summary: 'changing, adding or removing records that fail a gate changes nothing the caller gets',
  testRuns: 400,
  property: async ({ openDatabase }) => {
    const compiler = createCompiler(await openDatabase());
    return fc.property(noninterferenceArbitrary, (input) => {
      const differences = noninterferenceDifferences(compiler, input);
      fc.pre(differences !== null);
      if (differences.length > 0) throw new Error(`what the caller gets changed: ${differences.join('; ')}`);
    });
  },
};

export const PROPERTIES: readonly RegisteredProperty[] = [admissionDifferential, incrementalEqualsFresh, noninterference];

export function propertyNamed(name: string): RegisteredProperty {
  const found = PROPERTIES.find((entry) => entry.name === name);
  if (!found) throw new Error(`no property "${name}"; registered: ${PROPERTIES.map((entry) => entry.name).join(', ')}`);
  return found;
}
