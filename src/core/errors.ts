import { inputIssue, type InputIssue, type IssuePlace } from './issues';
import { wordMessage, wordsText, type MessageArgList, type MessageCode, type MessageWords } from './messages';
import type { Fact, ReasonCode } from './reasons';

export type { InputIssue } from './issues';

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

/** An issue's place and problem, as the catalogue's `ISSUE_AT` words them. */
export function issueAt(issue: InputIssue): { where: string; path: string; problem: string } {
  const where = issue.line === undefined ? issue.file : `${issue.file}:${issue.line}`;
  return { where, path: issue.path, problem: issue.message };
}

export function formatIssue(issue: InputIssue): string {
  return wordMessage('ISSUE_AT', issueAt(issue));
}

export type PassName = 'validate' | 'resolve' | 'type-check' | 'admit' | 'plan' | 'attest' | 'controls';

/** A compilation that stopped. Plain data, returned rather than thrown, so every caller must look at it. */
export interface CompileError {
  readonly pass: PassName;
  readonly code: ReasonCode;
  /** Always `wordMessage(words.code, words.args)`: build errors with `compileError`. */
  readonly message: string;
  /** The catalogue's code and arguments the message words, for callers that read, compare or redact by argument. */
  readonly words: MessageWords;
  readonly recordId?: string;
  /** The fact behind a refusal, when there is one (always for a fail-closed outcome). */
  readonly fact?: Fact;
  readonly issues?: readonly InputIssue[];
}

/** What a compile error says besides its words. */
export type CompileErrorFields = Omit<CompileError, 'message' | 'words'>;

/**
 * A compile error whose text is the catalogue's wording of `code` with `args`, and which carries both, so the text and
 * the code cannot disagree. Rewording an error (`compileError({ ...error }, ...)`) replaces both.
 */
export function compileError<C extends MessageCode>(
  fields: CompileErrorFields,
  code: C,
  ...[args]: MessageArgList<C>
): CompileError {
  const words = { code, args: args ?? {} } as MessageWords;
  return { ...fields, message: wordsText(words), words };
}

/** A refusal's issues, or the refusal itself as one issue at `place` when it came without any. */
export function issuesOf(error: CompileError, place: IssuePlace): readonly InputIssue[] {
  return error.issues && error.issues.length > 0
    ? error.issues
    : [inputIssue(place, 'REFUSED', { reason: error.message })];
}
