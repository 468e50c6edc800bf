import { plural } from './messages-wording';
import { isReasonCode, REASONS } from './reasons';

/** Arguments of an input issue: values as the reader shows them (quoted, counted), never a sentence of its own. */
export type IssueArgs = Readonly<Record<string, string | number | null | readonly string[]>>;

/**
 * "; did you mean …?" for the unknown fields that have a near name: one field says the name, several say which is
 * which.
 */
function didYouMean(fields: readonly string[], meant: readonly string[]): string {
  const pairs = fields.map((field, index) => [field, meant[index] ?? ''] as const).filter(([, name]) => name !== '');
  if (pairs.length === 0) return '';
  if (fields.length === 1) return `; did you mean ${pairs[0]?.[1] ?? ''}?`;
  return `; did you mean ${pairs.map(([field, name]) => `${name} for ${field}`).join(', ')}?`;
}
const declaredOrNone = (declared: readonly string[]) =>
  declared.length === 0 ? 'the inputs declare none' : `the inputs declare ${declared.join(', ')}`;

/**
 * What an input issue says, by code: every file, link, saved workspace and suite problem is a code and its
 * arguments (`InputIssue`), worded only here. `problem` and `reason` carry wording from outside this catalogue:
 * a format rule's own message (zod), the JSON parser's, a file system's.
 */
export const ISSUES = {
  UNKNOWN_FIELDS: ({ fields, meant = [] }: { fields: readonly string[]; meant?: readonly string[] }) =>
    `unknown ${plural(fields.length, 'field')} ${fields.join(', ')}: not part of the ` +
    `format${didYouMean(fields, meant)}`,
  FIELD_MISSING: ({ expected, nullable = 'no' }: { expected: string; nullable?: string }) =>
    `required field missing (expected ` +
    `${expected}${nullable === 'yes' ? ', or null when there is none: give it as null' : ''})`,
  NOT_IN_FORMAT: ({ problem, got }: { problem: string; got: string }) => `${problem} (got ${got})`,
  NOT_ONE_OF: ({ got, count, nearest }: { got: string; count: number; nearest: readonly string[] }) =>
    `not one of the ${count} allowed values (got ${got})${nearest.length === 0 ? '' : `; did you mean ${nearest.join(' or ')}?`}`,
  FORMAT_RULE: ({ problem }: { problem: string }) => problem,
  NOT_JSON: ({ problem, near }: { problem: string; near: string | null }) =>
    `not valid JSON: ${problem}${near === null ? '' : ` near ${near}`}`,
  DUPLICATE_KEY: ({ key, firstLine }: { key: string; firstLine: number | null }) =>
    `duplicate key ${key}${firstLine === null ? '' : `: first given at line ${firstLine}`}; a key may appear once per object`,
  TOO_DEEP: ({ levels }: { levels: number }) => `nested deeper than the format allows (at most ${levels} levels)`,
  INVISIBLE_CHARACTER: ({ codePoints }: { codePoints: readonly string[] }) =>
    `holds ${codePoints.join(', ')}, ` +
    `${codePoints.length === 1 ? 'a character that does' : 'characters that do'} not show or that reorder ` +
    `text: an identifier may not hold invisible or bidi control characters, so that no two ids look alike`,
  NOT_NFC: ({ found, nfc }: { found: string; nfc: string }) =>
    `not in Unicode normalisation form NFC: it holds ${found} where NFC writes ${nfc}; write the ` +
    `identifier in NFC, so that no two ids look alike`,
  LONE_SURROGATE: () =>
    'a string with a lone UTF-16 surrogate (an unpaired \\uD800-\\uDFFF escape): not valid Unicode, so ' +
    'it has no canonical form',
  DUPLICATE_ID: ({ id, first }: { id: string; first: string | null }) =>
    `duplicate id ${id}${first === null ? '' : `: first defined at ${first}`}`,
  LINE_TOO_LONG: ({ max }: { max: number }) =>
    `line longer than ${max.toLocaleString('en-US')} characters, the most a records line may have`,
  NUL_IN_TEXT: () => 'holds U+0000, which PostgreSQL text cannot store; remove the NUL character',
  RECORDS_NOT_SUPPLIED: ({ records }: { records: string }) =>
    `names "${records}", which was not supplied alongside the scenario`,
  PROPOSITION_TWICE: ({ proposition }: { proposition: string }) => `proposition "${proposition}" is declared twice`,
  TYPED_EVIDENCE_WITHOUT_PROPOSITIONS: () => 'needs at least one entry in requiredPropositions',
  UNDECLARED_SWITCH: ({ kind, id, declared }: { kind: string; id: string; declared: readonly string[] }) =>
    `no ${kind} ${id}: ${declaredOrNone(declared)}`,
  CHANGE_NAMES_UNDECLARED: ({ record, change }: { record: string; change: string }) =>
    `names record ${record}, which ${change} neither patches nor lists in "mentions": declare it, so that ` +
    `a view which withholds it can redact it`,
  CASE_EXPECTS_NOTHING: () => 'expects nothing: give at least one expectation',
  FAILURE_WITH_PACKET: () => 'a failure contradicts outcome "packet"',
  SKIP_WITH_ONLY: () => 'give skip or only, not both',
  MATRIX_WITH_SWITCHES: () => 'give matrix, or controls and lateChanges, not both',
  SUITE_INPUTS_NOT_ONE: () => 'give one of scenario, scenarioFile, or records with contract',
  RECORDS_WITHOUT_CONTRACT: () => 'records and contract go together',
  DUPLICATE_CASE_NAME: ({ name, first }: { name: string; first: string }) =>
    `duplicate case name ${name}: first used at ${first}`,
  RELEVANT_NOT_A_RECORD: ({ id }: { id: string }) => `names "${id}", which is not among the records`,
  /** A refusal that came without issues of its own, as one: its message. */
  REFUSED: ({ reason }: { reason: string }) => reason,

  RECEIPT_SCHEMA: ({ version, current }: { version: string; current: string }) =>
    `a ${version} receipt; this engine reads ${current} receipts: compile the inputs again for a current one`,
  RECEIPT_UNUSABLE: ({ code, detail }: { code: string; detail: string }) =>
    `${code}: ${isReasonCode(code) ? REASONS[code].summary : ''} ${detail}`,
  RECEIPT_ID_MISMATCH: () => "does not hash the receipt's content: it was edited after its id was computed",
  RECEIPT_ENGINE: ({ detail }: { detail: string }) => detail,
  UNKNOWN_OPTION: ({ option, command, nearest }: { option: string; command: string; nearest: readonly string[] }) =>
    `unknown option ${option} for ${command}${nearest.length === 0 ? '' : `; did you mean ${nearest.join(' or ')}?`} (context-compiler ${command} --help lists its options)`,
  PROVENANCE_HASH_NOT_TEXTS: ({ hash, given }: { hash: string; given: string | null }) =>
    `${given === null ? 'missing' : `${given} is not the hash of the record's text`}; its text hashes to ${hash}`,
  PROVENANCE_NO_ORIGIN: () =>
    'no provenance origin: write where the record came from first; the hash is filled only beside an origin',
  PROVENANCE_NO_TEXT: () => 'no text to hash',
  NOTHING_TO_JUDGE_AGAINST: () =>
    'the receipt hashes to its own id, but there is nothing to judge its claims against: give the ' +
    'current inputs with --scenario ID|PATH, --records FILE --contract FILE, or --database URL ' +
    '--contract FILE',
  USER_VIEW_NOT_RECEIPT: () =>
    'a user-view export is not a receipt: it withholds rows, so nothing in it can be checked against a ' +
    'compilation; load the diagnostic receipt instead',
  NOT_RECOGNISED: ({ start }: { start: string | null }) =>
    `not a records JSONL file, contract, scenario or receipt: ${start === null ? 'it is empty' : `it starts ${start}`}, and none has the fields that mark one (a record's id and text, a contract's task and principals, ` +
    `a scenario's contract and records, a receipt's receiptId)`,
  DOCUMENT_TOO_LARGE: ({ megabytes, limit }: { megabytes: number; limit: number }) =>
    `is ${megabytes} MB; a contract, scenario or receipt may be at most ${limit} MB (records belong in a ` +
    `JSONL file, which is read line by line)`,
  SUITE_TOO_LARGE: ({ megabytes, limit }: { megabytes: number; limit: number }) =>
    `is ${megabytes} MB; an expectation suite may be at most ${limit} MB`,
  ONE_RECORDS_AND_CONTRACT: () =>
    'drop at most one records file and one contract at a time, or a scenario that names its records file',
  FILE_UNREADABLE: ({ reason }: { reason: string }) => reason,
  SUITE_NOT_OPEN: () => 'is not open in the Tests panel: open it first',
  NO_SUITE_IN_FOLDER: ({ suffix }: { suffix: string }) => `a folder with no ${suffix} file in it`,
  NO_BUILTIN_SCENARIO: ({ scenario }: { scenario: string }) =>
    `no built-in scenario ${scenario}; for a scenario file, give scenarioFile`,
  READING_FAILED: ({ failure }: { failure: string }) =>
    `the compiler failed while reading the files, so none was loaded. ${failure}`,

  SAVED_FILES_MISSING: () =>
    'the loaded files were missing from browser storage (its data may have been cleared while the app ' +
    'was open); restored the selection and contract edits that do not depend on them',
  SAVED_WORKSPACE_UNREADABLE: () =>
    'the saved workspace is not in a format this version reads; starting from the built-in scenarios',
  AS_OF_NOT_STEPPED: ({ asOf, step }: { asOf: string; step: string }) => `cannot step the as-of ${asOf} by ${step}`,
  SUGGESTION_UNKNOWN: ({ code }: { code: string }) => `no suggested change ${code}`,
  SUGGESTION_NOT_CONTRACT: () => 'a change to the record, not to the contract: make it in the record itself',
  LINK_TOO_LONG: ({ length, limit }: { length: number; limit: number }) =>
    `the link is ${length.toLocaleString('en-GB')} characters after “#”; share links are limited to ` +
    `${limit.toLocaleString('en-GB')}. Nothing was opened.`,
  LINK_NOT_OURS: () => 'not a share link of this version (it should start with “#share=1.”)',
  LINK_NOT_BASE64: () => 'the link is damaged: it is not base64url (was it cut or re-typed?)',
  LINK_NOT_DEFLATE: () => 'the link is damaged: its data does not decompress (was it cut short?)',
  LINK_EXPANDS_TOO_FAR: ({ limit }: { limit: string }) => `the link expands to more than ${limit}; nothing was opened`,
  LINK_NOT_JSON: () => 'the link is damaged: its data is not JSON',
  LINK_FILES_TOO_LARGE: ({ size, limit }: { size: string; limit: string }) =>
    `the loaded files are ${size}; a share link carries at most ${limit} of files. Use "Export scenario" ` +
    `and send the file instead.`,
  LINK_SCENARIO_UNKNOWN: ({ scenario }: { scenario: string }) =>
    `names scenario "${scenario}", which this workspace does not have`,
  LINK_EDIT_NOT_LOADED: ({ scenario }: { scenario: string }) =>
    `edits scenario "${scenario}", which the link does not load`,
  LINK_SELECTION_NOT_LOADED: ({ scenario }: { scenario: string }) =>
    `selects scenario "${scenario}", which the link does not load`,
  LINK_SWITCHES_UNDECLARED: ({ switches, scenario }: { switches: readonly string[]; scenario: string }) =>
    `switches on ${switches.join(', ')}, which scenario "${scenario}" does not declare`,

  EDIT_NO_SUCH_RECORD: ({ id }: { id: string }) => `the scenario has no record "${id}" to replace`,
  EDIT_ID_TAKEN: ({ id, list }: { id: string; list: string }) => `id "${id}" is already used in the scenario's ${list}`,
  EDIT_NOT_IN_VIEW: ({ id }: { id: string }) => `no record "${id}" in this view to edit`,
  EDIT_KEEPS_ID: ({ id }: { id: string }) =>
    `an edit keeps the record's id ("${id}"); to add a record, write a scenario file`,
  EDIT_CHANGES_NOTHING: () => 'the edit changes no field',
  EDIT_NEEDS_LABEL: () => 'a control or late change needs a label of 1 to 120 characters',
  EDIT_NOTHING_TO: ({ action }: { action: string }) => `nothing to ${action}`,
} as const;

export type IssueCode = keyof typeof ISSUES;

export function isIssueCode(value: unknown): value is IssueCode {
  return typeof value === 'string' && Object.hasOwn(ISSUES, value);
}

/** The arguments an issue code takes, or none. */
export type IssueArgsOf<C extends IssueCode> =
  Parameters<(typeof ISSUES)[C]> extends [] ? [] : [Parameters<(typeof ISSUES)[C]>[0]];

/** Where an issue is: the file, its line when known, and the JSON path as users read it. */
export interface IssuePlace {
  readonly file: string;
  readonly line?: number | undefined;
  readonly path: string;
}

/** An input issue: a code and its arguments at a place, with the catalogue's words for them. */
export function inputIssue<C extends IssueCode>(place: IssuePlace, code: C, ...[args]: IssueArgsOf<C>): InputIssue {
  return issueOfCode(place, code, (args ?? {}) as IssueArgs);
}

/**
 * An issue whose code and arguments were carried as data (a format rule's zod issue holds them in its params):
 * worded here as `inputIssue` words them.
 */
export function issueOfCode(place: IssuePlace, code: IssueCode, given: IssueArgs): InputIssue {
  const message = (ISSUES[code] as (args: IssueArgs) => string)(given);
  return {
    file: place.file,
    ...(place.line === undefined ? {} : { line: place.line }),
    path: place.path,
    code,
    args: given,
    message,
  };
}

/**
 * One problem in one input: where (file, line, JSON path), its code and arguments, and the words the catalogue
 * (`ISSUES` here) gives them. Made only by `inputIssue`, so no message is worded anywhere else.
 */
export interface InputIssue {
  readonly file: string;
  readonly line?: number;
  readonly path: string;
  readonly code: IssueCode;
  readonly args: IssueArgs;
  readonly message: string;
}
