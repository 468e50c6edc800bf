import type { InputIssue } from './reasons';

export type { CompileError, InputIssue } from './reasons';

export interface SourceLocation {
  readonly file: string;
  /** 1-based line, for JSONL files and JSON syntax errors. */
  readonly line?: number;
}

/**
 * A records line that was not read as a record (not JSON, not in the format, a look-alike id), or a record
 * whose id another record holds and that the caller may not see: inadmissible, never a refusal, because an
 * unreadable line cannot be shown to be one the caller may see. The issues say where and what, for the
 * diagnostic view only.
 */
export interface UnreadableRecord {
  readonly location: SourceLocation;
  readonly issues: readonly InputIssue[];
}

export type Result<T, E> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

export const ok = <T>(value: T): { readonly ok: true; readonly value: T } => ({ ok: true, value });
export const err = <E>(error: E): { readonly ok: false; readonly error: E } => ({ ok: false, error });

/** Formats a JSON path the way users read it: `records[3].access.roles`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out === '' ? '(root)' : out;
}

export function formatIssue(issue: InputIssue): string {
  const where = issue.line === undefined ? issue.file : `${issue.file}:${issue.line}`;
  return `${where}: ${issue.path}: ${issue.message}`;
}
