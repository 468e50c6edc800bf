import type { BaselineSource, Compiler, CompileRequest } from '../compile';
import { drill } from '../drill';
import type { CompileError, Result } from '../errors';
import type { JsonPath } from '../format/json-text';
import type { Audience } from '../disclosure';
import { exercisedBy, type CoverageUniverse, type Exercised } from './coverage';
import { mismatchesOf, type Mismatch, type Observed } from './check';
import { variantName, variantsOf, type CaseVariant, type LoadedSuite } from './suite';
import { expectationForUser, linkForUser, observedForUser, visibleIds } from './for-user';

export interface SwitchSelection {
  readonly controls: readonly string[];
  readonly lateChanges: readonly string[];
}

/**
 * What a suite runs on, supplied by the caller (the CLI reads files; the app has them in its worker): the
 * compiler the CLI compiles with, and the suite's inputs with some switches applied.
 */
export interface SuiteEnvironment {
  readonly compiler: Compiler & BaselineSource;
  readonly prepare: (selection: SwitchSelection) => Result<CompileRequest, CompileError>;
  /** What the inputs offer to be reached, for coverage; absent where no one asks for coverage. */
  readonly universe?: CoverageUniverse;
}

export interface CaseResult {
  /** `name`, or `name [controls a, b]` for one row of a matrix. */
  readonly name: string;
  readonly caseName: string;
  /** The matrix row's label, null for a case without a matrix. */
  readonly variant: string | null;
  readonly controls: readonly string[];
  readonly lateChanges: readonly string[];
  /** Where the case (or its matrix row) is written in the suite file. */
  readonly path: JsonPath;
  /** True for a skipped case too: it has no mismatch. */
  readonly passed: boolean;
  /** Why the case was not run (`skip`, or another case's `only`), or null when it ran. */
  readonly skipped: string | null;
  readonly mismatches: readonly Mismatch[];
  /**
   * The user view only: where the expectations it cannot check are written (about a record it does not show, or the
   * baselines).
   */
  readonly notChecked: readonly JsonPath[];
  /** What the run reached, for coverage (in the user view, only what that view shows). */
  readonly exercised: Exercised;
}

export interface SuiteResult {
  readonly file: string;
  readonly suite: string;
  readonly cases: readonly CaseResult[];
}

/**
 * Which runs to make: every one unless the caller filters (`--filter`). `name` is the run's, `case [controls a]` for a
 * matrix row.
 */
export type CaseFilter = (suite: string, variant: CaseVariant, name: string) => boolean;

async function observe(variant: CaseVariant, env: SuiteEnvironment): Promise<Observed> {
  const { compiler } = env;
  const { expect } = variant.entry;
  const request = env.prepare(variant.selection);
  if (!request.ok) return { compiled: request, baselines: null, drill: null };
  const compiled = await compiler.compile(request.value);
  if (!compiled.ok) return { compiled, baselines: null, drill: null };
  const outcome = compiled.value;
  // The baselines rank the whole corpus: computed only for a case that asks about them.
  const baselines =
    expect.naive !== undefined || expect.postFilter !== undefined ? compiler.baselines(request.value, outcome) : null;
  if (expect.drill === undefined) return { compiled, baselines, drill: null };
  // As `context-compiler drill` rehearses it: the case's receipt is frozen, the late changes declared and
  // applied to the current inputs, continuing is attempted, then the inputs are recompiled and it is attempted again.
  const declared = expect.drill.lateChanges;
  const current = env.prepare({
    controls: variant.selection.controls,
    lateChanges: [...new Set([...variant.selection.lateChanges, ...declared])],
  });
  if (!current.ok)
    return {
      compiled,
      baselines,
      drill: { notRun: `the late changes cannot be applied: ${current.error.code}: ${current.error.message}` },
    };
  const stale = await drill(compiler, {
    ...current.value,
    priorReceipt: outcome.receipt,
    declaredChanges: declared,
    declaredInputs: request.value,
  });
  const recompiled = await compiler.compile(current.value);
  if (!recompiled.ok) return { compiled, baselines, drill: { stale, resumed: null, recompileError: recompiled.error } };
  const resumed = await drill(compiler, {
    ...current.value,
    priorReceipt: recompiled.value.receipt,
    declaredChanges: declared,
  });
  return { compiled, baselines, drill: { stale, resumed, recompileError: null } };
}

/** What one run of a case observed, as `audience` may see it: the user view's is what that view shows. */
export async function observedIn(variant: CaseVariant, env: SuiteEnvironment, audience: Audience): Promise<Observed> {
  const observed = await observe(variant, env);
  return audience === 'user' ? observedForUser(observed) : observed;
}

/**
 * Runs one case under one set of switches and compares every expectation with what the compiler did; in the
 * user view, with what that view shows (`user-view.ts`), so no result depends on a record it withholds.
 */
export async function runVariant(
  variant: CaseVariant,
  env: SuiteEnvironment,
  audience: Audience = 'diagnostic',
): Promise<CaseResult> {
  const at: JsonPath = ['cases', variant.caseIndex, 'expect'];
  const observed = await observe(variant, env);
  let mismatches: Mismatch[];
  let notChecked: readonly JsonPath[] = [];
  // The drill's late changes are switched on too, after the frozen receipt.
  const switches = {
    controls: variant.selection.controls,
    lateChanges: [...variant.selection.lateChanges, ...(variant.entry.expect.drill?.lateChanges ?? [])],
  };
  let exercised = exercisedBy(observed, switches);
  if (audience === 'user') {
    const shown = observedForUser(observed);
    exercised = exercisedBy(shown, switches);
    const visible = visibleIds(shown);
    const check = expectationForUser(variant.entry.expect, visible, at);
    notChecked = check.notChecked;
    mismatches = mismatchesOf(check.expect, shown, at).map((mismatch) => linkForUser(mismatch, visible));
  } else mismatches = mismatchesOf(variant.entry.expect, observed, at);
  return {
    name: variantName(variant),
    caseName: variant.entry.name,
    variant: variant.label,
    controls: variant.selection.controls,
    lateChanges: variant.selection.lateChanges,
    path: variant.path,
    passed: mismatches.length === 0,
    skipped: null,
    mismatches,
    notChecked,
    exercised,
  };
}

function skipReason(variant: CaseVariant, focused: boolean): string | null {
  const { skip, only } = variant.entry;
  if (skip !== undefined) return skip === true ? 'skip' : skip;
  return focused && only !== true ? 'another case of the suite is marked only' : null;
}

const NOTHING_EXERCISED: Exercised = { codes: [], gates: [], controls: [], lateChanges: [], propositions: [] };

function skippedResult(variant: CaseVariant, reason: string): CaseResult {
  const { controls, lateChanges } = variant.selection;
  return {
    name: variantName(variant),
    caseName: variant.entry.name,
    variant: variant.label,
    controls,
    lateChanges,
    path: variant.path,
    passed: true,
    skipped: reason,
    mismatches: [],
    notChecked: [],
    exercised: NOTHING_EXERCISED,
  };
}

/**
 * Runs every case of a suite (each matrix row on its own), in the order the file lists them. Deterministic: no clock,
 * no randomness.
 */
export async function runSuite(
  loaded: LoadedSuite,
  env: SuiteEnvironment,
  include: CaseFilter = () => true,
  audience: Audience = 'diagnostic',
): Promise<SuiteResult> {
  const { suite } = loaded;
  const focused = suite.cases.some((entry) => entry.only === true);
  const cases: CaseResult[] = [];
  // One case after another: they share the compiler, and its answers keep the file's order.
  for (const variant of variantsOf(suite).filter((each) => include(suite.suite, each, variantName(each)))) {
    const reason = skipReason(variant, focused);
    cases.push(reason === null ? await runVariant(variant, env, audience) : skippedResult(variant, reason));
  }
  return { file: loaded.file, suite: suite.suite, cases };
}
