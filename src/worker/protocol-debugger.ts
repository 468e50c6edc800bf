import type { Audience } from '../core/disclosure';
import type { InputIssue } from '../core/errors';
import type { VerifiedSuggestion } from '../core/counterfactual';
import type { FactArgs, ReasonCode } from '../core/reasons';
import type { SuggestionCode } from '../core/suggestions';
import type { FirstDifference, ReceiptDiff } from '../core/receipt-diff';
import type { DiffSection } from '../core/receipt-diff-text';
import type { Decision, DrillVerdict, GateName } from '../core/result';
import type { RowMark } from './protocol-marks';

/*
 * The debugger's views as they cross the worker boundary: trace rows and their windows, the record
 * inspector, receipt diffs and drill verdicts, the pinned baseline and the as-of stops. Part of the
 * worker's protocol (protocol.ts re-exports it), kept apart because the trace and inspector panels are
 * its only readers.
 */

/** One trace row's decision as every view shows it: the trace table and the record inspector alike. */
export interface TraceRowFacts {
  readonly id: string;
  readonly decision: Decision;
  readonly code: ReasonCode;
  /** The boundary fact the reason rests on, in words. */
  readonly fact: string;
  readonly tokens: number;
  readonly required: boolean;
  readonly score: number | null;
  readonly rank: number | null;
}

export interface TraceRowView extends TraceRowFacts {
  /**
   * Against the pinned baseline: new record, decision or code changed, other fields changed; null when unchanged or
   * nothing is pinned.
   */
  readonly change: TraceChange | null;
  /**
   * Against the compilation before this one (no pin needed): new to the view, or its decision changed; null otherwise.
   */
  readonly mark: RowMark | null;
}

export type TraceChange = 'added' | 'decision' | 'code' | 'row';

export const TRACE_SORT_KEYS = ['order', 'id', 'decision', 'code', 'tokens', 'required', 'score'] as const;
export type TraceSortKey = (typeof TRACE_SORT_KEYS)[number];

/** What selects and orders the trace rows; the window (offset, limit) is asked for separately. */
export interface TraceFilter {
  readonly audience: Audience;
  readonly sortKey: TraceSortKey;
  readonly descending: boolean;
  readonly decision: Decision | 'all';
  readonly code: ReasonCode | 'all';
  /** Case-insensitive substring of id or fact. */
  readonly text: string;
}

/** The largest window one call returns: a screenful and its overscan, never the whole trace. */
export const MAX_TRACE_WINDOW = 1_000;

export interface TraceQuery extends TraceFilter {
  readonly offset: number;
  readonly limit: number;
}

/** One window of the filtered, sorted trace; only what is on screen crosses the worker boundary. */
export interface TracePage {
  readonly offset: number;
  readonly rows: readonly TraceRowView[];
  /** Rows that pass the filter, in all. */
  readonly matched: number;
  /** Rows visible to this audience before filtering. */
  readonly total: number;
}

/** A drill verdict as the panels show it: the diff behind it, disclosed once for each audience. */
export interface VerdictView extends DrillVerdict {
  /** True: its declared inputs reproduced the receipt; false: they did not (RECEIPT_MISMATCH); null: not at hand. */
  readonly reperformed: boolean | null;
  /** From the receipt to what decided the verdict; null when nothing differs or nothing was compiled. */
  readonly diff: { readonly diagnostic: DiffView; readonly user: DiffView } | null;
}

/** A receipt diff as a panel shows it: disclosed for one audience, at most DIFF_VIEW_LINES lines a section. */
export interface DiffView {
  readonly before: ReceiptDiff['before'];
  readonly after: ReceiptDiff['after'];
  readonly identical: boolean;
  readonly firstDifference: FirstDifference | null;
  readonly sections: readonly DiffSection[];
}

export const DIFF_VIEW_LINES = 200;

/** `diff` is the whole structure (every id), disclosed for the audience asked for; `view` is what to show. */
export type ReceiptDiffResponse =
  | { readonly ok: true; readonly diff: ReceiptDiff; readonly view: DiffView }
  | { readonly ok: false; readonly issues: readonly InputIssue[] };

/** One gate of the inspector's explanation, in gate order. */
export interface GateCheck {
  readonly gate: GateName;
  readonly passed: boolean;
  /** The reason code of its failure; null when it passed. */
  readonly code: ReasonCode | null;
  /** Why it failed, in words; null when it passed. */
  readonly fact: string | null;
}

/** Everything about one record in one compilation, disclosed for one audience. */
export interface RecordInspection extends TraceRowFacts {
  readonly title: string;
  readonly text: string;
  /** Position in the packet (1-based), null when not in it. */
  readonly packetPosition: number | null;
  /** Its fields but title and text, as label and value, in the record format's order. */
  readonly metadata: readonly { readonly field: string; readonly value: string }[];
  readonly gates: readonly GateCheck[];
  /** The successor in force at the as-of time; `withheld` when it is a record this view does not name. */
  readonly supersededBy: { readonly id: string; readonly since: string } | 'withheld' | null;
  /** The records it names as replaced (those this view names). */
  readonly supersedes: readonly string[];
  /** The receipt's row for it, as canonical JSON (in the user view, the row as the user view has it). */
  readonly receiptRow: string;
}

/** A change that would flip a record's admission, in words, with the compilation that verified it. */
export interface WhatIfSuggestion {
  readonly code: SuggestionCode;
  readonly args: FactArgs;
  readonly text: string;
  readonly verifiedBy: VerifiedSuggestion['verifiedBy'];
}

/**
 * What would admit a record the last compilation excluded, or exclude one it admitted (`admitted`), each change
 * verified by compiling it. A record this view does not name gets the answer an id no record has.
 */
export type WhatIfResponse =
  | {
      readonly ok: true;
      readonly compilation: number;
      readonly id: string;
      readonly admitted: boolean;
      readonly suggestions: readonly WhatIfSuggestion[];
    }
  | { readonly ok: false; readonly message: string };

/** A record this view does not name gets the same answer as an id no record has. */
export type InspectResponse =
  { readonly ok: true; readonly record: RecordInspection } | { readonly ok: false; readonly message: string };

/** A pinned compilation, as the panels name it (no receipt id: in the user view it covers withheld records). */
export interface BaselinePin {
  readonly scenarioTitle: string;
  readonly asOf: string;
  readonly outcome: 'packet' | 'fail_closed';
  readonly selected: number;
}

/**
 * An instant at which records enter or leave the time gate: known from, valid from, or expired from (the day after
 * valid to).
 */
export interface AsOfStop {
  readonly at: string;
  /** At most AS_OF_STOP_RECORDS of them; `more` counts the rest. */
  readonly records: readonly { readonly id: string; readonly kind: 'knownAt' | 'validFrom' | 'expires' }[];
  readonly more: number;
}

export const AS_OF_STOP_RECORDS = 3;
/** Stops sent on each side of the as-of: a corpus of 100,000 records can have as many distinct instants. */
export const AS_OF_STOPS_EACH_SIDE = 8;

export interface AsOfStops {
  /** The as-of compiled now; null before the first compilation. */
  readonly asOf: string | null;
  /** The nearest stops before the as-of, earliest first, and after it; only records this view names. */
  readonly before: readonly AsOfStop[];
  readonly after: readonly AsOfStop[];
  /** Distinct stops in all. */
  readonly total: number;
  /**
   * The label of an active control or late change that sets the as-of, so an edit of it would not be what is compiled.
   */
  readonly lockedBy: string | null;
}

/** A step of the as-of: by whole days, or to an instant (a stop). */
export type AsOfStep = { readonly days: number } | { readonly to: string };
