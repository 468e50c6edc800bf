import type { CompileError, UnreadableRecord } from './errors';
import type { Contract } from './format/contract';
import type { FactArgs, FactId, ReasonCode } from './reasons';
import type { Decision, GateName } from './gate-names';

export { GATE_ORDER, type Decision, type GateName } from './gate-names';

/**
 * One row per candidate record: exactly one decision, one reason code and the fact that decided it.
 * The receipt carries these rows as they are.
 */
export interface TraceRow {
  readonly id: string;
  /** The record's fingerprint: which version of the record this decision is about. */
  readonly fingerprint: string;
  readonly decision: Decision;
  readonly code: ReasonCode;
  /** The boundary fact as data; `renderFact` words it, e.g. `valid_to 2026-08-28 < as_of 2026-08-30`. */
  readonly fact: FactId;
  readonly args: FactArgs;
  /**
   * Every gate the record fails, in gate order (empty when it passed every gate), so disclosure can hide a record a
   * deny also excludes.
   */
  readonly gates: readonly GateName[];
  readonly tokens: number;
  readonly required: boolean;
}

/**
 * One entry of the ranking section: a ranked admitted optional's place and score. Scores and ranks live here,
 * not in trace rows, so a change of the admitted set's statistics rewrites this section and not every row.
 */
export interface RankedEntry {
  readonly id: string;
  /** 1-based position among ranked admitted optionals. */
  readonly rank: number;
  /** Relevance score (higher is better; -bm25 over the admitted set, or the declared score). */
  readonly score: number;
}

/**
 * How much of the trace a receipt attests: `full` has one row per record; `candidates` has rows only for the
 * required records, the admitted evidence and the ranked candidates down to the budget cut, and counts the rest.
 */
export type Attestation = 'full' | 'candidates';

export const ATTESTATIONS: readonly Attestation[] = ['full', 'candidates'];

/** What a `candidates` receipt says of the records it lists no row for. */
export interface ReceiptOmissions {
  /**
   * The digest of the admitted set (id and fingerprint of each admitted record, computed as the record-set digest is).
   */
  readonly admittedDigest: string;
  /** How many records have no row, per reason code. */
  readonly rows: Readonly<Partial<Record<ReasonCode, number>>>;
  /**
   * How many of them fail an authorisation or deny gate: the records without a row that the user view withholds
   * (disclosure.ts), which it counts with those it leaves out of the trace.
   */
  readonly withheld: number;
}

export type EvidenceState = 'supported' | 'contradicted' | 'unknown';

export interface EvidenceSlot {
  readonly proposition: string;
  readonly description: string;
  readonly acceptedClasses: readonly string[];
  readonly blocking: boolean;
  readonly state: EvidenceState;
  /** Packet records of an accepted class that support or contradict the proposition. */
  readonly supporting: readonly string[];
  readonly contradicting: readonly string[];
  /** Packet records that mention the proposition with a class the contract does not accept for it. */
  readonly notAccepted: readonly string[];
  /** Admitted accepted evidence that the budget pushed out of the packet (citation displacement). */
  readonly displaced: readonly string[];
}

export interface PacketEntry {
  readonly id: string;
  readonly title: string;
  readonly text: string;
  readonly tokens: number;
  readonly required: boolean;
  readonly code: ReasonCode;
  readonly sourceClass: string;
  readonly authorityClass: string;
  readonly provenance: string;
}

export interface Packet {
  readonly entries: readonly PacketEntry[];
  /** The packet body that is fingerprinted: entries with their ids, classes, provenance and token accounting. */
  readonly body: string;
  readonly tokensUsed: number;
  readonly tokenBudget: number;
}

/** A relevance-only packet under the same budget, for comparison. */
export interface BaselinePacket {
  readonly kind: 'naive' | 'post-filter';
  /** How many of relevance's top k it chose from before the budget: post-filter counts only the legal ones. */
  readonly ranked: number;
  readonly selected: readonly string[];
  readonly tokensUsed: number;
  readonly tokenBudget: number;
  /** Selected records that the legality gates would have refused. */
  readonly illegal: readonly string[];
  readonly requiredMissed: readonly string[];
}

export interface ReceiptFailure {
  readonly pass: string;
  readonly code: ReasonCode;
  readonly recordId: string | null;
  readonly fact: FactId;
  readonly args: FactArgs;
}

/** Which adapter admitted, and the plan it says it executed (the digest it echoed, equal to the plan's). */
export interface ReceiptAdmission {
  /** The adapter's stable name: `sqlite`, `postgresql`. */
  readonly adapter: string;
  /** The adapter's own version (its lowering), not the store's build: see docs/FORMAT.md. */
  readonly adapterVersion: string;
  readonly planDigest: string;
}

/** Which statistics the compiled packet's scores used: the receipt says so. */
export type RankingStatistics =
  | {
      readonly mode: 'bm25';
      /** Document count, token total and term document counts of the admitted set alone. */
      readonly statistics: 'admitted';
      readonly documents: number;
      /** Tokens in the admitted set's titles and texts together (bm25's average length is tokens / documents). */
      readonly tokens: number;
      /** For each query term, how many admitted records match it (bm25's document frequency). */
      readonly terms: readonly { readonly term: string; readonly documents: number }[];
      readonly weights: { readonly title: 2; readonly text: 1 };
    }
  | { readonly mode: 'declared' };

export interface Receipt {
  readonly receiptId: string;
  readonly schemaVersion: string;
  readonly engineVersion: string;
  /** Which rows the trace holds. */
  readonly attestation: Attestation;
  readonly outcome: 'packet' | 'fail_closed';
  /** The contract compiled, normalised (set-like lists sorted): what the facts' wording quotes. */
  readonly contract: Contract;
  readonly contractFingerprint: string;
  readonly recordSetDigest: string;
  readonly packetFingerprint: string | null;
  readonly controls: readonly string[];
  readonly lateChanges: readonly string[];
  /** Which statistics the scores used. */
  readonly ranking: RankingStatistics;
  /** The ranking section: the ranked records that have a row in the trace, in rank order. */
  readonly ranked: readonly RankedEntry[];
  /** Who admitted the candidates, and the plan they said they executed. */
  readonly executedBy: ReceiptAdmission;
  readonly tokensUsed: number;
  readonly selected: readonly string[];
  readonly evidence: readonly { proposition: string; state: EvidenceState; records: readonly string[] }[];
  readonly decisionBlockedBy: readonly string[];
  readonly failure: ReceiptFailure | null;
  readonly trace: readonly TraceRow[];
  /** `candidates` only (null in a full receipt): what the trace leaves out. */
  readonly omitted: ReceiptOmissions | null;
}

export interface Baselines {
  readonly naive: BaselinePacket;
  readonly postFilter: BaselinePacket;
}

interface CompileOutcomeBase {
  /**
   * One row per record, whatever the receipt's attestation; when a store answered admission (answered-admission.ts),
   * the receipt's rows only, and `counts.candidates` counts every record.
   */
  readonly trace: readonly TraceRow[];
  /** Every ranked admitted optional, in rank order (a `candidates` receipt lists only those it has rows for). */
  readonly ranked: readonly RankedEntry[];
  readonly receipt: Receipt;
  /** Ids of the records that passed every gate (the admitted set). */
  readonly admitted: ReadonlySet<string>;
  readonly counts: {
    readonly candidates: number;
    readonly admitted: number;
    readonly selected: number;
    readonly excluded: number;
  };
  /** Records that could not be read or judged: in no trace row; the user view counts them among the withheld. */
  readonly unreadable: readonly UnreadableRecord[];
}

export interface CompiledPacket extends CompileOutcomeBase {
  readonly status: 'packet';
  readonly packet: Packet;
  readonly evidence: readonly EvidenceSlot[];
  /** Blocking propositions that are not supported: the decision is reserved for a person. */
  readonly decisionBlockedBy: readonly string[];
}

export interface FailedClosed extends CompileOutcomeBase {
  readonly status: 'fail_closed';
  readonly failure: CompileError;
}

/** A compilation that ran to the end: a packet, or a principled refusal with its trace. */
export type CompileOutcome = CompiledPacket | FailedClosed;

export type DrillAction = 'continue' | 'recompile_required' | 'block';

export interface DrillVerdict {
  readonly action: DrillAction;
  readonly code: ReasonCode;
  readonly message: string;
  readonly priorReceiptId: string;
  readonly currentReceiptId: string | null;
}
