import type { SqliteCompiler } from '../../adapters/sqlite/compiler';
import type { Audience } from '../../core/disclosure';
import { formatPath, type CompileError } from '../../core/errors';
import { coverageOf, type Coverage, type CoverageUniverse, type Exercised } from '../../core/expectations/coverage';
import type { CaseResult } from '../../core/expectations/run';
import type { LoadedSuite } from '../../core/expectations/suite';
import type { JsonPath } from '../../core/format/json-text';
import type { LoadedScenario } from '../../core/phases/1-validate/validate';
import { runSuiteOn, suiteEnvironment } from '../../lib/answers';
import { readSuite } from '../../lib/read-inputs';

/** One expectation that does not hold, as the Tests panel shows it. */
export interface MismatchView {
  /** `line 12: cases[1].expect.records.NOTE-0311.code`. */
  readonly place: string;
  readonly subject: string;
  readonly expected: string;
  readonly actual: string;
  /** The record to open in the inspector, when the view shows it. */
  readonly record: string | null;
  /** The contract field the expectation concerns (`evidence`, `selected`…), for the link to the contract. */
  readonly field: string;
}

export interface CaseView {
  readonly name: string;
  readonly passed: boolean;
  readonly mismatches: readonly MismatchView[];
  /** How many expectations the user view leaves unchecked (about a record it does not show, or the baselines). */
  readonly notChecked: number;
}

export interface SuiteView {
  readonly file: string;
  /** What its cases reached of what the inputs on screen offer (in the user view, of what that view shows). */
  readonly coverage: Coverage;
  readonly suite: string;
  readonly description: string;
  /** What the suite was written for, when that is not what is on screen; null when it is. */
  readonly inputsNote: string | null;
  /** Why no case ran (a control or late change the inputs on screen do not declare), else empty. */
  readonly problems: readonly string[];
  readonly cases: readonly CaseView[];
}

export interface TestsView {
  readonly suites: readonly SuiteView[];
  /** What every open suite's cases reached together; null while none ran. */
  readonly coverage: Coverage | null;
  readonly passed: number;
  readonly failed: number;
}

/** The inputs on screen: the scenario with the user's contract edit, the switches the user turned on, its id. */
export interface ScreenInputs {
  readonly scenario: LoadedScenario;
  readonly controls: readonly string[];
  readonly lateChanges: readonly string[];
  readonly audience: Audience;
}

function placeOf(loaded: LoadedSuite, path: JsonPath): string {
  const line = loaded.locator.lineOf(path);
  return `${line === undefined ? '' : `line ${line}: `}${formatPath(path)}`;
}

/** The part of the expectation a mismatch is about: `cases[0].expect.records.X` → `records`. */
function fieldOf(path: JsonPath): string {
  const at = path.indexOf('expect');
  return at < 0 ? 'outcome' : String(path[at + 1] ?? 'outcome');
}

function caseView(loaded: LoadedSuite, result: CaseResult): CaseView {
  return {
    name: result.name,
    passed: result.passed,
    mismatches: result.mismatches.map((mismatch) => ({
      place: placeOf(loaded, mismatch.path),
      subject: mismatch.subject,
      expected: mismatch.expected,
      actual: mismatch.actual,
      record: mismatch.record ?? null,
      field: fieldOf(mismatch.path),
    })),
    notChecked: result.notChecked.length,
  };
}

function inputsNoteOf(loaded: LoadedSuite, scenario: LoadedScenario): string | null {
  const { inputs } = loaded.suite;
  if (inputs.scenario !== undefined)
    return inputs.scenario === scenario.scenario.id
      ? null
      : `Written for the built-in scenario ${inputs.scenario}; run on the inputs on screen (${scenario.scenario.id}).`;
  const written = inputs.scenarioFile ?? `${inputs.records ?? ''} with ${inputs.contract ?? ''}`;
  return `Written for ${written}; run on the inputs on screen (${scenario.scenario.id}).`;
}

/** What the inputs on screen offer a suite to reach: their controls and late changes, the contract's propositions. */
/**
 * The suites the user opened, kept in the worker, and their runs on the inputs on screen: each case with the
 * user's switches and its own, so a case turns red or green as controls, files or the contract change.
 */
export function createExpectationRuns(compiler: SqliteCompiler) {
  // Each suite with the text it was read from: a link or an exported scenario carries the suite as its author wrote it.
  let opened: { readonly loaded: LoadedSuite; readonly text: string }[] = [];
  /** Keeps a suite already read (by file intake) and its text; one of the same file name is replaced. */
  const keep = (loaded: LoadedSuite, text: string): void => {
    opened = [...opened.filter((kept) => kept.loaded.file !== loaded.file), { loaded, text }];
  };

  const runOne = async (
    loaded: LoadedSuite,
    screen: ScreenInputs,
    universe: CoverageUniverse,
  ): Promise<{ view: SuiteView; exercised: readonly Exercised[] }> => {
    const base = {
      file: loaded.file,
      suite: loaded.suite.suite,
      description: loaded.suite.description,
      inputsNote: inputsNoteOf(loaded, screen.scenario),
    };
    const ran = await runSuiteOn(
      compiler,
      loaded,
      { scenario: screen.scenario },
      { audience: screen.audience, on: screen },
    );
    if (!ran.ok) {
      const problems = (ran.error.issues ?? []).map(
        (issue) => `${issue.line === undefined ? '' : `line ${issue.line}: `}${issue.path}: ${issue.message}`,
      );
      return { view: { ...base, coverage: coverageOf([], universe), problems, cases: [] }, exercised: [] };
    }
    const { result } = ran.value;
    const exercised = result.cases.map((entry) => entry.exercised);
    return {
      view: {
        ...base,
        coverage: coverageOf(exercised, universe),
        problems: [],
        cases: result.cases.map((entry) => caseView(loaded, entry)),
      },
      exercised,
    };
  };

  return {
    /**
     * Reads a suite and keeps it (one of the same file name is replaced); a bad suite is refused with file, line and
     * field.
     */
    open(file: string, text: string): CompileError | null {
      const parsed = readSuite(text, file);
      if (!parsed.ok) return parsed.error;
      keep(parsed.value, text);
      return null;
    },
    keep,
    close(file: string): void {
      opened = opened.filter((kept) => kept.loaded.file !== file);
    },
    clear(): void {
      opened = [];
    },
    files(): string[] {
      return opened.map((kept) => kept.loaded.file);
    },
    /** The open suites as files: their names and the texts they were read from. */
    documents(): { name: string; text: string }[] {
      return opened.map(({ loaded, text }) => ({ name: loaded.file, text }));
    },
    async run(screen: ScreenInputs): Promise<TestsView> {
      const { universe } = suiteEnvironment(compiler, { scenario: screen.scenario }, screen);
      const runs: { view: SuiteView; exercised: readonly Exercised[] }[] = [];
      // One suite after another, as the compiler answers them.
      for (const { loaded } of opened) runs.push(await runOne(loaded, screen, universe));
      const views = runs.map((entry) => entry.view);
      const cases = views.flatMap((view) => view.cases);
      const passed = cases.filter((entry) => entry.passed).length;
      const coverage =
        runs.length === 0
          ? null
          : coverageOf(
              runs.flatMap((entry) => entry.exercised),
              universe,
            );
      return {
        suites: views,
        coverage,
        passed,
        failed: cases.length - passed + views.filter((view) => view.problems.length > 0).length,
      };
    },
  };
}

export type ExpectationRuns = ReturnType<typeof createExpectationRuns>;
