import type { Audience } from '../core/disclosure';
import type { CompileError, InputIssue } from '../core/errors';
import type { Contract } from '../core/format/contract';
import type { ReasonCode } from '../core/reasons';
import type { EmptyBaselineArgs, EmptyBaselineCode } from '../core/suggestions';
import type { EvidenceSlot, EvidenceState } from '../core/result';
import type { TracePage } from './protocol-debugger';
import type { ChangeMarks } from './protocol-marks';
import type { ChangeText } from './protocol-workspace';

/*
 * What a compilation shows: its three packet columns, the evidence tried for each proposition, its failure; part of
 * the worker's protocol (protocol.ts re-exports it).
 */

export interface ColumnEntry {
  readonly id: string;
  readonly title: string;
  readonly tokens: number;
  readonly required: boolean;
  /** The legality gates would have refused it. */
  readonly illegal: boolean;
  /**
   * Its code in the compiled trace: the first gate it fails when illegal, else what the compiler decided (selected,
   * budget…).
   */
  readonly code: ReasonCode;
}

/** How one column answers one required proposition, from its own entries only. */
export interface PropositionCoverage {
  readonly proposition: string;
  readonly blocking: boolean;
  /**
   * As the plan judges a packet's evidence: contradicted when a legal entry of an accepted class contradicts it,
   * else supported when one supports it, else unknown. Only a supported proposition is answered.
   */
  readonly state: EvidenceState;
  /** Legal entries of an accepted class that support it. */
  readonly supporting: readonly string[];
  /** Legal entries of an accepted class that contradict it: the proposition is contradicted, not answered. */
  readonly contradicting: readonly string[];
  /** Entries of an accepted class that the gates would refuse: they answer it illegally. */
  readonly illegal: readonly string[];
  /** Entries that mention it with a class the contract does not accept for it (a note is not an approval). */
  readonly notAccepted: readonly string[];
}

export type ColumnKind = 'naive' | 'post-filter' | 'compiled';

export interface PacketColumn {
  readonly kind: ColumnKind;
  /** False when the compiler failed closed: the column lists nothing and nothing may be copied. */
  readonly emitted: boolean;
  readonly entries: readonly ColumnEntry[];
  readonly tokensUsed: number;
  readonly tokenBudget: number;
  readonly illegalCount: number;
  readonly requiredMissed: readonly string[];
  /** One per required proposition, in the contract's order. */
  readonly coverage: readonly PropositionCoverage[];
  /**
   * Why a baseline that holds nothing is empty (worded by `EMPTY_BASELINE_NOTES`); null when it holds records, and for
   * the compiled packet.
   */
  readonly emptyNote: { readonly code: EmptyBaselineCode; readonly args: EmptyBaselineArgs } | null;
}

/** Why one record was or was not used as evidence for a proposition. */
export type AttemptOutcome = 'used' | 'left_out' | 'class_not_accepted' | 'refused';

export interface EvidenceAttempt {
  readonly id: string;
  /** Whether the record claims to support or to contradict the proposition. */
  readonly claim: 'supports' | 'contradicts';
  readonly evidenceClass: string;
  readonly outcome: AttemptOutcome;
  /** Its trace row's code and fact: the gate that refused it, or what the plan decided. */
  readonly code: ReasonCode;
  readonly fact: string;
}

/**
 * Attempts a compile view carries per proposition; `evidenceAttempts` fetches the rest a page at a time, since a
 * proposition can have thousands of claimants and cloning them all into every view (and rendering them) blocks the
 * page.
 */
export const ATTEMPTS_PAGE = 50;

/**
 * Every record that claims a required proposition, and what became of it; records the view withholds are
 * left out (and not counted). Used attempts first, then by id. A compile view carries the first page
 * (`offset` 0); `evidenceAttempts` fetches the next ones.
 */
export interface EvidenceAttempts {
  readonly proposition: string;
  readonly acceptedClasses: readonly string[];
  /** Attempts in all. */
  readonly total: number;
  /** Where `attempts` starts among them. */
  readonly offset: number;
  readonly attempts: readonly EvidenceAttempt[];
}

export interface FailureView {
  readonly code: ReasonCode;
  readonly summary: string;
  readonly message: string;
  readonly recordId: string | null;
  readonly fact: string | null;
}

/** A control or late change that this compilation applied, and what its patches touched. */
export interface AppliedChange {
  readonly id: string;
  readonly label: string;
  readonly kind: 'control' | 'late-change';
  /** Top-level contract fields its patches set, e.g. `tokenBudget`. */
  readonly contractFields: readonly string[];
  /** Counts only: naming the records could name one the user view withholds. */
  readonly records: { readonly added: number; readonly removed: number; readonly patched: number };
}

export interface CompileView {
  /** Which compilation this is (they are counted), for `awaitBaselines`. */
  readonly compilation: number;
  readonly scenarioKey: string;
  readonly audience: Audience;
  /**
   * Diagnostic view only: the whole-corpus index the baselines need is still being built in the background
   * (records indexed so far); the naive and post-filter columns are null until `awaitBaselines` resolves.
   */
  readonly baselineIndexing: { readonly done: number; readonly total: number } | null;
  readonly status: 'packet' | 'fail_closed';
  /**
   * In the user view its own rows only (`candidates`, `excluded`), the withheld records counted apart (0 in the
   * diagnostic view).
   */
  readonly counts: {
    readonly candidates: number;
    readonly admitted: number;
    readonly selected: number;
    readonly excluded: number;
    readonly withheld: number;
  };
  /** Diagnostic view only (null in the user view): the receipt id and the record-set digest cover withheld records. */
  readonly receiptId: string | null;
  /**
   * User view only (null in the diagnostic view): the user-view id, a digest of what it shows (docs/FORMAT.md,
   * "User-view export").
   */
  readonly userViewId: string | null;
  readonly contractFingerprint: string;
  readonly recordSetDigest: string | null;
  readonly packetFingerprint: string | null;
  readonly tokensUsed: number;
  readonly tokenBudget: number;
  /** The baselines are null in the user view: they rank with statistics of records it withholds. */
  readonly columns: {
    readonly naive: PacketColumn | null;
    readonly postFilter: PacketColumn | null;
    readonly compiled: PacketColumn;
  };
  readonly failure: FailureView | null;
  readonly evidence: readonly EvidenceSlot[];
  /**
   * Which records tried each required proposition and why each was used or refused (also when failed closed).
   * Null in the answer to a compile or a change of view over a large record set: the page asks for them with
   * `firstEvidenceAttempts` once the result is on screen.
   */
  readonly evidenceAttempts: readonly EvidenceAttempts[] | null;
  readonly decisionBlockedBy: readonly string[];
  /** The copyable packet with its manifest header; null when no packet was emitted. */
  readonly packetText: string | null;
  readonly withheldCount: number;
  readonly withheldNotice: string | null;
  /**
   * The records that could not be read (EXCLUDE_UNREADABLE), where and why: the diagnostic view's; empty in the user
   * view.
   */
  readonly unreadable: readonly InputIssue[];
  readonly controls: readonly string[];
  readonly lateChanges: readonly string[];
  /**
   * The contract as compiled: the scenario's (or the user's edit) with the active controls and late changes applied.
   */
  readonly compiledContract: Contract;
  /** Records compiled, after the active controls and late changes added or removed some. */
  readonly recordCount: number;
  readonly appliedChanges: readonly AppliedChange[];
  /**
   * Every control's and late change's text as this view may show it: the user view redacts the records it withholds.
   */
  readonly changeTexts: readonly ChangeText[];
  /** What this compilation changed against the one before it of the same scenario; null for the first. */
  readonly marks: ChangeMarks | null;
  /** Reason codes present in the visible trace, for the filter. */
  readonly traceCodes: readonly { readonly code: ReasonCode; readonly count: number }[];
}

/**
 * The result a page last showed for the saved workspace, and the first page of its trace in the default order:
 * shown on the next boot while the worker compiles the same inputs again. `view.compilation` is 0, a number no
 * compilation of the new worker has.
 */
export interface RememberedResult {
  readonly view: CompileView;
  readonly firstPage: TracePage;
}

export type CompileResponse =
  { readonly ok: true; readonly view: CompileView } | { readonly ok: false; readonly error: CompileError };
