import { err, formatPath, ok, type CompileError, type InputIssue, type Result } from '../errors';
import {
  expectationSuiteSchema,
  type ControlSet,
  type ExpectationCase,
  type ExpectationSuite,
} from '../format/expectation';
import { invalidInput, jsonTextIssue, zodInputIssues } from '../format/input-issues';
import { reservedKeyPaths } from '../format/scenario';
import { createJsonLocator, parseJsonText, quoteValue, type JsonLocator, type JsonPath } from '../format/json-text';
import { inputIssue } from '../issues';

/** A suite as read from its file: the locator maps a path in it (a failing expectation's) back to a line. */
export interface LoadedSuite {
  readonly file: string;
  readonly suite: ExpectationSuite;
  readonly locator: JsonLocator;
}

export const SUITE_SUFFIX = '.expect.json';

/**
 * Whether a dropped or opened document is an expectation suite, not a contract or a scenario: by its name
 * (`*.expect.json`), or by its shape (a `suite` name with `inputs` and `cases`, which no other format has).
 */
export function isSuiteDocument(file: string, value: unknown): boolean {
  if (file.toLowerCase().endsWith(SUITE_SUFFIX)) return true;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const fields = value as Record<string, unknown>;
  return typeof fields.suite === 'string' && typeof fields.inputs === 'object' && Array.isArray(fields.cases);
}

/** Reads an expectation suite; problems name the file, the line and the field, as for every format. */
export function parseExpectationSuiteJson(file: string, text: string): Result<LoadedSuite, CompileError> {
  const json = parseJsonText(text);
  if (!json.ok) return err(invalidInput(file, [jsonTextIssue(file, json.error)], 1, 'expectation suite'));
  const locator = createJsonLocator(text);
  // Record ids and propositions are keys here: a `__proto__` key would vanish when zod copies the object.
  const reserved = reservedKeyPaths(json.value);
  if (reserved.length > 0) {
    const issues = reserved.map((path) =>
      inputIssue({ file, line: locator.lineOf(path), path: formatPath(path) }, 'UNKNOWN_FIELDS', {
        fields: [quoteValue(path[path.length - 1])],
      }),
    );
    return err(invalidInput(file, issues, issues.length, 'expectation suite'));
  }
  const parsed = expectationSuiteSchema.safeParse(json.value);
  if (!parsed.success)
    return err(
      invalidInput(
        file,
        zodInputIssues({ file, locator, schema: expectationSuiteSchema }, parsed.error, json.value),
        parsed.error.issues.length,
        'expectation suite',
      ),
    );
  return ok({ file, suite: parsed.data, locator });
}

/** One run of a case: the case under one set of switches, and where in the file that set is written. */
export interface CaseVariant {
  readonly caseIndex: number;
  readonly entry: ExpectationCase;
  readonly selection: { readonly controls: readonly string[]; readonly lateChanges: readonly string[] };
  /** `null` for a case without a matrix. */
  readonly label: string | null;
  /** `cases[2]`, or `cases[2].matrix[1]`. */
  readonly path: JsonPath;
}

function labelOf(set: ControlSet): string {
  if (set.name !== undefined) return set.name;
  const parts = [];
  if (set.controls.length > 0) parts.push(`controls ${set.controls.join(', ')}`);
  if (set.lateChanges.length > 0) parts.push(`late changes ${set.lateChanges.join(', ')}`);
  return parts.length === 0 ? 'no controls' : parts.join('; ');
}

export function variantsOf(suite: ExpectationSuite): CaseVariant[] {
  return suite.cases.flatMap((entry, caseIndex): CaseVariant[] => {
    if (entry.matrix === undefined) {
      return [
        {
          caseIndex,
          entry,
          selection: { controls: entry.controls ?? [], lateChanges: entry.lateChanges ?? [] },
          label: null,
          path: ['cases', caseIndex],
        },
      ];
    }
    return entry.matrix.map((set, row) => ({
      caseIndex,
      entry,
      selection: set,
      label: labelOf(set),
      path: ['cases', caseIndex, 'matrix', row],
    }));
  });
}

/** How a result names a case run: `name`, or `name [controls a, b]` for a row of its matrix. */
export function variantName(variant: Pick<CaseVariant, 'entry' | 'label'>): string {
  return variant.label === null ? variant.entry.name : `${variant.entry.name} [${variant.label}]`;
}

/**
 * Controls and late changes a suite names that its inputs do not declare: found before anything runs, and
 * placed at their line, instead of failing every case that uses them with UNKNOWN_CONTROL.
 */
export function unknownSwitchIssues(
  loaded: LoadedSuite,
  declared: { readonly controls: readonly string[]; readonly lateChanges: readonly string[] },
): InputIssue[] {
  const issues: InputIssue[] = [];
  const controls = new Set(declared.controls);
  const lateChanges = new Set(declared.lateChanges);
  const check = (ids: readonly string[] | undefined, known: ReadonlySet<string>, path: JsonPath, kind: string) => {
    ids?.forEach((id, index) => {
      if (known.has(id)) return;
      const at = [...path, index];
      issues.push(
        inputIssue({ file: loaded.file, line: loaded.locator.lineOf(at), path: formatPath(at) }, 'UNDECLARED_SWITCH', {
          kind,
          id: quoteValue(id),
          declared: [...known],
        }),
      );
    });
  };
  loaded.suite.cases.forEach((entry, caseIndex) => {
    const at: JsonPath = ['cases', caseIndex];
    check(entry.controls, controls, [...at, 'controls'], 'control');
    check(entry.lateChanges, lateChanges, [...at, 'lateChanges'], 'late change');
    entry.matrix?.forEach((set, row) => {
      check(set.controls, controls, [...at, 'matrix', row, 'controls'], 'control');
      check(set.lateChanges, lateChanges, [...at, 'matrix', row, 'lateChanges'], 'late change');
    });
    check(entry.expect.drill?.lateChanges, lateChanges, [...at, 'expect', 'drill', 'lateChanges'], 'late change');
  });
  return issues;
}

/** The suite refused for naming switches its inputs lack, or null. */
export function checkSwitches(
  loaded: LoadedSuite,
  declared: { readonly controls: readonly string[]; readonly lateChanges: readonly string[] },
): CompileError | null {
  const issues = unknownSwitchIssues(loaded, declared);
  if (issues.length === 0) return null;
  return {
    ...invalidInput(loaded.file, issues, issues.length, 'expectation suite'),
    pass: 'controls',
    code: 'UNKNOWN_CONTROL',
  };
}
