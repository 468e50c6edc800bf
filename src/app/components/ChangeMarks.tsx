import { REASONS } from '../../core/reasons';
import type { ChangeMarks, ColumnEntry, DecisionAt, PacketMarks, RowMark } from '../../worker/protocol';
import { plural, titleBesideId } from './format';
import { CodeLink } from './Glossary';
import { RecordLink } from './RecordInspector';

/*
 * What the last recompilation changed, against the one before it: marks on the packet entries that entered,
 * the entries that left, and the trace rows whose decision changed. Each mark is text (◆ and words, the
 * reason code with its plain words from the catalogue), so it reads the same to the eye and to a screen reader.
 */

function Decided({ at }: { at: DecisionAt }) {
  return (
    <>
      {at.decision} · <CodeLink code={at.code} /> <span className="mark-words">{REASONS[at.code].summary}</span>
    </>
  );
}

/** The mark under an entry that was not in this packet at the compilation before. */
export function EnteredMark({ entry, testId }: { entry: ColumnEntry; testId: string }) {
  return (
    <span className="change-mark" data-testid={testId}>
      ◆ entered: {entry.id}, {entry.illegal ? 'illegal' : 'legal'} · <CodeLink code={entry.code} />{' '}
      <span className="mark-words">{REASONS[entry.code].summary}</span>
    </span>
  );
}

/** The entries of the packet before that are not in it now, and what became of each. */
export function LeftEntries({ kind, marks }: { kind: string; marks: PacketMarks }) {
  if (marks.left.length === 0) return null;
  return (
    <ul className="left-entries" aria-label="Left this packet at the last change">
      {marks.left.map((entry) => (
        <li key={entry.id} className="change-mark" data-testid={`left-${kind}-${entry.id}`}>
          ◆ left: <RecordLink id={entry.id} /> {titleBesideId(entry.id, entry.title)}
          {entry.now === null ? (
            ', no longer among the records'
          ) : (
            <>
              , now <Decided at={entry.now} />
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

function countText(marks: PacketMarks | null): string | null {
  if (marks === null || (marks.entered.length === 0 && marks.left.length === 0)) return null;
  return `${plural(marks.entered.length, 'entry', 'entries')} entered, ${marks.left.length} left`;
}

/** One sentence a screen reader hears after each recompilation: what each packet gained and lost. */
export function MarksSummary({ marks }: { marks: ChangeMarks | null }) {
  const parts = marks
    ? [
        ['naive top-k', countText(marks.columns.naive)],
        ['post-filter top-k', countText(marks.columns.postFilter)],
        ['compiled packet', countText(marks.columns.compiled)],
      ].filter((part): part is [string, string] => part[1] !== null)
    : [];
  return (
    <p className="caption marks-summary" role="status" data-testid="marks-summary">
      {marks === null
        ? ''
        : parts.length === 0
          ? '◆ The last change moved no entry in or out of a packet.'
          : `◆ At the last change: ${parts.map(([name, text]) => `${name}: ${text}`).join('; ')}.`}
    </p>
  );
}

/**
 * A trace row's mark against the compilation before. A table row has a fixed height, so there the code and
 * its plain words are read out and shown as the mark's tooltip; a card shows them too.
 */
export function RowMarkBadge({ id, mark }: { id: string; mark: RowMark }) {
  const detail =
    mark.kind === 'new'
      ? 'not among the records the view showed at the compilation before'
      : `${mark.before.code}: ${REASONS[mark.before.code].summary}`;
  return (
    <span className="change-mark row-mark" data-testid={`trace-mark-${id}`} title={detail}>
      {' '}
      ◆ {mark.kind === 'new' ? 'new' : `was ${mark.before.decision}`}
      <span className="mark-detail"> at the last change ({detail})</span>
    </span>
  );
}
