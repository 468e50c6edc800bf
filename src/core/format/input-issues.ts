import type { z } from 'zod';
import { compileError, formatPath, type CompileError, type InputIssue } from '../errors';
import { inputIssue, isIssueCode, issueOfCode, type IssueArgs } from '../issues';
import { invisibleCodePoints, nfcDifference } from './identifier';
import { nearestNames } from '../suggest';
import { allowsNull, fieldNamesAt } from './field-names';
import { createJsonLocator, MAX_JSON_DEPTH, quoteValue, type JsonLocator, type JsonTextProblem } from './json-text';

/** Enough issues to fix a file in one go, without flooding a screen when every line is wrong. */
export const MAX_REPORTED_ISSUES = 50;

/** A file refused at validation: what it was read as, how many problems, and the first of them. */
export function invalidInput(
  file: string,
  issues: readonly InputIssue[],
  totalIssues = issues.length,
  kind?: string,
): CompileError {
  const shown = issues.slice(0, MAX_REPORTED_ISSUES);
  return compileError(
    {
      pass: 'validate',
      code: issues.length === 1 && issues[0]?.code === 'DUPLICATE_ID' ? 'DUPLICATE_ID' : 'INVALID_INPUT',
      issues: shown,
    },
    'FILE_PROBLEMS',
    { file, kind: kind ?? null, total: totalIssues, shown: shown.length },
  );
}

/** Where the value being validated came from: one JSONL line, or a JSON document whose paths map to lines. */
export interface IssueSource {
  readonly file: string;
  /** The JSONL line, when every issue is on one line. */
  readonly line?: number;
  /** For a JSON document: finds the line of a path (parsed only when there is an issue). */
  readonly locator?: JsonLocator;
  /** Where the validated value sits in its document (`records[3]` for an inline record). */
  readonly prefix?: readonly PropertyKey[];
  /** The schema the value was validated by: it names the fields a mistyped one may have meant. */
  readonly schema?: z.ZodType;
}

/** Beyond this many allowed values a refusal suggests the nearest instead of listing them all. */
const LISTED_VALUES = 8;

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const part of path) {
    if (value === null || typeof value !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(value, part)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}

/**
 * Turns zod's issues into the formats' issues: the path as users read it, its line, and the offending value repeated.
 */
export function zodInputIssues(source: IssueSource, error: z.ZodError, input: unknown): InputIssue[] {
  const prefix = source.prefix ?? [];
  // Only the issues that will be shown are placed and described: a file can have one on every line.
  return error.issues.slice(0, MAX_REPORTED_ISSUES).map((issue) => {
    const path = [...prefix, ...issue.path];
    const value = valueAt(input, issue.path);
    if (issue.code === 'unrecognized_keys') {
      const first = issue.keys[0];
      const at = first === undefined ? path : [...path, first];
      const allowed = source.schema ? fieldNamesAt(source.schema, issue.path) : [];
      const meant = issue.keys
        .map((key) => nearestNames(key, allowed, 1)[0])
        .map((name) => (name === undefined ? '' : quoteValue(name)));
      return inputIssue(
        { file: source.file, line: source.line ?? source.locator?.lineOf(at), path: formatPath(path) },
        'UNKNOWN_FIELDS',
        {
          fields: issue.keys.map((key) => quoteValue(key, 80)),
          ...(meant.some((name) => name !== '') ? { meant } : {}),
        },
      );
    }
    const place = { file: source.file, line: source.line ?? source.locator?.lineOf(path), path: formatPath(path) };
    if (value === undefined && issue.code === 'invalid_type') {
      return inputIssue(place, 'FIELD_MISSING', {
        expected: issue.expected,
        ...(source.schema !== undefined && allowsNull(source.schema, issue.path) ? { nullable: 'yes' } : {}),
      });
    }
    if (issue.code === 'invalid_value' && issue.values.length > LISTED_VALUES) {
      const allowed = issue.values.map(String);
      return inputIssue(place, 'NOT_ONE_OF', {
        got: quoteValue(value),
        count: allowed.length,
        nearest: typeof value === 'string' ? nearestNames(value, allowed).map((name) => quoteValue(name)) : [],
      });
    }
    // A format's own rule carries its issue code, and its arguments or the value they are read from.
    if (issue.code === 'custom' && issue.params?.issue === 'INVISIBLE_CHARACTER' && typeof value === 'string')
      return inputIssue(place, 'INVISIBLE_CHARACTER', { codePoints: invisibleCodePoints(value) });
    if (issue.code === 'custom' && issue.params?.issue === 'NOT_NFC' && typeof value === 'string')
      return inputIssue(place, 'NOT_NFC', nfcDifference(value));
    if (issue.code === 'custom' && isIssueCode(issue.params?.issue))
      return issueOfCode(place, issue.params.issue, (issue.params.args ?? {}) as IssueArgs);
    return inputIssue(place, 'NOT_IN_FORMAT', { problem: issue.message, got: quoteValue(value) });
  });
}

/** A JSON text problem as an issue; `lineOffset` places a JSONL line in its file. */
export function jsonTextIssue(file: string, problem: JsonTextProblem, lineOffset = 0): InputIssue {
  const line = (n: number | undefined) =>
    n === undefined ? (lineOffset > 0 ? lineOffset : undefined) : n + Math.max(0, lineOffset - 1);
  switch (problem.kind) {
    case 'syntax':
      return inputIssue({ file, line: line(problem.line), path: '(root)' }, 'NOT_JSON', {
        problem: problem.message,
        near: problem.excerpt ?? null,
      });
    case 'duplicate-key':
      return inputIssue({ file, line: line(problem.line), path: formatPath(problem.path) }, 'DUPLICATE_KEY', {
        key: quoteValue(problem.key, 80),
        firstLine: problem.firstLine === problem.line ? null : (line(problem.firstLine) ?? problem.firstLine),
      });
    case 'too-deep':
      return inputIssue({ file, line: line(problem.line), path: formatPath(problem.path) }, 'TOO_DEEP', {
        levels: MAX_JSON_DEPTH,
      });
    case 'lone-surrogate':
      return inputIssue({ file, line: line(problem.line), path: formatPath(problem.path) }, 'LONE_SURROGATE');
  }
}

/** Reads a path as `formatPath` writes it (`requiredPropositions[1].id`) back into its parts. */
export function parseFormattedPath(path: string): PropertyKey[] {
  if (path === '(root)') return [];
  const parts: PropertyKey[] = [];
  for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g))
    parts.push(match[2] === undefined ? (match[1] ?? '') : Number(match[2]));
  return parts;
}

/**
 * Issues a later pass reports against "contract" (type-checking sees a contract, not the file it came from),
 * placed in the file the contract was read from: its name, the field's line, and the path inside that file
 * (`prefix`: where the contract sits, `contract` in a scenario). Other issues are left as they are.
 */
export function placeContractIssues(
  error: CompileError,
  file: string,
  text: string,
  prefix: readonly PropertyKey[] = [],
): CompileError {
  if (!error.issues?.some((issue) => issue.file === 'contract')) return error;
  const locator = createJsonLocator(text);
  const issues = error.issues.map((issue) => {
    if (issue.file !== 'contract') return issue;
    const path = [...prefix, ...parseFormattedPath(issue.path)];
    return { ...issue, file, line: locator.lineOf(path), path: formatPath(path) };
  });
  return { ...error, issues };
}
