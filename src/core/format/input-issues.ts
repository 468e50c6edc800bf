import type { z } from 'zod';
import { formatPath, type CompileError, type InputIssue } from '../errors';
import { createJsonLocator, MAX_JSON_DEPTH, quoteValue, type JsonLocator, type JsonTextProblem } from './json-text';

/** Enough issues to fix a file in one go, without flooding a screen when every line is wrong. */
export const MAX_REPORTED_ISSUES = 50;

export const LONE_SURROGATE_MESSAGE = 'a string with a lone UTF-16 surrogate (an unpaired \\uD800-\\uDFFF escape): not valid Unicode, so it has no canonical form';

/** A file refused at validation: what it was read as, how many problems, and the first of them. */
export function invalidInput(file: string, issues: readonly InputIssue[], totalIssues = issues.length, kind?: string): CompileError {
  const shown = issues.slice(0, MAX_REPORTED_ISSUES);
  const more = totalIssues > shown.length ? ` (first ${shown.length} shown)` : '';
  return {
    pass: 'validate',
    code: issues.length === 1 && issues[0]?.message.startsWith('duplicate id') ? 'DUPLICATE_ID' : 'INVALID_INPUT',
    message: `${file}: ${kind === undefined ? '' : `not a valid ${kind}: `}${totalIssues} problem${totalIssues === 1 ? '' : 's'}${more}`,
    issues: shown,
  };
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
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const part of path) {
    if (value === null || typeof value !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(value, part)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}

/** Turns zod's issues into the formats' issues: the path as users read it, its line, and the offending value repeated. */
export function zodInputIssues(source: IssueSource, error: z.ZodError, input: unknown): InputIssue[] {
  const prefix = source.prefix ?? [];
  // Only the issues that will be shown are placed and described: a file can have one on every line.
  return error.issues.slice(0, MAX_REPORTED_ISSUES).map((issue) => {
    const path = [...prefix, ...issue.path];
    const value = valueAt(input, issue.path);
    let message: string;
    let at = path;
    if (issue.code === 'unrecognized_keys') {
      message = `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => quoteValue(key, 80)).join(', ')}: not part of the format`;
      const first = issue.keys[0];
      if (first !== undefined) at = [...path, first];
    } else if (value === undefined && issue.code === 'invalid_type') {
      message = `required field missing (expected ${issue.expected})`;
    } else {
      message = `${issue.message} (got ${quoteValue(value)})`;
    }
    return { file: source.file, line: source.line ?? source.locator?.lineOf(at), path: formatPath(path), message };
  });
}

/** A JSON text problem as an issue; `lineOffset` places a JSONL line in its file. */
export function jsonTextIssue(file: string, problem: JsonTextProblem, lineOffset = 0): InputIssue {
  const line = (n: number | undefined) => (n === undefined ? (lineOffset > 0 ? lineOffset : undefined) : n + Math.max(0, lineOffset - 1));
  switch (problem.kind) {
    case 'syntax':
      return { file, line: line(problem.line), path: '(root)', message: `not valid JSON: ${problem.message}${problem.excerpt === undefined ? '' : ` near ${problem.excerpt}`}` };
    case 'duplicate-key':
      return {
        file,
        line: line(problem.line),
        path: formatPath(problem.path),
        message: `duplicate key ${quoteValue(problem.key, 80)}${problem.firstLine === problem.line ? '' : `: first given at line ${line(problem.firstLine) ?? problem.firstLine}`}; a key may appear once per object`,
      };
    case 'too-deep':
      return { file, line: line(problem.line), path: formatPath(problem.path), message: `nested deeper than the format allows (at most ${MAX_JSON_DEPTH} levels)` };
    case 'lone-surrogate':
      return { file, line: line(problem.line), path: formatPath(problem.path), message: LONE_SURROGATE_MESSAGE };
  }
}

/** Reads a path as `formatPath` writes it (`requiredPropositions[1].id`) back into its parts. */
export function parseFormattedPath(path: string): PropertyKey[] {
  if (path === '(root)') return [];
  const parts: PropertyKey[] = [];
  for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) parts.push(match[2] === undefined ? (match[1] ?? '') : Number(match[2]));
  return parts;
}

/**
 * Issues a later pass reports against "contract" (type-checking sees a contract, not the file it came from),
 * placed in the file the contract was read from: its name, the field's line, and the path inside that file
 * (`prefix`: where the contract sits, `contract` in a scenario). Other issues are left as they are.
 */
export function placeContractIssues(error: CompileError, file: string, text: string, prefix: readonly PropertyKey[] = []): CompileError {
  if (!error.issues?.some((issue) => issue.file === 'contract')) return error;
  const locator = createJsonLocator(text);
  const issues = error.issues.map((issue) => {
    if (issue.file !== 'contract') return issue;
    const path = [...prefix, ...parseFormattedPath(issue.path)];
    return { file, line: locator.lineOf(path), path: formatPath(path), message: issue.message };
  });
  return { ...error, issues };
}
