import { err, ok, type CompileError, type Result } from '../errors';
import type { Receipt } from '../result';
import { invalidInput, jsonTextIssue, zodInputIssues } from './input-issues';
import { createJsonLocator, parseJsonText } from './json-text';
import { receiptSchema } from './receipt';

/** Reads a saved receipt: the one parser the CLI's drill and the app's file intake share. */
export function parseReceiptJson(file: string, text: string): Result<Receipt, CompileError> {
  const json = parseJsonText(text);
  if (!json.ok) return err(invalidInput(file, [jsonTextIssue(file, json.error)], 1, 'receipt'));
  const parsed = receiptSchema.safeParse(json.value);
  if (!parsed.success) return err(invalidInput(file, zodInputIssues({ file, locator: createJsonLocator(text) }, parsed.error, json.value), parsed.error.issues.length, 'receipt'));
  return ok(parsed.data);
}
