import { sha256 } from './sha256';
import fc from 'fast-check';
import type { KeyRules } from '../compile';
import { canonicalJson } from '../canonical';
import { createSqliteCompiler } from '../../adapters/sqlite/compiler';
import { createGateContext, evaluateGates } from '../phases/4-admit/admit';
import { lowerResolved } from './builders';
import { resolve } from '../phases/2-resolve/resolve';
import { createRecordSet } from '../phases/1-validate/validate';
import type { SqlDriver } from '../../adapters/sqlite/driver';
import { createRecordIndex } from '../../adapters/sqlite/record-index';
import { caseArbitrary } from './arbitraries';
import { memoProperty } from './change-steps';
import { forgeryProperty } from './forgery';
import { noninterferenceArbitrary, noninterferenceDifferences } from './noninterference';

/**
 * The project's properties, in one registry: `npm test` runs each for its `testRuns` cases (the test files
 * beside the code), `npm run fuzz` runs any of them for millions (scripts/fuzz.ts). Adding a property is
 * one entry here. A property throws an Error on a counterexample, so it runs the same under Vitest and alone.
 */
export interface PropertyContext {
  /**
   * A fresh in-memory database (the caller's SQLite build); each property opens what it needs, one index per database.
   */
  readonly openDatabase: () => Promise<SqlDriver>;
  /**
   * Memo keys with an input left out, for the test that shows the incremental property catches it; the compiler's own
   * unless given.
   */
  readonly keys?: KeyRules;
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

/**
 * The admitted set by the SQL lowering (through the record index, and as one full query) equals the TypeScript
 * evaluator's.
 */
const admissionDifferential: RegisteredProperty = {
  name: 'admission-differential',
  summary: 'SQL lowering and TypeScript evaluator admit the same records',
  testRuns: 10_000,
  property: async ({ openDatabase }) => {
    const driver = await openDatabase();
    const index = createRecordIndex(driver);
    return fc.property(caseArbitrary, ({ records, contract }) => {
      const recordSet = createRecordSet(sha256, records);
      const resolution = resolve(contract, recordSet);
      // Broken supersession links are generated and resolve; the generators rule out an ambiguous contract subject.
      if (!resolution.ok) throw new Error(`generated case does not resolve: ${resolution.error.message}`);
      index.sync(recordSet);
      const lowered = lowerResolved(resolution.value, driver.maxParameters);
      if (!lowered.ok) throw new Error(lowered.error.message);
      // The index re-runs the predicate only over rows it changed since the last case; the full query checks that too.
      const sql = [...index.admit(lowered.value)].sort();
      const full = driver
        .all(`SELECT r.id FROM records r WHERE ${lowered.value.where}`, lowered.value.params)
        .map(([id]) => String(id))
        .sort();
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

/**
 * A compiler that reuses its previous work produces exactly what a fresh compiler on a fresh database produces,
 * after every change applied through applyChanges to kept inputs, and reuses what the change left alone
 * (src/core/test-support/change-steps.ts).
 */
const incrementalEqualsFresh: RegisteredProperty = {
  name: 'incremental-equals-fresh',
  summary:
    'a kept compiler over kept inputs equals a fresh one after every change, and reuses what the change left alone',
  // Each run edits every contract and record field once (44 steps), compiling each step twice (kept compiler,
  // fresh database): the fresh one is the slow part.
  testRuns: 8,
  property: ({ openDatabase, keys }) => memoProperty(openDatabase, keys),
};

/**
 * Nothing the caller may not see changes what the caller gets (src/core/test-support/noninterference.ts; npm test runs
 * it in noninterference.test.ts).
 */
const noninterference: RegisteredProperty = {
  name: 'noninterference',
  summary: 'changing, adding or removing records that fail a gate changes nothing the caller gets',
  testRuns: 400,
  property: async ({ openDatabase }) => {
    const compiler = createSqliteCompiler(sha256, await openDatabase());
    return fc.asyncProperty(noninterferenceArbitrary, async (input) => {
      const differences = await noninterferenceDifferences(compiler, input);
      fc.pre(differences !== null);
      if (differences.length > 0) throw new Error(`what the caller gets changed: ${differences.join('; ')}`);
    });
  },
};

/**
 * The same for a `candidates` receipt, which counts the refused rows instead of listing them (npm test runs it in
 * noninterference.test.ts).
 */
const noninterferenceCandidates: RegisteredProperty = {
  name: 'noninterference-candidates',
  summary:
    'the same for a candidates receipt: only its counts of the rows it leaves out may move, and it names no refused record',
  testRuns: 200,
  property: async ({ openDatabase }) => {
    const compiler = createSqliteCompiler(sha256, await openDatabase());
    return fc.asyncProperty(noninterferenceArbitrary, async (input) => {
      const differences = await noninterferenceDifferences(compiler, input, 'candidates');
      fc.pre(differences !== null);
      if (differences.length > 0) throw new Error(`what the caller gets changed: ${differences.join('; ')}`);
    });
  },
};

/**
 * A forged row cannot pass for stale: a false claim about a record still at hand is RECEIPT_MISMATCH
 * (src/core/test-support/forgery.ts; npm test runs it in drill-claims.test.ts).
 */
const forgeryNeverStale: RegisteredProperty = {
  name: 'forgery-never-stale',
  summary:
    'a receipt with a false claim about a record still at hand is RECEIPT_MISMATCH, even beside another record set',
  testRuns: 150,
  property: async ({ openDatabase }) => forgeryProperty(createSqliteCompiler(sha256, await openDatabase())),
};

export const PROPERTIES: readonly RegisteredProperty[] = [
  admissionDifferential,
  incrementalEqualsFresh,
  noninterference,
  noninterferenceCandidates,
  forgeryNeverStale,
];

export function propertyNamed(name: string): RegisteredProperty {
  const found = PROPERTIES.find((entry) => entry.name === name);
  if (!found) throw new Error(`no property "${name}"; registered: ${PROPERTIES.map((entry) => entry.name).join(', ')}`);
  return found;
}
