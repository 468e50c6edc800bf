import {
  isBoundedDisclosure,
  recordsNamedBy,
  renderFact,
  type Fact,
  type FactContext,
  type ReasonCode,
} from './reasons';
import { wordMessage } from './messages';
import type { UnreadableRecord } from './errors';
import { GATE_BIT } from './phases/4-admit/admit';
import { rankLookup, type RankLookup } from './ranked';
import type { CompileOutcome, GateName, TraceRow } from './result';

export type Audience = 'diagnostic' | 'user';

/** The gates whose failure withholds a record from the user view, whichever gate it fails first. */
export const WITHHOLDING_GATE_NAMES: readonly GateName[] = ['authorisation', 'deny'];

/** The same gates as a mask of `GATE_BIT`, for a verdict's `failed`. */
export const WITHHOLDING_GATES = WITHHOLDING_GATE_NAMES.reduce((mask, gate) => mask | GATE_BIT[gate], 0);

/** True when naming this row to an end user could confirm what an authorisation or deny rule protects. */
export function isWithheldFromUser(row: Pick<TraceRow, 'code' | 'gates'>): boolean {
  return isBoundedDisclosure(row.code) || row.gates.some((gate) => WITHHOLDING_GATE_NAMES.includes(gate));
}

export interface DisclosedView {
  readonly audience: Audience;
  readonly rows: readonly TraceRow[];
  /** Scores and ranks by id, from the ranking section: ranked records are admitted, so no view withholds one. */
  readonly ranks: RankLookup;
  /** Ids of the rows the view leaves out (empty in the diagnostic view). */
  readonly withheld: ReadonlySet<string>;
  /**
   * How many records the view withholds: those rows, and in the user view the records that could not be read and
   * the withheld records a `candidates` receipt has no row for.
   */
  readonly withheldCount: number;
  /**
   * How many records the view may see were excluded with no trace row: a compile a store answered lists only the
   * records that crossed, and counts the rest.
   */
  readonly excludedWithoutRow: number;
  /** The records that could not be read, with where and why: the diagnostic view's; the user view names none. */
  readonly unreadable: readonly UnreadableRecord[];
  /** The one sentence that stands in for the withheld rows, or null when none are withheld. */
  readonly withheldNotice: string | null;
  readonly failureMessage: string | null;
}

export function withheldNotice(count: number): string | null {
  if (count === 0) return null;
  return `${count} record${count === 1 ? ' is' : 's are'} outside the authorised scope.`;
}

const REDACTED: Fact = { fact: 'DETAIL_WITHHELD', args: {} };
const SUPERSEDED_BY_WITHHELD: Fact = { fact: 'SUPERSEDED_BY_WITHHELD', args: {} };

/**
 * A fact as a view that withholds `withheld` may show it: as it is, or, when it names a withheld record,
 * without that name. Supersession by a record the caller may not see (directly or round a cycle) is the one
 * declared exception to noninterference (docs/FORMAT.md): it still excludes the visible version, so the
 * row says so in a fact of its own, naming no successor.
 */
export function discloseFact(fact: Fact, withheld: ReadonlySet<string>): Fact {
  if (withheld.size === 0 || !recordsNamedBy(fact).some((id) => withheld.has(id))) return fact;
  return fact.fact === 'SUPERSEDED_BY' || fact.fact === 'ON_SUPERSESSION_CYCLE' ? SUPERSEDED_BY_WITHHELD : REDACTED;
}

/**
 * The withheld records an outcome has no trace row for: a compile a store answered (answered-admission.ts) has rows
 * for the records that crossed only, and its `candidates` receipt counts the withheld ones among the rest.
 */
function withheldWithoutRow(outcome: CompileOutcome): number {
  return outcome.trace.length < outcome.counts.candidates ? (outcome.receipt.omitted?.withheld ?? 0) : 0;
}

/**
 * One compilation, two renderings. The diagnostic view shows everything. The user view shows records
 * excluded for authorisation or deny reasons only as a count: never their id, title or text; a visible
 * row whose fact names a withheld record says only that its detail is withheld, or, for a successor,
 * that a record the caller may not see supersedes it (`discloseFact`).
 * Facts are withheld by their `record` arguments, never by reading their wording. The relevance-only
 * baselines are not part of either: their scores use statistics of records the caller may not see.
 */
export function discloseOutcome(outcome: CompileOutcome, audience: Audience): DisclosedView {
  const withheld = new Set<string>();
  const shown: TraceRow[] = [];
  if (audience === 'user')
    for (const row of outcome.trace) {
      if (isWithheldFromUser(row)) withheld.add(row.id);
      else shown.push(row);
    }
  const namesWithheld = (fact: Fact) => discloseFact(fact, withheld) !== fact;
  const redact = (row: TraceRow): TraceRow => {
    const shownFact = discloseFact(row, withheld);
    return shownFact === row ? row : { ...row, fact: shownFact.fact, args: shownFact.args };
  };
  let failureMessage: string | null = null;
  if (outcome.status === 'fail_closed') {
    const { failure } = outcome;
    const hidden =
      audience === 'user' &&
      (isBoundedDisclosure(failure.code) ||
        (failure.recordId !== undefined && withheld.has(failure.recordId)) ||
        (failure.fact !== undefined && namesWithheld(failure.fact)));
    failureMessage = hidden ? wordMessage('SCOPE_NOT_PROCESSED', { code: failure.code }) : failure.message;
  }
  // An unreadable record may be one the caller may not see, and nothing says which: every one is counted, none named.
  const withheldUnlisted = withheldWithoutRow(outcome);
  const withheldCount = withheld.size + (audience === 'user' ? outcome.unreadable.length + withheldUnlisted : 0);
  const unlisted = Math.max(0, outcome.counts.candidates - outcome.trace.length);
  return {
    audience,
    // Redacted only once every withheld id is known: a row may name one that comes after it.
    rows: withheld.size === 0 ? outcome.trace : shown.map(redact),
    ranks: rankLookup(outcome.ranked),
    withheld,
    withheldCount,
    excludedWithoutRow: audience === 'user' ? unlisted - withheldUnlisted : unlisted,
    unreadable: audience === 'user' ? [] : outcome.unreadable,
    withheldNotice: withheldNotice(withheldCount),
    failureMessage,
  };
}

/**
 * A failure as one view words it: in the user view one about a withheld record names neither the record nor its fact.
 */
export interface DisclosedFailure {
  readonly code: ReasonCode;
  readonly message: string;
  readonly recordId: string | null;
  readonly fact: string | null;
}

export function disclosedFailure(
  outcome: CompileOutcome,
  view: DisclosedView,
  context: FactContext,
): DisclosedFailure | null {
  if (outcome.status !== 'fail_closed') return null;
  const { failure } = outcome;
  const hidden =
    view.audience === 'user' && (isBoundedDisclosure(failure.code) || view.failureMessage !== failure.message);
  return {
    code: failure.code,
    message: view.failureMessage ?? failure.message,
    recordId: hidden ? null : (failure.recordId ?? null),
    fact: hidden || failure.fact === undefined ? null : renderFact(failure.fact, context),
  };
}
