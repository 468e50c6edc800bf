import { asOfInstant } from './as-of';
import { compareStrings, sortedSet } from './canonical';
import type { Contract } from './format/contract';
import { formatInstantShort } from './format/time';
import { GATE_ORDER, type Decision } from './gate-names';

/**
 * The one catalogue of reason codes and of the facts that back them. Every trace row, failure and drill
 * verdict carries a reason code; every trace row and failure also carries a fact: a fact id plus typed
 * arguments. The wording of both lives only here, and of suggestions and empty baselines beside it
 * (suggestions.ts); the UI, the CLI and the docs read it from here.
 */
export type ReasonCategory =
  | 'selected'
  | 'boundary'
  | 'evidence'
  | 'lifecycle'
  | 'authorisation'
  | 'planning'
  | 'required'
  | 'integrity'
  | 'staleness'
  | 'input';

interface ReasonEntry {
  readonly category: ReasonCategory;
  readonly summary: string;
}

function reasons<const T extends Record<string, ReasonEntry>>(entries: T): T {
  return entries;
}

export const REASONS = reasons({
  SELECTED_REQUIRED: { category: 'selected', summary: 'Required by the contract; protected before any ranking.' },
  SELECTED_EVIDENCE: {
    category: 'selected',
    summary: 'Accepted evidence for a required proposition; planned before ordinary ranking.',
  },
  SELECTED_RANKED: {
    category: 'selected',
    summary: 'Legal optional record ranked by relevance inside the admitted set and within budget.',
  },

  EXCLUDE_PROJECT: { category: 'boundary', summary: 'Belongs to another project or legal entity.' },
  EXCLUDE_SCOPE: { category: 'boundary', summary: 'Outside the scopes the contract allows.' },
  EXCLUDE_IDENTITY: {
    category: 'boundary',
    summary: 'About another identity, or its identity is ambiguous (never resolved by score).',
  },
  EXCLUDE_FUTURE: { category: 'boundary', summary: 'Known or effective only after the as-of time: a future reveal.' },
  EXCLUDE_EXPIRED: { category: 'boundary', summary: 'Its validity ended before the as-of time.' },
  EXCLUDE_SUPERSEDED: { category: 'lifecycle', summary: 'Replaced by a record in force at the as-of time.' },
  EXCLUDE_DANGLING_SUPERSESSION: {
    category: 'lifecycle',
    summary: 'Supersedes a record that is not among the records: its place in a version history cannot be checked.',
  },
  EXCLUDE_SUPERSESSION_CYCLE: {
    category: 'lifecycle',
    summary: 'Supersedes itself, or its supersession links lead back to it: no version of the cycle can govern.',
  },
  EXCLUDE_LIFECYCLE: {
    category: 'lifecycle',
    summary: 'In a lifecycle state the contract forbids (draft, rejected, generated, …).',
  },
  EXCLUDE_SOURCE: { category: 'evidence', summary: 'Its source class is not allowed by the contract.' },
  EXCLUDE_AUTHORITY: { category: 'evidence', summary: 'Its authority class is not allowed by the contract.' },
  EXCLUDE_REVIEW: { category: 'evidence', summary: 'Its review state is not one the contract accepts.' },
  EXCLUDE_PROVENANCE: {
    category: 'evidence',
    summary: 'No verifiable provenance (missing, or the content hash does not match).',
  },
  EXCLUDE_SENSITIVITY: { category: 'lifecycle', summary: 'Its sensitivity is forbidden for this task.' },
  EXCLUDE_NOT_AUTHORISED: {
    category: 'authorisation',
    summary: 'A principal in the chain holds none of the roles allowed to read it.',
  },
  EXCLUDE_PURPOSE: { category: 'authorisation', summary: 'Not released for the purpose of this task.' },
  EXCLUDE_DENY_LABEL: {
    category: 'authorisation',
    summary: 'Carries a label the contract denies; deny dominates every permit.',
  },
  EXCLUDE_EVIDENCE_CLASS: {
    category: 'evidence',
    summary: 'Claims a required proposition, but its evidence class is not accepted for it.',
  },
  EXCLUDE_NOT_NEEDED: {
    category: 'planning',
    summary: 'Legal, but supports no required proposition of a typed-evidence contract.',
  },
  EXCLUDE_NOT_RELEVANT: {
    category: 'planning',
    summary: 'Legal, but does not match the query and is not needed as evidence.',
  },
  EXCLUDE_BUDGET: {
    category: 'planning',
    summary: 'Legal and ranked, but pruned because it does not fit the remaining token budget.',
  },
  EXCLUDE_FAIL_CLOSED: {
    category: 'planning',
    summary: 'Legal, but no packet was emitted because a required obligation failed.',
  },

  REQUIRED_NOT_FOUND: { category: 'required', summary: 'A required record is absent: no packet is emitted.' },
  REQUIRED_ILLEGAL: { category: 'required', summary: 'A required record fails a legality gate: no packet is emitted.' },
  REQUIRED_NOT_AUTHORISED: {
    category: 'required',
    summary: 'A required record is outside the authorised scope: no packet is emitted.',
  },
  REQUIRED_MISSING_PROVENANCE: {
    category: 'required',
    summary: 'A required record has no verifiable provenance: no packet is emitted.',
  },
  REQUIRED_OVER_BUDGET: {
    category: 'required',
    summary: 'The required records do not fit the token budget: no packet is emitted.',
  },

  ADAPTER_MISMATCH: {
    category: 'integrity',
    summary:
      "The adapter's candidates, or the plan it says it executed, differ from the reference evaluator's: nothing is emitted.",
  },
  ADAPTER_INCAPABLE: {
    category: 'integrity',
    summary: 'The plan needs semantics the adapter does not preserve: compilation refuses rather than approximate.',
  },
  ADAPTER_INCOMPLETE: {
    category: 'integrity',
    summary:
      'The adapter returned no complete answer (a timeout, a dropped connection, a partial result): ' +
      'nothing is emitted.',
  },
  ADAPTER_SNAPSHOT_SPLIT: {
    category: 'integrity',
    summary:
      "The store's shards hold different snapshots of the records (a load reached some and not the others): nothing is emitted.",
  },
  LOWERING_UNSUPPORTED: {
    category: 'integrity',
    summary:
      'The plan cannot be lowered to the store without weakening it (an unsupported operator or limit): ' +
      'compilation refuses.',
  },

  RECEIPT_CURRENT: {
    category: 'staleness',
    summary:
      "Compiling the receipt's declared inputs, which are the current ones, reproduces it byte for byte: continue.",
  },
  STALE_CONTRACT_FINGERPRINT: {
    category: 'staleness',
    summary: 'The contract changed since the receipt: recompile before continuing.',
  },
  STALE_RECORD_SET: {
    category: 'staleness',
    summary: 'The records changed since the receipt: recompile before continuing.',
  },
  STALE_PACKET_FINGERPRINT: {
    category: 'staleness',
    summary: 'The packet the current inputs compile to differs from the receipt: recompile.',
  },
  STALE_ENGINE_VERSION: {
    category: 'staleness',
    summary: 'The receipt was made by another schema or engine version: recompile.',
  },
  LATE_USER_INPUT_NOT_APPLIED: {
    category: 'staleness',
    summary: 'A declared late change is not reflected in the receipt: recompile.',
  },
  RECEIPT_FAIL_CLOSED: {
    category: 'staleness',
    summary: 'The receipt records a fail-closed compilation: there is nothing to continue.',
  },
  RECEIPT_INVALID: {
    category: 'staleness',
    summary: 'The receipt does not hash to its own id: it was altered or is not a receipt.',
  },
  RECEIPT_MISMATCH: {
    category: 'staleness',
    summary:
      "Compiling the receipt's own declared inputs does not reproduce it: it claims what its inputs do not produce. Do not continue.",
  },
  STALE_CONTROLS: {
    category: 'staleness',
    summary: 'The receipt was compiled with other controls or late changes than the current inputs: recompile.',
  },
  CURRENT_INPUTS_FAIL_CLOSED: {
    category: 'staleness',
    summary: 'The current inputs fail closed: block until the contract or records are fixed.',
  },

  INVALID_INPUT: { category: 'input', summary: 'A file does not match its format.' },
  EXCLUDE_UNREADABLE: {
    category: 'input',
    summary:
      'Could not be read or judged as a record (not JSON, not in the format, or a second copy of an id ' +
      'held by a record the caller may not see): inadmissible, and counted among the withheld in the user ' +
      'view.',
  },
  DUPLICATE_ID: { category: 'input', summary: 'Two records share one id.' },
  DANGLING_REFERENCE: { category: 'input', summary: 'A record or control names a record that does not exist.' },
  AMBIGUOUS_SUBJECT: { category: 'input', summary: "The contract's subject matches more than one identity." },
  UNKNOWN_CONTROL: { category: 'input', summary: 'The scenario has no control or late change with that id.' },
  DATABASE_UNREACHABLE: {
    category: 'input',
    summary: 'The database could not be reached, or refused the connection: nothing was read or written.',
  },
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

export interface FactEntry {
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
  SUBJECT_AMBIGUOUS: {
    template: 'subject "{subject}" is ambiguous: matches [{identities}]',
    args: { subject: 'name', identities: 'names' },
  },
  SUBJECT_MISMATCH: {
    template: 'subject {identity} ≠ contract subject {expected}',
    args: { identity: 'name', expected: 'name' },
  },
  KNOWN_AFTER_AS_OF: { template: 'known_at {knownAt} > as_of {contract.asOf}', args: { knownAt: 'instant' } },
  VALID_FROM_AFTER_AS_OF: {
    template: 'valid_from {validFrom} > as_of {contract.asOf}',
    args: { validFrom: 'instant' },
  },
  VALID_TO_BEFORE_AS_OF: { template: 'valid_to {validTo} < as_of {contract.asOf}', args: { validTo: 'instant' } },
  SUPERSEDED_BY: {
    template: 'superseded by {successor} (in force from {since})',
    args: { successor: 'record', since: 'instant' },
  },
  SUPERSEDES_MISSING: { template: 'supersedes {targets}, not among the records', args: { targets: 'names' } },
  SUPERSEDES_ITSELF: { template: 'supersedes itself: no version can govern', args: {} },
  ON_SUPERSESSION_CYCLE: {
    template: 'superseded by {successors} on a supersession cycle: no version can govern',
    args: { successors: 'records' },
  },
  /** The one declared exception to noninterference, as the user view words it (docs/FORMAT.md). */
  SUPERSEDED_BY_WITHHELD: { template: 'superseded by a record you may not see', args: {} },
  LIFECYCLE_FORBIDDEN: { template: 'lifecycle {lifecycle} is forbidden by the contract', args: { lifecycle: 'name' } },
  SOURCE_NOT_ALLOWED: {
    template: 'source class {sourceClass} not in allowed [{contract.allowedSourceClasses}]',
    args: { sourceClass: 'name' },
  },
  AUTHORITY_NOT_ALLOWED: {
    template: 'authority class {authorityClass} not in allowed [{contract.allowedAuthorityClasses}]',
    args: { authorityClass: 'name' },
  },
  REVIEW_NOT_ACCEPTED: {
    template: 'review state {reviewState} not in accepted [{contract.acceptedReviewStates}]',
    args: { reviewState: 'name' },
  },
  PROVENANCE_MISSING: { template: 'no provenance recorded', args: {} },
  CONTENT_HASH_MISMATCH: {
    template: 'content hash {contentHash}… does not match the text',
    args: { contentHash: 'name' },
  },
  SENSITIVITY_FORBIDDEN: {
    template: 'sensitivity {sensitivity} is forbidden for this task',
    args: { sensitivity: 'name' },
  },
  PRINCIPAL_LACKS_ROLE: {
    template: '{kind} {principal} holds none of the allowed roles [{allowedRoles}]',
    args: { kind: 'name', principal: 'name', allowedRoles: 'names' },
  },
  PURPOSE_NOT_RELEASED: {
    template: 'purpose {contract.purpose} not in released purposes [{purposes}]',
    args: { purposes: 'names' },
  },
  LABEL_DENIED: { template: 'label {labels} is denied by the contract', args: { labels: 'names' } },
  CLAIMS_NO_REQUIRED_PROPOSITION: { template: 'supports or contradicts no required proposition', args: {} },
  EVIDENCE_CLASS_NOT_ACCEPTED: {
    template: 'class {evidenceClass} is not accepted for {proposition} (accepts {accepted})',
    args: { evidenceClass: 'name', proposition: 'name', accepted: 'names' },
  },

  REQUIRED_PROTECTED: {
    template: 'required by the contract; {tokens} tokens protected before ranking',
    args: { tokens: 'count' },
  },
  EVIDENCE_PLANNED: {
    template: 'accepted {evidenceClass} evidence for {propositions}; {used} of {contract.tokenBudget} tokens used',
    args: { evidenceClass: 'name', propositions: 'names', used: 'count' },
  },
  RANKED_SELECTED: {
    template: 'rank {rank} of {ranked} by {contract.ranking}; {used} of {contract.tokenBudget} tokens used',
    args: { rank: 'count', ranked: 'count', used: 'count' },
  },
  BUDGET_EXCEEDED: {
    template: 'needs {tokens} tokens; {remaining} of {contract.tokenBudget} remain',
    args: { tokens: 'count', remaining: 'count' },
  },
  NO_QUERY_MATCH: { template: 'no query term matches its title or text', args: {} },
  NO_DECLARED_SCORE: { template: 'no declared relevance score', args: {} },
  PACKET_WITHHELD: {
    template: 'no packet is emitted: a required obligation failed ({failure})',
    args: { failure: 'code' },
  },
  REQUIRED_ABSENT: {
    template: 'required record {record} is not among the supplied records',
    args: { record: 'record' },
  },
  REQUIRED_TOKENS_OVER_BUDGET: {
    template: 'required records need {tokens} tokens > budget {contract.tokenBudget}',
    args: { tokens: 'count' },
  },
  DETAIL_WITHHELD: { template: 'its detail names a record outside the authorised scope', args: {} },
} as const);

/** Each fact's argument names in canonical (code unit) order, from the catalogue. */
export const ARG_ORDER = new Map(
  Object.entries(FACTS).map(([fact, entry]) => [fact, Object.keys(entry.args).sort(compareStrings)]),
);

export type FactId = keyof typeof FACTS;

const DECISIONS: readonly Decision[] = ['selected', 'excluded'];

/**
 * The JSON string of every name a trace row repeats (reason codes, fact ids, argument names, gates,
 * decisions), written once: a receipt quotes a few dozen names once per record, and a lookup is
 * cheaper than `JSON.stringify`.
 */
const QUOTED_NAMES: ReadonlyMap<string, string> = new Map(
  [...Object.keys(REASONS), ...Object.keys(FACTS), ...[...ARG_ORDER.values()].flat(), ...GATE_ORDER, ...DECISIONS].map(
    (name) => [name, JSON.stringify(name)],
  ),
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

/**
 * The ids of other records a fact names (its `record` and `records` arguments). A user view asks this of every row it
 * keeps.
 */
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
