import type { ReasonCode } from '../core/reasons';
import type { Decision } from '../core/result';

/*
 * What the last recompilation changed, against the compilation before it (no pin needed): part of the
 * worker's protocol (protocol.ts re-exports it). In the user view a record it withholds on either side is
 * never marked, so no mark, count or absence of one tells a withheld record apart.
 */

/** A record's decision and reason in one compilation. */
export interface DecisionAt {
  readonly decision: Decision;
  readonly code: ReasonCode;
}

/**
 * An entry of the packet before that is not in it now, and what became of it; `now` is null when the record is no
 * longer compiled.
 */
export interface LeftEntry {
  readonly id: string;
  readonly title: string;
  readonly now: DecisionAt | null;
}

/** One packet against the same packet of the compilation before. */
export interface PacketMarks {
  /** Ids of entries that are new in it (each still shown with its own code). */
  readonly entered: readonly string[];
  /** Entries of the packet before that are not in it now, in the old order. */
  readonly left: readonly LeftEntry[];
}

/**
 * Null for a baseline packet that one of the two compilations did not work out (the user view, or an index still
 * building).
 */
export interface ChangeMarks {
  /** The compilation compared with (its serial). */
  readonly since: number;
  readonly columns: {
    readonly naive: PacketMarks | null;
    readonly postFilter: PacketMarks | null;
    readonly compiled: PacketMarks;
  };
}

/**
 * A trace row against the compilation before: a record new to the view, or one whose decision changed (with what it
 * was).
 */
export type RowMark = { readonly kind: 'new' } | { readonly kind: 'decision'; readonly before: DecisionAt };
