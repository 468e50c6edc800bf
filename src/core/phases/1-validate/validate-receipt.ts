import { invalidInput, zodInputIssues } from '../../format/input-issues';
import { createJsonLocator, quoteValue } from '../../format/json-text';
import { receiptSchema } from '../../format/receipt';
import { compileError, err, ok, type CompileError, type Result } from '../../errors';
import { inputIssue } from '../../issues';
import type { Receipt } from '../../result';
import { SCHEMA_VERSION, staleEngineDetail } from '../../version';
import { parseJson } from './validate';

/**
 * Parses a saved receipt. A receipt of another format version is refused with that reason first (its
 * fields differ, so listing them as unknown would hide the point): it has to be compiled again.
 */
export function parseReceiptJson(file: string, text: string): Result<Receipt, CompileError> {
  const json = parseJson(file, text, 'receipt');
  if (!json.ok) return json;
  const locator = createJsonLocator(text);
  const fields: Partial<Record<string, unknown>> =
    json.value !== null && typeof json.value === 'object' ? json.value : {};
  const version = fields.schemaVersion;
  // Another schema computes its id another way and has other fields: STALE_ENGINE_VERSION, as the receipt check says,
  // before its fields are read.
  if (typeof version === 'string' && version !== SCHEMA_VERSION) {
    return err(
      compileError(
        {
          pass: 'validate',
          code: 'STALE_ENGINE_VERSION',
          issues: [
            inputIssue({ file, line: locator.lineOf(['schemaVersion']), path: 'schemaVersion' }, 'RECEIPT_SCHEMA', {
              version: quoteValue(version),
              current: SCHEMA_VERSION,
            }),
          ],
        },
        'RECEIPT_REFUSED',
        {
          file,
          code: 'STALE_ENGINE_VERSION',
          detail: staleEngineDetail({ schemaVersion: version, engineVersion: fields.engineVersion }),
        },
      ),
    );
  }
  const parsed = receiptSchema.safeParse(json.value);
  if (!parsed.success)
    return err(
      invalidInput(
        file,
        zodInputIssues({ file, locator, schema: receiptSchema }, parsed.error, json.value),
        parsed.error.issues.length,
        'receipt',
      ),
    );
  return ok(parsed.data);
}
