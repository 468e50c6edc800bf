import type { InputIssue } from './errors';
import { jsonTextIssue } from './format/input-issues';
import { parseJsonText } from './format/json-text';
import { contentHashOf, type Sha256 } from './fingerprints';
import { inputIssue } from './issues';

/** What authoring the provenance hashes of a records file found and, when asked, wrote. */
export interface ProvenanceAuthoring {
  /** The file with every fillable hash filled; lines that needed nothing are kept byte for byte. */
  readonly text: string;
  readonly records: number;
  readonly matching: number;
  /** Hashes missing or not the text's: filled in `text`, reported by a check. */
  readonly filled: readonly InputIssue[];
  /** Lines whose hash cannot be filled: not JSON, no text, or no provenance origin to vouch for it. */
  readonly unfillable: readonly InputIssue[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Fills or checks `provenance.contentHash` of every record of a JSONL file: the sha256 of its `text`. Only
 * beside an origin the author wrote, since the hash asserts that the text is what that origin holds.
 */
export function authorProvenance(sha256: Sha256, file: string, input: string): ProvenanceAuthoring {
  const filled: InputIssue[] = [];
  const unfillable: InputIssue[] = [];
  let records = 0;
  let matching = 0;
  const lines = input.split('\n').map((raw, index) => {
    const carriageReturn = raw.endsWith('\r') ? '\r' : '';
    const line = carriageReturn === '' ? raw : raw.slice(0, -1);
    if (line.trim() === '') return raw;
    records += 1;
    const lineNumber = index + 1;
    const json = parseJsonText(line);
    if (!json.ok) {
      unfillable.push(jsonTextIssue(file, json.error, lineNumber));
      return raw;
    }
    const record = json.value;
    if (!isObject(record) || typeof record.text !== 'string') {
      unfillable.push(inputIssue({ file, line: lineNumber, path: 'text' }, 'PROVENANCE_NO_TEXT'));
      return raw;
    }
    const provenance = record.provenance;
    if (!isObject(provenance) || typeof provenance.origin !== 'string' || provenance.origin === '') {
      unfillable.push(inputIssue({ file, line: lineNumber, path: 'provenance.origin' }, 'PROVENANCE_NO_ORIGIN'));
      return raw;
    }
    const hash = contentHashOf(sha256, record.text);
    if (provenance.contentHash === hash) {
      matching += 1;
      return raw;
    }
    filled.push(
      inputIssue({ file, line: lineNumber, path: 'provenance.contentHash' }, 'PROVENANCE_HASH_NOT_TEXTS', {
        hash,
        given: typeof provenance.contentHash === 'string' ? provenance.contentHash : null,
      }),
    );
    // A BOM belongs to the file, not the record: it stays in front of the first line.
    const bom = index === 0 && line.startsWith('\uFEFF') ? '\uFEFF' : '';
    return `${bom}${JSON.stringify({ ...record, provenance: { ...provenance, contentHash: hash } })}${carriageReturn}`;
  });
  return { text: lines.join('\n'), records, matching, filled, unfillable };
}
