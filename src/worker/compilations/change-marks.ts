import type { DisclosedView } from '../../core/disclosure';
import type { ChangeMarks, DecisionAt, LeftEntry, PacketMarks, RowMark } from '../protocol-marks';

/*
 * What one recompilation changed, against the compilation before it: the entries that entered or left each
 * packet and the trace rows whose decision changed. Pure: both sides come disclosed for one audience, and a
 * record either side withholds is left out of every mark (as a disclosed receipt diff leaves it out).
 */

/**
 * One compilation as the marks read it: its disclosed view, its packets' ids (null when not worked out) and its
 * records' titles.
 */
export interface MarkSide {
  readonly view: DisclosedView;
  readonly packets: {
    readonly naive: readonly string[] | null;
    readonly postFilter: readonly string[] | null;
    readonly compiled: readonly string[];
  };
  readonly titleOf: (id: string) => string;
}

const hiddenEither = (before: DisclosedView, after: DisclosedView) => (id: string) =>
  before.withheld.has(id) || after.withheld.has(id);

function packetMarks(
  before: readonly string[],
  after: readonly string[],
  hidden: (id: string) => boolean,
  titleOf: (id: string) => string,
  now: ReadonlyMap<string, DecisionAt>,
): PacketMarks {
  const was = new Set(before);
  const is = new Set(after);
  return {
    entered: after.filter((id) => !was.has(id) && !hidden(id)),
    left: before
      .filter((id) => !is.has(id) && !hidden(id))
      .map((id): LeftEntry => ({ id, title: titleOf(id), now: now.get(id) ?? null })),
  };
}

/** Ids in `before` that `after` lacks. */
function leftOf(before: readonly string[] | null, after: readonly string[] | null): string[] {
  if (before === null || after === null) return [];
  const is = new Set(after);
  return before.filter((id) => !is.has(id));
}

/** The packets of `after` against those of `before`; a baseline packet either side lacks is not compared. */
export function changeMarks(since: number, before: MarkSide, after: MarkSide): ChangeMarks {
  const hidden = hiddenEither(before.view, after.view);
  const { packets: was } = before;
  const { packets: is } = after;
  const leaving = new Set(
    [leftOf(was.compiled, is.compiled), leftOf(was.naive, is.naive), leftOf(was.postFilter, is.postFilter)].flat(),
  );
  // Only the rows of records that left a packet are looked up, and the trace is read only when one did.
  const now = new Map<string, DecisionAt>();
  if (leaving.size > 0)
    for (const row of after.view.rows)
      if (leaving.has(row.id)) now.set(row.id, { decision: row.decision, code: row.code });
  const marks = (from: readonly string[] | null, to: readonly string[] | null) =>
    from === null || to === null ? null : packetMarks(from, to, hidden, before.titleOf, now);
  return {
    since,
    columns: {
      naive: marks(was.naive, is.naive),
      postFilter: marks(was.postFilter, is.postFilter),
      compiled: packetMarks(was.compiled, is.compiled, hidden, before.titleOf, now),
    },
  };
}

/**
 * Each trace row of `after` that is new to the view or whose decision changed, by id. The two traces are walked
 * side by side while their ids line up (a toggle mostly leaves the order as it was); from the first row where
 * they part, the rest of `before` is looked up by id.
 */
export function rowMarks(before: DisclosedView, after: DisclosedView): Map<string, RowMark> {
  const hidden = hiddenEither(before, after);
  const marks = new Map<string, RowMark>();
  const mark = (row: DisclosedView['rows'][number], prior: DisclosedView['rows'][number] | undefined) => {
    if (hidden(row.id)) return;
    if (prior === undefined) marks.set(row.id, { kind: 'new' });
    else if (prior.decision !== row.decision)
      marks.set(row.id, { kind: 'decision', before: { decision: prior.decision, code: prior.code } });
  };
  let index = 0;
  for (; index < after.rows.length; index += 1) {
    const row = after.rows[index];
    const prior = before.rows[index];
    if (row === undefined || prior === undefined || prior.id !== row.id) break;
    mark(row, prior);
  }
  if (index < after.rows.length) {
    const was = new Map(before.rows.map((row) => [row.id, row]));
    for (; index < after.rows.length; index += 1) {
      const row = after.rows[index];
      if (row !== undefined) mark(row, was.get(row.id));
    }
  }
  return marks;
}
