import { isBoundedDisclosure, REASONS } from './reasons';
import type { BaselinePacket, CompileOutcome, TraceRow } from './result';

export type Audience = 'diagnostic' | 'user';

/** True when naming this row to an end user could confirm what an authorisation or deny rule protects. */
export function isWithheldFromUser(row: Pick<TraceRow, 'code' | 'failedGates'>): boolean {
  return isBoundedDisclosure(row.code) || row.failedGates.includes('authorisation') || row.failedGates.includes('deny');
}

export interface UserBaseline extends Omit<BaselinePacket, 'selected' | 'illegal'> {
  readonly selected: readonly string[];
  readonly illegal: readonly string[];
  /** Records this baseline took that the user may not see named. */
  readonly withheldCount: number;
}

export interface DisclosedView {
  readonly audience: Audience;
  readonly rows: readonly TraceRow[];
  readonly withheldCount: number;
  /** The one sentence that stands in for the withheld rows, or null when none are withheld. */
  readonly withheldNotice: string | null;
  readonly naive: UserBaseline;
  readonly postFilter: UserBaseline;
  readonly failureMessage: string | null;
}

export function withheldNotice(count: number): string | null {
  if (count === 0) return null;
  return `${count} record${count === 1 ? ' is' : 's are'} outside the authorised scope.`;
}

/** Whitespace-separated words, each also without the brackets and punctuation that facts put around ids. */
function wordsOf(text: string): string[] {
  return text.split(/\s+/).flatMap((word) => [word, word.replace(/^[([]+|[)\],.:;]+$/g, '')]);
}

/**
 * One compilation, two renderings. The diagnostic view shows everything. The user view shows records
 * excluded for authorisation or deny reasons only as a count: never their id, title or text.
 */
export function discloseOutcome(outcome: CompileOutcome, audience: Audience): DisclosedView {
  const withheld = new Set(audience === 'user' ? outcome.trace.filter(isWithheldFromUser).map((row) => row.id) : []);
  const baseline = (packet: BaselinePacket): UserBaseline => ({
    ...packet,
    selected: packet.selected.filter((id) => !withheld.has(id)),
    illegal: packet.illegal.filter((id) => !withheld.has(id)),
    requiredMissed: packet.requiredMissed.filter((id) => !withheld.has(id)),
    withheldCount: packet.selected.filter((id) => withheld.has(id)).length,
  });
  // A visible row's fact or a failure can name another record (a superseding successor); never a withheld one.
  // Many rows share a fact, so each distinct text is split into words once.
  const named = new Map<string, boolean>();
  const namesWithheld = (text: string) => {
    if (withheld.size === 0) return false;
    let names = named.get(text);
    if (names === undefined) {
      names = wordsOf(text).some((word) => withheld.has(word));
      named.set(text, names);
    }
    return names;
  };
  const redact = (row: TraceRow): TraceRow => (namesWithheld(row.fact) ? { ...row, fact: REASONS[row.code].summary } : row);
  let failureMessage: string | null = null;
  if (outcome.status === 'fail_closed') {
    failureMessage =
      audience === 'user' && (isBoundedDisclosure(outcome.failure.code) || namesWithheld(outcome.failure.message))
        ? `${REASONS[outcome.failure.code].summary} The requested scope cannot be processed in this workflow.`
        : outcome.failure.message;
  }
  return {
    audience,
    rows: outcome.trace.filter((row) => !withheld.has(row.id)).map(redact),
    withheldCount: withheld.size,
    withheldNotice: withheldNotice(withheld.size),
    naive: baseline(outcome.baselines.naive),
    postFilter: baseline(outcome.baselines.postFilter),
    failureMessage,
  };
}
