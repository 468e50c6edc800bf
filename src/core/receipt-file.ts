import { findLoneSurrogate } from './canonical';
import { err, formatPath, ok, type CompileError, type InputIssue, type Result } from './errors';
import { receiptSchema } from './format/receipt';
import type { Receipt } from './result';

/** At most this many schema problems are listed for one receipt file. */
const MAX_ISSUES = 50;

function refused(file: string, issues: InputIssue[]): CompileError {
  return { pass: 'validate', code: 'INVALID_INPUT', message: `${file}: not a receipt this engine reads (${issues.length} problem${issues.length === 1 ? '' : 's'})`, issues: issues.slice(0, MAX_ISSUES) };
}

/**
 * Reads a saved receipt (the CLI's files, the app's drops, the worker's diff): JSON, no lone surrogate
 * (its id could not be recomputed), then the strict receipt schema. Problems are data naming the path.
 */
export function parseReceiptJson(file: string, text: string): Result<Receipt, CompileError> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return err(refused(file, [{ file, path: '(root)', message: `not valid JSON: ${error instanceof Error ? error.message : String(error)}` }]));
  }
  const surrogate = findLoneSurrogate(json, text);
  if (surrogate) return err(refused(file, [{ file, path: formatPath(surrogate), message: 'a string with a lone UTF-16 surrogate: not valid Unicode, so it has no canonical form' }]));
  const parsed = receiptSchema.safeParse(json);
  if (!parsed.success) return err(refused(file, parsed.error.issues.map((issue) => ({ file, path: formatPath(issue.path), message: issue.message }))));
  return ok(parsed.data);
}
