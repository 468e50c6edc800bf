import type { CompileError } from './errors';
import type { RankingMode } from './format/contract';
import type { ReasonCode } from './reasons';

/** The legality gates, in the fixed order the admit pass applies them. The first failure names the reason. */
export const GATE_ORDER = [
  'project',
  'scope',
  'identity',
  'time',
  'supersession',
  'lifecycle',
  'source',
  'authority',
  'review',
  'provenance',
  'sensitivity',
  'authorisation',
  'deny',
  'evidence',
] as const;

export type GateName = (typeof GATE_ORDER)[number];

export type Decision = 'selected' | 'excluded';

/** One row per candidate record: exactly one decision, one reason code and the fact that decided it. */
export interface TraceRow {
  readonly id: string;
  readonly decision: Decision;
  readonly code: ReasonCode;
  /** The boundary fact, e.g. `valid_to 2026-08-28 < as_of 2026-08-30`. */
  readonly fact: string;
  /** The first gate that failed, or null for records that passed every gate. */
  readonly gate: GateName | null;
  /** Every gate that failed, so disclosure can hide a record that a deny also excludes. */
  readonly failedGates: readonly GateName[];
  readonly tokens: number;
  readonly required: boolean;
  /** Relevance score (higher is better; -bm25 or the declared score), null when unranked. */
  readonly score: number | null;
  /** 1-based position among ranked admitted optionals, null when unranked. */
  readonly rank: number | null;
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
  readonly selected: readonly string[];
  readonly tokensUsed: number;
  readonly tokenBudget: number;
  /** Selected records that the legality gates would have refused. */
  readonly illegal: readonly string[];
  readonly requiredMissed: readonly string[];
}

export interface Receipt {
  readonly receiptId: string;
  readonly schemaVersion: string;
  readonly engineVersion: string;
  readonly outcome: 'packet' | 'fail_closed';
  readonly task: string;
  readonly asOf: string;
  readonly ranking: RankingMode;
  readonly contractFingerprint: string;
  readonly recordSetDigest: string;
  readonly packetFingerprint: string | null;
  readonly controls: readonly string[];
  readonly lateChanges: readonly string[];
  readonly tokenBudget: number;
  readonly tokensUsed: number;
  readonly selected: readonly string[];
  readonly evidence: readonly { proposition: string; state: EvidenceState; records: readonly string[] }[];
  readonly decisionBlockedBy: readonly string[];
  readonly failure: { pass: string; code: ReasonCode; recordId: string | null; fact: string } | null;
  readonly trace: readonly {
    id: string;
    decision: Decision;
    code: ReasonCode;
    fact: string;
    tokens: number;
    required: boolean;
    score: number | null;
  }[];
}

interface CompileOutcomeBase {
  readonly trace: readonly TraceRow[];
  readonly baselines: { readonly naive: BaselinePacket; readonly postFilter: BaselinePacket };
  readonly receipt: Receipt;
  readonly counts: { readonly candidates: number; readonly admitted: number; readonly selected: number; readonly excluded: number };
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
