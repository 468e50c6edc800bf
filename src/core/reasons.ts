/**
 * The one catalogue of reason codes. Every trace row, failure and drill verdict carries one of these;
 * the UI, the CLI and the docs read their wording from here.
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
  SELECTED_EVIDENCE: { category: 'selected', summary: 'Accepted evidence for a required proposition; planned before ordinary ranking.' },
  SELECTED_RANKED: { category: 'selected', summary: 'Legal optional record ranked by relevance inside the admitted set and within budget.' },

  EXCLUDE_PROJECT: { category: 'boundary', summary: 'Belongs to another project or legal entity.' },
  EXCLUDE_SCOPE: { category: 'boundary', summary: 'Outside the scopes the contract allows.' },
  EXCLUDE_IDENTITY: { category: 'boundary', summary: 'About another identity, or its identity is ambiguous (never resolved by score).' },
  EXCLUDE_FUTURE: { category: 'boundary', summary: 'Known or effective only after the as-of time: a future reveal.' },
  EXCLUDE_EXPIRED: { category: 'boundary', summary: 'Its validity ended before the as-of time.' },
  EXCLUDE_SUPERSEDED: { category: 'lifecycle', summary: 'Replaced by a record in force at the as-of time.' },
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

  ADMISSION_DIVERGENCE: { category: 'integrity', summary: 'The SQL candidate generator and the independent evaluator disagree: nothing is emitted.' },
  LOWERING_UNSUPPORTED: { category: 'integrity', summary: 'The contract cannot be lowered to SQL without weakening it: compilation refuses.' },

  RECEIPT_CURRENT: { category: 'staleness', summary: 'Compiling the receipt\'s declared inputs, which are the current ones, reproduces it byte for byte: continue.' },
  STALE_CONTRACT_FINGERPRINT: { category: 'staleness', summary: 'The contract changed since the receipt: recompile before continuing.' },
  STALE_RECORD_SET: { category: 'staleness', summary: 'The records changed since the receipt: recompile before continuing.' },
  STALE_PACKET_FINGERPRINT: { category: 'staleness', summary: 'The packet the current inputs compile to differs from the receipt: recompile.' },
  STALE_ENGINE_VERSION: { category: 'staleness', summary: 'The receipt was made by another schema or engine version: recompile.' },
  LATE_USER_INPUT_NOT_APPLIED: { category: 'staleness', summary: 'A declared late change is not reflected in the receipt: recompile.' },
  RECEIPT_FAIL_CLOSED: { category: 'staleness', summary: 'The receipt records a fail-closed compilation: there is nothing to continue.' },
  RECEIPT_INVALID: { category: 'staleness', summary: 'The receipt does not hash to its own id: it was altered or is not a receipt.' },
  RECEIPT_MISMATCH: { category: 'staleness', summary: 'Compiling the receipt\'s own declared inputs does not reproduce it: it claims what its inputs do not produce. Do not continue.' },
  STALE_CONTROLS: { category: 'staleness', summary: 'The receipt was compiled with other controls or late changes than the current inputs: recompile.' },
  CURRENT_INPUTS_FAIL_CLOSED: { category: 'staleness', summary: 'The current inputs fail closed: block until the contract or records are fixed.' },

  INVALID_INPUT: { category: 'input', summary: 'A file does not match its format.' },
  DUPLICATE_ID: { category: 'input', summary: 'Two records share one id.' },
  DANGLING_REFERENCE: { category: 'input', summary: 'A record or control names a record that does not exist.' },
  SUPERSESSION_CYCLE: { category: 'input', summary: 'Supersession links form a cycle, so no version can govern.' },
  AMBIGUOUS_SUBJECT: { category: 'input', summary: "The contract's subject matches more than one identity." },
  UNKNOWN_CONTROL: { category: 'input', summary: 'The scenario has no control or late change with that id.' },
} as const);

export type ReasonCode = keyof typeof REASONS;

/** Categories whose rows the user view shows only as a count: naming them would disclose what the deny protects. */
export function isBoundedDisclosure(code: ReasonCode): boolean {
  return REASONS[code].category === 'authorisation' || code === 'REQUIRED_NOT_AUTHORISED';
}

export function isReasonCode(value: string): value is ReasonCode {
  return Object.hasOwn(REASONS, value);
}
