import { stripBom } from './json-text';

export type FileKind = 'records' | 'contract' | 'scenario' | 'receipt';

/** What a file was recognised as, and the field names that gave it away (for messages). */
export interface RecognisedKind {
  readonly kind: FileKind;
  readonly by: readonly string[];
}

const RECEIPT_FIELDS = [
  'receiptId',
  'schemaVersion',
  'engineVersion',
  'contractFingerprint',
  'recordSetDigest',
  'packetFingerprint',
  'decisionBlockedBy',
  'tokensUsed',
];
const SCENARIO_FIELDS = ['contract', 'controls', 'lateChanges', 'records'];
const CONTRACT_FIELDS = [
  'task',
  'principals',
  'asOf',
  'purpose',
  'scopes',
  'allowedSourceClasses',
  'allowedAuthorityClasses',
  'acceptedReviewStates',
  'forbiddenLifecycle',
  'forbiddenSensitivity',
  'denyLabels',
  'requiredRecords',
  'requiredPropositions',
  'typedEvidenceOnly',
  'tokenBudget',
  'naiveTopK',
  'identities',
];
const RECORD_FIELDS = [
  'title',
  'text',
  'tokens',
  'scope',
  'knownAt',
  'validFrom',
  'validTo',
  'lifecycle',
  'supersedes',
  'sourceClass',
  'authorityClass',
  'reviewState',
  'provenance',
  'sensitivity',
  'access',
  'evidence',
  'relevance',
];

/** Field names to kind, most specific first: a scenario holds a contract and records, a receipt a trace of ids. */
function classify(keys: ReadonlySet<string>): RecognisedKind | null {
  const found = (fields: readonly string[]) => fields.filter((field) => keys.has(field));
  const receipt = found(RECEIPT_FIELDS);
  if (keys.has('receiptId') || receipt.length >= 2) return { kind: 'receipt', by: receipt };
  const scenario = found(SCENARIO_FIELDS);
  if (scenario.length > 0) return { kind: 'scenario', by: scenario };
  const contract = found(CONTRACT_FIELDS);
  if (contract.length > 0) return { kind: 'contract', by: contract };
  const record = found(RECORD_FIELDS);
  // Only records have an id and none of the fields above: even a bare {"id": 1} is a (bad) records line.
  if (keys.has('id') || record.length >= 2)
    return { kind: 'records', by: keys.has('id') ? ['id', ...record.slice(0, 3)] : record.slice(0, 4) };
  return null;
}

function keysOfObject(text: string): Set<string> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? new Set(Object.keys(value)) : null;
  } catch {
    return null;
  }
}

/** Enough of a broken or cut-off file to find its field names. */
const SCAN_CHARS = 64 * 1024;

/** Field names written in the text, for a file that is not valid JSON (cut off, or a line too long to read whole). */
function keysInText(text: string): Set<string> {
  const keys = new Set<string>();
  for (const match of text.slice(0, SCAN_CHARS).matchAll(/"([A-Za-z]{1,40})"\s*:/g))
    if (match[1] !== undefined) keys.add(match[1]);
  return keys;
}

/**
 * Tells what a file is from its content, not its name (users rename files). `text` may be only the head
 * of a large file (`complete` false). A broken file is still recognised from its field names, so the
 * error can say what it was read as and what is wrong, instead of that it is nothing.
 */
export function recogniseFileKind(input: string, complete = true): RecognisedKind | null {
  const text = stripBom(input).trimStart();
  if (!text.startsWith('{')) return null;
  const newline = text.indexOf('\n');
  const firstLine = newline === -1 ? text : text.slice(0, newline);
  const firstKeys = keysOfObject(firstLine);
  const first = firstKeys && classify(firstKeys);
  if (first?.kind === 'records' || (first && newline === -1)) return first;
  const wholeKeys = complete && newline !== -1 ? keysOfObject(text) : null;
  if (wholeKeys) return classify(wholeKeys);
  if (firstKeys) return null;
  // Not JSON as far as we can read: one line of records, or a document, cut off or broken.
  const lineGuess = classify(keysInText(firstLine));
  if (lineGuess?.kind === 'records') return lineGuess;
  return classify(keysInText(text));
}

export function detectFileKind(text: string): FileKind | null {
  return recogniseFileKind(text)?.kind ?? null;
}

const ARTICLES: Record<FileKind, string> = {
  records: 'a records JSONL file',
  contract: 'a contract',
  scenario: 'a scenario',
  receipt: 'a receipt',
};

/** "a contract (recognised by principals, asOf)": for messages about a file that was recognised but is invalid. */
export function describeRecognised(recognised: RecognisedKind): string {
  return `${ARTICLES[recognised.kind]}${recognised.by.length > 0 ? ` (recognised by ${recognised.by.slice(0, 4).join(', ')})` : ''}`;
}
