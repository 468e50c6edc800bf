import { asOfInstant } from './as-of';
import { compareStrings, sortedSet } from './canonical';
import type { Contract } from './format/contract';
import { formatInstantShort } from './format/time';
import { GATE_ORDER, type Decision } from './gate-names';

/**
 * The one catalogue of reason codes and of the facts that back them. Every trace row, failure and drill
 * verdict carries a reason code; every trace row and failure also carries a fact: a fact id plus typed
 * arguments. The wording of both lives only here; the UI, the CLI and the docs read it from here.
 */
export type ReasonCategory = 'selected' | 'boundary' | 'evidence' | 'lifecycle' | 'authorisation' | 'planning' | 'required' | 'integrity' | 'staleness' | 'input';

interface ReasonEntry {
  readonly category: ReasonCategory;
  readonly summary: string;
}

function reasons<const T extends Record<string, ReasonEntry>>(entries: T): T {
  return entries;
}

export const REASONS = reasons({
  SELECTED_REQUIRED: { category: 'selected', summary: 'Required by the contract; protected before any ranking.' },
  SELECTED_EVIDENCE: { category: 'selected', summary: 'Accepted evidence for a required proposition; planned before ordinary ranking.' },
  SELECTED_RANKED: { category: 'selected', summary: 'Legal optional record ranked by relevance inside the admitted set and within budget.' },

  EXCLUDE_PROJECT: { category: 'boundary', summary: 'Belongs to another project or legal entity.' },
  EXCLUDE_SCOPE: { category: 'boundary', summary: 'Outside the scopes the contract allows.' },
  EXCLUDE_IDENTITY: { category: 'boundary', summary: 'About another identity, or its identity is ambiguous (never resolved by score).' },
  EXCLUDE_FUTURE: { category: 'boundary', summary: 'Known or effective only after the as-of time: a future reveal.' },
  EXCLUDE_EXPIRED: { category: 'boundary', summary: 'Its validity ended before the as-of time.' },
  EXCLUDE_SUPERSEDED: { category: 'lifecycle', summary: 'Replaced by a record in force at the as-of time.' },
  EXCLUDE_DANGLING_SUPERSESSION: { category: 'lifecycle', summary: 'Supersedes a record that is not among the records: its place in a version history cannot be checked.' },
  EXCLUDE_SUPERSESSION_CYCLE: { category: 'lifecycle', summary: 'Supersedes itself, or its supersession links lead back to it: no version of the cycle can govern.' },
  EXCLUDE_LIFECYCLE: { category: 'lifecycle', summary: 'In a lifecycle state the contract forbids (draft, rejected, generated, …).' },
  EXCLUDE_SOURCE: { category: 'evidence', summary: 'Its source class is not allowed by the contract.' },
  EXCLUDE_AUTHORITY: { category: 'evidence', summary: 'Its authority class is not allowed by the contract.' },
  EXCLUDE_REVIEW: { category: 'evidence', summary: 'Its review state is not one the contract accepts.' },
  EXCLUDE_PROVENANCE: { category: 'evidence', summary: 'No verifiable provenance (missing, or the content hash does not match).' },
  EXCLUDE_SENSITIVITY: { category: 'lifecycle', summary: 'Its sensitivity is forbidden for this task.' },
  EXCLUDE_NOT_AUTHORISED: { category: 'authorisation', summary: 'A principal in the chain holds none of the roles allowed to read it.' },
  EXCLUDE_PURPOSE: { category: 'authorisation', summary: 'Not released for the purpose of this task.' },
  EXCLUDE_DENY_LABEL: { category: 'authorisation', summary: 'Carries a label the contract denies; deny dominates every permit.' },
  EXCLUDE_EVIDENCE_CLASS: { category: 'evidence', summary: 'Claims a required proposition, but its evidence class is not accepted for it.' },
  EXCLUDE_NOT_NEEDED: { category: 'planning', summary: 'Legal, but supports no required proposition of a typed-evidence contract.' },
  EXCLUDE_NOT_RELEVANT: { category: 'planning', summary: 'Legal, but does not match the query and is not needed as evidence.' },
  EXCLUDE_BUDGET: { category: 'planning', summary: 'Legal and ranked, but pruned because it does not fit the remaining token budget.' },
  EXCLUDE_FAIL_CLOSED: { category: 'planning', summary: 'Legal, but no packet was emitted because a required obligation failed.' },

  REQUIRED_NOT_FOUND: { category: 'required', summary: 'A required record is absent: no packet is emitted.' },
  REQUIRED_ILLEGAL: { category: 'required', summary: 'A required record fails a legality gate: no packet is emitted.' },
  REQUIRED_NOT_AUTHORISED: { category: 'required', summary: 'A required record is outside the authorised scope: no packet is emitted.' },
  REQUIRED_MISSING_PROVENANCE: { category: 'required', summary: 'A required record has no verifiable provenance: no packet is emitted.' },
  REQUIRED_OVER_BUDGET: { category: 'required', summary: 'The required records do not fit the token budget: no packet is emitted.' },

  ADAPTER_MISMATCH: { category: 'integrity', summary: "The adapter's candidates, or the plan it says it executed, differ from the reference evaluator's: nothing is emitted." },
  ADAPTER_INCAPABLE: { category: 'integrity', summary: 'The plan needs semantics the adapter does not preserve: compilation refuses rather than approximate.' },
  ADAPTER_INCOMPLETE: { category: 'integrity', summary: 'The adapter returned no complete answer (a timeout, a dropped connection, a partial result): nothing is emitted.' },
  LOWERING_UNSUPPORTED: { category: 'integrity', summary: 'The plan cannot be lowered to the store without weakening it (an unsupported operator or limit): compilation refuses.' },

  RECEIPT_CURRENT: { category: 'staleness', summary: "Compiling the receipt's declared inputs, which are the current ones, reproduces it byte for byte: continue." },
  STALE_CONTRACT_FINGERPRINT: { category: 'staleness', summary: 'The contract changed since the receipt: recompile before continuing.' },
  STALE_RECORD_SET: { category: 'staleness', summary: 'The records changed since the receipt: recompile before continuing.' },
  STALE_PACKET_FINGERPRINT: { category: 'staleness', summary: 'The packet the current inputs compile to differs from the receipt: recompile.' },
  STALE_ENGINE_VERSION: { category: 'staleness', summary: 'The receipt was made by another schema or engine version: recompile.' },
  LATE_USER_INPUT_NOT_APPLIED: { category: 'staleness', summary: 'A declared late change is not reflected in the receipt: recompile.' },
  RECEIPT_FAIL_CLOSED: { category: 'staleness', summary: 'The receipt records a fail-closed compilation: there is nothing to continue.' },
  RECEIPT_INVALID: { category: 'staleness', summary: 'The receipt does not hash to its own id: it was altered or is not a receipt.' },
  RECEIPT_MISMATCH: { category: 'staleness', summary: "Compiling the receipt's own declared inputs does not reproduce it: it claims what its inputs do not produce. Do not continue." },
  STALE_CONTROLS: { category: 'staleness', summary: 'The receipt was compiled with other controls or late changes than the current inputs: recompile.' },
  CURRENT_INPUTS_FAIL_CLOSED: { category: 'staleness', summary: 'The current inputs fail closed: block until the contract or records are fixed.' },

  INVALID_INPUT: { category: 'input', summary: 'A file does not match its format.' },
  EXCLUDE_UNREADABLE: {
    category: 'input',
    summary:
      'Could not be read or judged as a record (not JSON, not in the format, or a second copy of an id held by a record the caller may not see): inadmissible, and counted among the withheld in the user view.',
  },
  DUPLICATE_ID: { category: 'input', summary: 'Two records share one id.' },
  DANGLING_REFERENCE: { category: 'input', summary: 'A record or control names a record that does not exist.' },
  AMBIGUOUS_SUBJECT: { category: 'input', summary: "The contract's subject matches more than one identity." },
  UNKNOWN_CONTROL: { category: 'input', summary: 'The scenario has no control or late change with that id.' },
  DATABASE_UNREACHABLE: { category: 'input', summary: 'The database could not be reached, or refused the connection: nothing was read or written.' },
} as const);

export type ReasonCode = keyof typeof REASONS;

/** Categories whose rows the user view shows only as a count: naming them would disclose what the deny protects. */
export function isBoundedDisclosure(code: ReasonCode): boolean {
  return REASONS[code].category === 'authorisation' || code === 'REQUIRED_NOT_AUTHORISED';
}

export function isReasonCode(value: string): value is ReasonCode {
  return Object.hasOwn(REASONS, value);
}

/**
 * What a fact argument holds. `record` names another record, `records` several: disclosure withholds a
 * fact by them, never by reading the sentence. The rest are values of the record itself or counts.
 */
export type FactArgKind = 'record' | 'records' | 'name' | 'names' | 'instant' | 'count' | 'code';

export type FactArgValue = string | number | readonly string[];
export type FactArgs = Readonly<Record<string, FactArgValue>>;

interface FactEntry {
  /**
   * English wording. `{name}` is an argument; `{contract.field}` a value of the contract the fact was
   * stated under (the receipt carries that contract), so a list the contract allows is not repeated in
   * every row. Lists render as `a, b`; brackets, where wanted, are part of the template.
   */
  readonly template: string;
  readonly args: Readonly<Record<string, FactArgKind>>;
}

function facts<const T extends Record<string, FactEntry>>(entries: T): T {
  return entries;
}

export const FACTS = facts({
  PROJECT_MISMATCH: { template: 'project {project} ≠ contract project {contract.project}', args: { project: 'name' } },
  SCOPE_NOT_ALLOWED: { template: 'scope {scope} not in allowed scopes [{contract.scopes}]', args: { scope: 'name' } },
  SUBJECT_AMBIGUOUS: { template: 'subject "{subject}" is ambiguous: matches [{identities}]', args: { subject: 'name', identities: 'names' } },
  SUBJECT_MISMATCH: { template: 'subject {identity} ≠ contract subject {expected}', args: { identity: 'name', expected: 'name' } },
  KNOWN_AFTER_AS_OF: { template: 'known_at {knownAt} > as_of {contract.asOf}', args: { knownAt: 'instant' } },
  VALID_FROM_AFTER_AS_OF: { template: 'valid_from {validFrom} > as_of {contract.asOf}', args: { validFrom: 'instant' } },
  VALID_TO_BEFORE_AS_OF: { template: 'valid_to {validTo} < as_of {contract.asOf}', args: { validTo: 'instant' } },
  SUPERSEDED_BY: { template: 'superseded by {successor} (in force from {since})', args: { successor: 'record', since: 'instant' } },
  SUPERSEDES_MISSING: { template: 'supersedes {targets}, not among the records', args: { targets: 'names' } },
  SUPERSEDES_ITSELF: { template: 'supersedes itself: no version can govern', args: {} },
  ON_SUPERSESSION_CYCLE: { template: 'superseded by {successors} on a supersession cycle: no version can govern', args: { successors: 'records' } },
  /** The one declared exception to noninterference, as the user view words it (docs/FORMAT.md). */
  SUPERSEDED_BY_WITHHELD: { template: 'superseded by a record you may not see', args: {} },
  LIFECYCLE_FORBIDDEN: { template: 'lifecycle {lifecycle} is forbidden by the contract', args: { lifecycle: 'name' } },
  SOURCE_NOT_ALLOWED: { template: 'source class {sourceClass} not in allowed [{contract.allowedSourceClasses}]', args: { sourceClass: 'name' } },
  AUTHORITY_NOT_ALLOWED: { template: 'authority class {authorityClass} not in allowed [{contract.allowedAuthorityClasses}]', args: { authorityClass: 'name' } },
  REVIEW_NOT_ACCEPTED: { template: 'review state {reviewState} not in accepted [{contract.acceptedReviewStates}]', args: { reviewState: 'name' } },
  PROVENANCE_MISSING: { template: 'no provenance recorded', args: {} },
  CONTENT_HASH_MISMATCH: { template: 'content hash {contentHash}… does not match the text', args: { contentHash: 'name' } },
  SENSITIVITY_FORBIDDEN: { template: 'sensitivity {sensitivity} is forbidden for this task', args: { sensitivity: 'name' } },
  PRINCIPAL_LACKS_ROLE: { template: '{kind} {principal} holds none of the allowed roles [{allowedRoles}]', args: { kind: 'name', principal: 'name', allowedRoles: 'names' } },
  PURPOSE_NOT_RELEASED: { template: 'purpose {contract.purpose} not in released purposes [{purposes}]', args: { purposes: 'names' } },
  LABEL_DENIED: { template: 'label {labels} is denied by the contract', args: { labels: 'names' } },
  CLAIMS_NO_REQUIRED_PROPOSITION: { template: 'supports or contradicts no required proposition', args: {} },
  EVIDENCE_CLASS_NOT_ACCEPTED: { template: 'class {evidenceClass} is not accepted for {proposition} (accepts {accepted})', args: { evidenceClass: 'name', proposition: 'name', accepted: 'names' } },

  REQUIRED_PROTECTED: { template: 'required by the contract; {tokens} tokens protected before ranking', args: { tokens: 'count' } },
  EVIDENCE_PLANNED: {
    template: 'accepted {evidenceClass} evidence for {propositions}; {used} of {contract.tokenBudget} tokens used',
    args: { evidenceClass: 'name', propositions: 'names', used: 'count' },
  },
  RANKED_SELECTED: { template: 'rank {rank} of {ranked} by {contract.ranking}; {used} of {contract.tokenBudget} tokens used', args: { rank: 'count', ranked: 'count', used: 'count' } },
  BUDGET_EXCEEDED: { template: 'needs {tokens} tokens; {remaining} of {contract.tokenBudget} remain', args: { tokens: 'count', remaining: 'count' } },
  NO_QUERY_MATCH: { template: 'no query term matches its title or text', args: {} },
  NO_DECLARED_SCORE: { template: 'no declared relevance score', args: {} },
  PACKET_WITHHELD: { template: 'no packet is emitted: a required obligation failed ({failure})', args: { failure: 'code' } },
  REQUIRED_ABSENT: { template: 'required record {record} is not among the supplied records', args: { record: 'record' } },
  REQUIRED_TOKENS_OVER_BUDGET: { template: 'required records need {tokens} tokens > budget {contract.tokenBudget}', args: { tokens: 'count' } },
  DETAIL_WITHHELD: { template: 'its detail names a record outside the authorised scope', args: {} },
} as const);

/** What `counterfactual.ts` offers: one change to the contract or a record that flips a record's admission. */
export const SUGGESTIONS = {
  ADD_ROLE: { template: 'give principal {principal} the role {role}', args: { principal: 'name', role: 'name' } },
  SET_AS_OF_BEFORE: { template: 'set the as-of to {asOf} or earlier', args: { asOf: 'instant' } },
  SET_AS_OF_AFTER: { template: 'set the as-of to {asOf} or later', args: { asOf: 'instant' } },
  DROP_DENY_LABELS: { template: 'stop denying the labels [{labels}]', args: { labels: 'names' } },
  DENY_LABEL: { template: 'deny the label {label}', args: { label: 'name' } },
  ALLOW_SOURCE_CLASS: { template: 'allow the source class {sourceClass}', args: { sourceClass: 'name' } },
  DISALLOW_SOURCE_CLASS: { template: 'stop allowing the source class {sourceClass}', args: { sourceClass: 'name' } },
  ALLOW_AUTHORITY_CLASS: { template: 'allow the authority class {authorityClass}', args: { authorityClass: 'name' } },
  SUPPLY_PROVENANCE: { template: 'supply provenance whose content hash matches the text ({contentHash}…)', args: { contentHash: 'name' } },
} as const satisfies Readonly<Record<string, FactEntry>>;

export type SuggestionCode = keyof typeof SUGGESTIONS;

/** A suggestion in words: the same placeholders as a fact, with no contract context. */
export function renderSuggestion(suggestion: { readonly code: SuggestionCode; readonly args: FactArgs }): string {
  return SUGGESTIONS[suggestion.code].template.replace(/\{([A-Za-z]+)\}/g, (whole, name: string) => {
    const value = suggestion.args[name];
    if (value === undefined) return whole;
    return typeof value === 'object' ? value.join(', ') : String(value);
  });
}

/** The counts a baseline column's emptiness is explained by: k, and how many records the column could choose from. */
export interface EmptyBaselineArgs {
  readonly k: number;
  readonly ranked: number;
}

/** Why a baseline packet holds nothing, said in its column so an empty column does not look like a broken one. */
export const EMPTY_BASELINE_NOTES = {
  NOTHING_RANKED: () => 'Empty: no record matches the query, so relevance ranks nothing to choose from.',
  EVERY_TOP_K_ILLEGAL: ({ k, ranked }: EmptyBaselineArgs) =>
    `Empty: ${ranked === 1 ? 'the one record' : `all ${ranked} records`} in relevance's top ${k} ${ranked === 1 ? 'is' : 'are'} illegal, and post-filtering drops them without looking further down the ranking.`,
  NONE_FITS_BUDGET: ({ ranked }: EmptyBaselineArgs) => `Empty: ${ranked === 1 ? 'the one record' : `each of the ${ranked} records`} it could choose from is larger than the whole token budget.`,
} as const satisfies Readonly<Record<string, (args: EmptyBaselineArgs) => string>>;

export type EmptyBaselineCode = keyof typeof EMPTY_BASELINE_NOTES;

/** Each fact's argument names in canonical (code unit) order, from the catalogue. */
export const ARG_ORDER = new Map(Object.entries(FACTS).map(([fact, entry]) => [fact, Object.keys(entry.args).sort(compareStrings)]));

export type FactId = keyof typeof FACTS;

const DECISIONS: readonly Decision[] = ['selected', 'excluded'];

/**
 * The JSON string of every name a trace row repeats (reason codes, fact ids, argument names, gates,
 * decisions), written once: a receipt quotes a few dozen names once per record, and a lookup is
 * cheaper than `JSON.stringify`.
 */
const QUOTED_NAMES: ReadonlyMap<string, string> = new Map(
  [...Object.keys(REASONS), ...Object.keys(FACTS), ...[...ARG_ORDER.values()].flat(), ...GATE_ORDER, ...DECISIONS].map((name) => [name, JSON.stringify(name)]),
);

/** `JSON.stringify(name)`, taken from the catalogue's pre-quoted names where it is one of them. */
export function quotedName(name: string): string {
  return QUOTED_NAMES.get(name) ?? JSON.stringify(name);
}

/** A boundary fact as data: what the sentence says, without the sentence. */
export interface Fact {
  readonly fact: FactId;
  readonly args: FactArgs;
}

export function isFactId(value: string): value is FactId {
  return Object.hasOwn(FACTS, value);
}

/**
 * The contract values a fact's wording may quote (`{contract.name}`), formatted once per compilation or
 * receipt by `factContextOf`: sorted lists, the as-of instant as facts print instants.
 */
export type FactContext = Readonly<Record<string, string>>;

/** The contract fields a fact's wording reads. */
export const FACT_CONTEXT_FIELDS = [
  'asOf',
  'project',
  'purpose',
  'scopes',
  'allowedSourceClasses',
  'allowedAuthorityClasses',
  'acceptedReviewStates',
  'tokenBudget',
  'ranking',
] as const satisfies readonly (keyof Contract)[];

export function factContextOf(contract: Pick<Contract, (typeof FACT_CONTEXT_FIELDS)[number]>): FactContext {
  return {
    asOf: formatInstantShort(asOfInstant(contract)),
    project: contract.project,
    purpose: contract.purpose,
    scopes: sortedSet(contract.scopes).join(', '),
    allowedSourceClasses: sortedSet(contract.allowedSourceClasses).join(', '),
    allowedAuthorityClasses: sortedSet(contract.allowedAuthorityClasses).join(', '),
    acceptedReviewStates: sortedSet(contract.acceptedReviewStates).join(', '),
    tokenBudget: String(contract.tokenBudget),
    ranking: contract.ranking === 'bm25' ? 'bm25' : 'declared relevance',
  };
}

/** The ids of other records a fact names (its `record` and `records` arguments). A user view asks this of every row it keeps. */
export function recordsNamedBy(fact: Fact): string[] {
  const kinds: Readonly<Record<string, FactArgKind>> = FACTS[fact.fact].args;
  const named: string[] = [];
  for (const name of ARG_ORDER.get(fact.fact) ?? []) {
    const value = fact.args[name];
    if (kinds[name] === 'record' && typeof value === 'string') named.push(value);
    if (kinds[name] === 'records' && typeof value === 'object') for (const id of value) named.push(id);
  }
  return named;
}

const PLACEHOLDER = /\{(contract\.)?([A-Za-z]+)\}/g;

/** The fact in words: its template with the arguments and the contract's values filled in. */
export function renderFact(fact: Fact, context: FactContext): string {
  return FACTS[fact.fact].template.replace(PLACEHOLDER, (whole, fromContract: string | undefined, name: string) => {
    if (fromContract !== undefined) return context[name] ?? whole;
    const value = fact.args[name];
    if (value === undefined) return whole;
    return typeof value === 'object' ? value.join(', ') : String(value);
  });
}

/** Arguments of an input issue: values as the reader shows them (quoted, counted), never a sentence of its own. */
export type IssueArgs = Readonly<Record<string, string | number | null | readonly string[]>>;

const plural = (count: number, word: string) => `${word}${count === 1 ? '' : 's'}`;
/** "; did you mean …?" for the unknown fields that have a near name: one field says the name, several say which is which. */
function didYouMean(fields: readonly string[], meant: readonly string[]): string {
  const pairs = fields.map((field, index) => [field, meant[index] ?? ''] as const).filter(([, name]) => name !== '');
  if (pairs.length === 0) return '';
  if (fields.length === 1) return `; did you mean ${pairs[0]?.[1] ?? ''}?`;
  return `; did you mean ${pairs.map(([field, name]) => `${name} for ${field}`).join(', ')}?`;
}
const declaredOrNone = (declared: readonly string[]) => (declared.length === 0 ? 'the inputs declare none' : `the inputs declare ${declared.join(', ')}`);

/**
 * What an input issue says, by code: every file, link, saved workspace and suite problem is a code and its
 * arguments (`InputIssue`), worded only here. `problem` and `reason` carry wording from outside this catalogue:
 * a format rule's own message (zod), the JSON parser's, a file system's.
 */
export const ISSUES = {
  UNKNOWN_FIELDS: ({ fields, meant = [] }: { fields: readonly string[]; meant?: readonly string[] }) =>
    `unknown ${plural(fields.length, 'field')} ${fields.join(', ')}: not part of the format${didYouMean(fields, meant)}`,
  FIELD_MISSING: ({ expected, nullable = 'no' }: { expected: string; nullable?: string }) =>
    `required field missing (expected ${expected}${nullable === 'yes' ? ', or null when there is none: give it as null' : ''})`,
  NOT_IN_FORMAT: ({ problem, got }: { problem: string; got: string }) => `${problem} (got ${got})`,
  NOT_ONE_OF: ({ got, count, nearest }: { got: string; count: number; nearest: readonly string[] }) =>
    `not one of the ${count} allowed values (got ${got})${nearest.length === 0 ? '' : `; did you mean ${nearest.join(' or ')}?`}`,
  FORMAT_RULE: ({ problem }: { problem: string }) => problem,
  NOT_JSON: ({ problem, near }: { problem: string; near: string | null }) => `not valid JSON: ${problem}${near === null ? '' : ` near ${near}`}`,
  DUPLICATE_KEY: ({ key, firstLine }: { key: string; firstLine: number | null }) =>
    `duplicate key ${key}${firstLine === null ? '' : `: first given at line ${firstLine}`}; a key may appear once per object`,
  TOO_DEEP: ({ levels }: { levels: number }) => `nested deeper than the format allows (at most ${levels} levels)`,
  INVISIBLE_CHARACTER: ({ codePoints }: { codePoints: readonly string[] }) =>
    `holds ${codePoints.join(', ')}, ${codePoints.length === 1 ? 'a character that does' : 'characters that do'} not show or that reorder text: an identifier may not hold invisible or bidi control characters, so that no two ids look alike`,
  NOT_NFC: ({ found, nfc }: { found: string; nfc: string }) =>
    `not in Unicode normalisation form NFC: it holds ${found} where NFC writes ${nfc}; write the identifier in NFC, so that no two ids look alike`,
  LONE_SURROGATE: () => 'a string with a lone UTF-16 surrogate (an unpaired \\uD800-\\uDFFF escape): not valid Unicode, so it has no canonical form',
  DUPLICATE_ID: ({ id, first }: { id: string; first: string | null }) => `duplicate id ${id}${first === null ? '' : `: first defined at ${first}`}`,
  LINE_TOO_LONG: ({ max }: { max: number }) => `line longer than ${max.toLocaleString('en-US')} characters, the most a records line may have`,
  NUL_IN_TEXT: () => 'holds U+0000, which PostgreSQL text cannot store; remove the NUL character',
  RECORDS_NOT_SUPPLIED: ({ records }: { records: string }) => `names "${records}", which was not supplied alongside the scenario`,
  PROPOSITION_TWICE: ({ proposition }: { proposition: string }) => `proposition "${proposition}" is declared twice`,
  TYPED_EVIDENCE_WITHOUT_PROPOSITIONS: () => 'needs at least one entry in requiredPropositions',
  UNDECLARED_SWITCH: ({ kind, id, declared }: { kind: string; id: string; declared: readonly string[] }) => `no ${kind} ${id}: ${declaredOrNone(declared)}`,
  CHANGE_NAMES_UNDECLARED: ({ record, change }: { record: string; change: string }) =>
    `names record ${record}, which ${change} neither patches nor lists in "mentions": declare it, so that a view which withholds it can redact it`,
  RELEVANT_NOT_A_RECORD: ({ id }: { id: string }) => `names "${id}", which is not among the records`,
  /** A refusal that came without issues of its own, as one: its message. */
  REFUSED: ({ reason }: { reason: string }) => reason,

  RECEIPT_SCHEMA: ({ version, current }: { version: string; current: string }) => `a ${version} receipt; this engine reads ${current} receipts: compile the inputs again for a current one`,
  RECEIPT_UNUSABLE: ({ code, detail }: { code: string; detail: string }) => `${code}: ${isReasonCode(code) ? REASONS[code].summary : ''} ${detail}`,
  RECEIPT_ID_MISMATCH: () => "does not hash the receipt's content: it was edited after its id was computed",
  RECEIPT_ENGINE: ({ detail }: { detail: string }) => detail,
  UNKNOWN_OPTION: ({ option, command, nearest }: { option: string; command: string; nearest: readonly string[] }) =>
    `unknown option ${option} for ${command}${nearest.length === 0 ? '' : `; did you mean ${nearest.join(' or ')}?`} (context-compiler ${command} --help lists its options)`,
  PROVENANCE_HASH_NOT_TEXTS: ({ hash, given }: { hash: string; given: string | null }) => `${given === null ? 'missing' : `${given} is not the hash of the record's text`}; its text hashes to ${hash}`,
  PROVENANCE_NO_ORIGIN: () => 'no provenance origin: write where the record came from first; the hash is filled only beside an origin',
  PROVENANCE_NO_TEXT: () => 'no text to hash',
  NOTHING_TO_JUDGE_AGAINST: () =>
    'the receipt hashes to its own id, but there is nothing to judge its claims against: give the current inputs with --scenario ID|PATH, --records FILE --contract FILE, or --database URL --contract FILE',
  USER_VIEW_NOT_RECEIPT: () => 'a user-view export is not a receipt: it withholds rows, so nothing in it can be checked against a compilation; load the diagnostic receipt instead',
  NOT_RECOGNISED: ({ start }: { start: string | null }) =>
    `not a records JSONL file, contract, scenario or receipt: ${start === null ? 'it is empty' : `it starts ${start}`}, and none has the fields that mark one (a record's id and text, a contract's task and principals, a scenario's contract and records, a receipt's receiptId)`,
  DOCUMENT_TOO_LARGE: ({ megabytes, limit }: { megabytes: number; limit: number }) =>
    `is ${megabytes} MB; a contract, scenario or receipt may be at most ${limit} MB (records belong in a JSONL file, which is read line by line)`,
  SUITE_TOO_LARGE: ({ megabytes, limit }: { megabytes: number; limit: number }) => `is ${megabytes} MB; an expectation suite may be at most ${limit} MB`,
  ONE_RECORDS_AND_CONTRACT: () => 'drop at most one records file and one contract at a time, or a scenario that names its records file',
  FILE_UNREADABLE: ({ reason }: { reason: string }) => reason,
  SUITE_NOT_OPEN: () => 'is not open in the Tests panel: open it first',
  NO_SUITE_IN_FOLDER: ({ suffix }: { suffix: string }) => `a folder with no ${suffix} file in it`,
  NO_BUILTIN_SCENARIO: ({ scenario }: { scenario: string }) => `no built-in scenario ${scenario}; for a scenario file, give scenarioFile`,
  READING_FAILED: ({ failure }: { failure: string }) => `the compiler failed while reading the files, so none was loaded. ${failure}`,

  SAVED_FILES_MISSING: () =>
    'the loaded files were missing from browser storage (its data may have been cleared while the app was open); restored the selection and contract edits that do not depend on them',
  SAVED_WORKSPACE_UNREADABLE: () => 'the saved workspace is not in a format this version reads; starting from the built-in scenarios',
  AS_OF_NOT_STEPPED: ({ asOf, step }: { asOf: string; step: string }) => `cannot step the as-of ${asOf} by ${step}`,
  SUGGESTION_UNKNOWN: ({ code }: { code: string }) => `no suggested change ${code}`,
  SUGGESTION_NOT_CONTRACT: () => 'a change to the record, not to the contract: make it in the record itself',
  LINK_TOO_LONG: ({ length, limit }: { length: number; limit: number }) =>
    `the link is ${length.toLocaleString('en-GB')} characters after “#”; share links are limited to ${limit.toLocaleString('en-GB')}. Nothing was opened.`,
  LINK_NOT_OURS: () => 'not a share link of this version (it should start with “#share=1.”)',
  LINK_NOT_BASE64: () => 'the link is damaged: it is not base64url (was it cut or re-typed?)',
  LINK_NOT_DEFLATE: () => 'the link is damaged: its data does not decompress (was it cut short?)',
  LINK_EXPANDS_TOO_FAR: ({ limit }: { limit: string }) => `the link expands to more than ${limit}; nothing was opened`,
  LINK_NOT_JSON: () => 'the link is damaged: its data is not JSON',
  LINK_FILES_TOO_LARGE: ({ size, limit }: { size: string; limit: string }) =>
    `the loaded files are ${size}; a share link carries at most ${limit} of files. Use "Export scenario" and send the file instead.`,
  LINK_SCENARIO_UNKNOWN: ({ scenario }: { scenario: string }) => `names scenario "${scenario}", which this workspace does not have`,
  LINK_EDIT_NOT_LOADED: ({ scenario }: { scenario: string }) => `edits scenario "${scenario}", which the link does not load`,
  LINK_SELECTION_NOT_LOADED: ({ scenario }: { scenario: string }) => `selects scenario "${scenario}", which the link does not load`,
  LINK_SWITCHES_UNDECLARED: ({ switches, scenario }: { switches: readonly string[]; scenario: string }) => `switches on ${switches.join(', ')}, which scenario "${scenario}" does not declare`,

  EDIT_NO_SUCH_RECORD: ({ id }: { id: string }) => `the scenario has no record "${id}" to replace`,
  EDIT_ID_TAKEN: ({ id, list }: { id: string; list: string }) => `id "${id}" is already used in the scenario's ${list}`,
  EDIT_NOT_IN_VIEW: ({ id }: { id: string }) => `no record "${id}" in this view to edit`,
  EDIT_KEEPS_ID: ({ id }: { id: string }) => `an edit keeps the record's id ("${id}"); to add a record, write a scenario file`,
  EDIT_CHANGES_NOTHING: () => 'the edit changes no field',
  EDIT_NEEDS_LABEL: () => 'a control or late change needs a label of 1 to 120 characters',
  EDIT_NOTHING_TO: ({ action }: { action: string }) => `nothing to ${action}`,
} as const;

export type IssueCode = keyof typeof ISSUES;

/** Where an issue is: the file, its line when known, and the JSON path as users read it. */
export interface IssuePlace {
  readonly file: string;
  readonly line?: number | undefined;
  readonly path: string;
}

/** An input issue: a code and its arguments at a place, with the catalogue's words for them. */
export function inputIssue<C extends IssueCode>(place: IssuePlace, code: C, ...[args]: Parameters<(typeof ISSUES)[C]> extends [] ? [] : [Parameters<(typeof ISSUES)[C]>[0]]): InputIssue {
  const given: IssueArgs = (args ?? {}) as IssueArgs;
  const message = (ISSUES[code] as (args: IssueArgs) => string)(given);
  return { file: place.file, ...(place.line === undefined ? {} : { line: place.line }), path: place.path, code, args: given, message };
}

/** A refusal's issues, or the refusal itself as one issue at `place` when it came without any. */
export function issuesOf(error: CompileError, place: IssuePlace): readonly InputIssue[] {
  return error.issues && error.issues.length > 0 ? error.issues : [inputIssue(place, 'REFUSED', { reason: error.message })];
}

export type PassName = 'validate' | 'resolve' | 'type-check' | 'admit' | 'plan' | 'attest' | 'controls';

/**
 * One problem in one input: where (file, line, JSON path), its code and arguments, and the words the catalogue
 * (`ISSUES` in reasons.ts) gives them. Made only by `inputIssue`, so no message is worded anywhere else.
 */
export interface InputIssue {
  readonly file: string;
  readonly line?: number;
  readonly path: string;
  readonly code: IssueCode;
  readonly args: IssueArgs;
  readonly message: string;
}

/** A compilation that stopped. Plain data, returned rather than thrown, so every caller must look at it. */
export interface CompileError {
  readonly pass: PassName;
  readonly code: ReasonCode;
  readonly message: string;
  readonly recordId?: string;
  /** The fact behind a refusal, when there is one (always for a fail-closed outcome). */
  readonly fact?: Fact;
  readonly issues?: readonly InputIssue[];
}
