import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { formatIssue } from '../../core/errors';
import { isReasonCode, REASONS } from '../../core/reasons';
import type { TraceChange, TraceRowView, TraceSortKey } from '../../worker/protocol';
import { loadTracePages, refreshTrace, setAudience } from '../state/actions';
import { traceRowAt, useResultStore } from '../state/result-store';
import { useUiStore } from '../state/ui-store';
import { RowMarkBadge } from './ChangeMarks';
import { formatCount, formatScore } from './format';
import { CodeLink, TermLink } from './Glossary';
import { RecordLink } from './RecordInspector';
import { NARROW_SCREEN, useElementWidth, useMediaQuery } from './use-media-query';

const COLUMNS: readonly { key: TraceSortKey; label: string }[] = [
  { key: 'id', label: 'Id' },
  { key: 'decision', label: 'Decision' },
  { key: 'code', label: 'Reason' },
  { key: 'order', label: 'Boundary fact' },
  { key: 'tokens', label: 'Tokens' },
  { key: 'required', label: 'Required' },
  { key: 'score', label: 'Rank · score' },
];

// Fixed row height on a wide screen: measuring 100,000 rows as they scroll costs more than it gives; long facts wrap to
// three lines.
const ROW_HEIGHT = 66;
// Below 1100 px each record is a card whose height follows its fact; only the cards on screen are measured.
const CARD_ESTIMATE = 190;
// The seven columns need this much room (styles.css, .trace-row); a narrower rail gets cards too, not a cut-off table.
const TABLE_MIN_WIDTH = 680;

function SortHeader({ column }: { column: (typeof COLUMNS)[number] }) {
  const { sortKey, descending } = useResultStore((state) => state.traceQuery);
  const active = sortKey === column.key && column.key !== 'order';
  // The fact column restores trace order: sorting prose would not help anyone.
  // Every name contains the header's visible text, so speech input ("click boundary fact") finds it.
  const label =
    column.key === 'order' ? 'Sort by boundary fact (trace order)' : `Sort by ${column.label.toLowerCase()}`;
  return (
    <div
      role="columnheader"
      aria-sort={active ? (descending ? 'descending' : 'ascending') : 'none'}
      className="trace-cell"
    >
      <button
        type="button"
        className="sort"
        aria-label={label}
        onClick={() => void refreshTrace({ sortKey: column.key, descending: active ? !descending : false })}
      >
        {column.label}
        {active ? (descending ? ' ▼' : ' ▲') : ''}
      </button>
    </div>
  );
}

/** How a row differs from the pinned baseline, in words. */
export const CHANGE_LABELS: Record<TraceChange, string> = {
  added: 'new since the baseline',
  decision: 'decision changed',
  code: 'reason changed',
  row: 'fact, score or rank changed',
};

// Card labels come from CSS (`::before`), so a cell's text stays its value for tests and for copying.
function Row({ row }: { row: TraceRowView }) {
  return (
    <>
      <div role="cell" className="trace-cell trace-id" data-label="Id">
        <RecordLink id={row.id} />
      </div>
      <div role="cell" className={`trace-cell decision-${row.decision}`} data-label="Decision">
        {row.decision === 'selected' ? '✓ selected' : '✗ excluded'}
        {row.change ? (
          <span className={`change-badge change-${row.change}`} data-testid={`trace-change-${row.id}`}>
            {' '}
            ◆ {CHANGE_LABELS[row.change]}
          </span>
        ) : null}
        {row.mark ? <RowMarkBadge id={row.id} mark={row.mark} /> : null}
      </div>
      <div role="cell" className="trace-cell trace-code" data-label="Reason">
        <CodeLink code={row.code} />
      </div>
      <div role="cell" className="trace-cell trace-fact" title={row.fact} data-label="Boundary fact">
        {row.fact}
      </div>
      <div role="cell" className="trace-cell num" data-label="Tokens">
        {row.tokens}
      </div>
      <div role="cell" className="trace-cell" data-label="Required">
        {row.required ? 'required' : '—'}
      </div>
      <div role="cell" className="trace-cell num trace-score" data-label="Rank · score">
        <span>
          {row.rank === null ? '' : <span className="rank">#{row.rank} </span>}
          {formatScore(row.score)}
        </span>
      </div>
    </>
  );
}

function TraceFilters() {
  const query = useResultStore((state) => state.traceQuery);
  const response = useResultStore((state) => state.response);
  const codes = response?.ok ? response.view.traceCodes : [];
  return (
    <div className="trace-filters">
      <label>
        Decision{' '}
        <select
          aria-label="Filter by decision"
          value={query.decision}
          onChange={(event) =>
            void refreshTrace({
              decision:
                event.target.value === 'selected' || event.target.value === 'excluded' ? event.target.value : 'all',
            })
          }
        >
          <option value="all">all</option>
          <option value="selected">selected</option>
          <option value="excluded">excluded</option>
        </select>
      </label>
      <label>
        Reason{' '}
        <select
          aria-label="Filter by reason"
          value={query.code}
          onChange={(event) =>
            void refreshTrace({ code: isReasonCode(event.target.value) ? event.target.value : 'all' })
          }
        >
          <option value="all">all</option>
          {codes.map(({ code, count }) => (
            <option key={code} value={code}>
              {code} ({count})
            </option>
          ))}
        </select>
      </label>
      <label>
        Search{' '}
        <input
          type="search"
          id="trace-search"
          aria-label="Search trace"
          value={query.text}
          onChange={(event) => void refreshTrace({ text: event.target.value })}
          placeholder="id or fact"
        />
      </label>
    </div>
  );
}

/** What the numbers mean, in place; each term opens its glossary entry. */
function TraceLegend() {
  return (
    <p className="caption trace-legend" data-testid="trace-legend">
      <TermLink term="tokens">Tokens</TermLink>: declared cost. <TermLink term="rank">Rank</TermLink> (#1 first) and{' '}
      <TermLink term="score">score</TermLink>: relevance among admitted optional records, higher is better. A{' '}
      <TermLink term="fact">boundary fact</TermLink> is what decided the row; a reason code opens its glossary entry, an
      id opens the record inspector. ◆ marks a row that is new or decided otherwise than at the last change, or that
      changed since the pinned baseline.
    </p>
  );
}

function AudienceSwitch() {
  const audience = useUiStore((state) => state.audience);
  return (
    <div role="radiogroup" aria-label="Disclosure view" className="audience">
      <label>
        <input type="radio" name="audience" checked={audience === 'user'} onChange={() => void setAudience('user')} />{' '}
        User view
      </label>
      <label>
        <input
          type="radio"
          name="audience"
          checked={audience === 'diagnostic'}
          onChange={() => void setAudience('diagnostic')}
        />{' '}
        Diagnostic view
      </label>
    </div>
  );
}

/**
 * Where the rows start, from the top of the document: the page is what scrolls, and anything above the trace
 * (a packet growing, a rail shown on a phone) moves them, which shows as a change of the body's size.
 */
function useDocumentOffset(ref: RefObject<HTMLElement | null>): number {
  const [offset, setOffset] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const update = () => setOffset(element.getBoundingClientRect().top + window.scrollY);
    update();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(update);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [ref]);
  return offset;
}

/**
 * One row per candidate. Only the rows on screen exist in the DOM, and only their pages are fetched
 * from the worker, so 100,000 candidates scroll with the page without the main thread ever holding them all at once.
 */
export function TracePanel() {
  const trace = useResultStore((state) => state.trace);
  const response = useResultStore((state) => state.response);
  const scrollRef = useRef<HTMLDivElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const panelWidth = useElementWidth(panelRef);
  const cards = useMediaQuery(NARROW_SCREEN) || (panelWidth !== null && panelWidth < TABLE_MIN_WIDTH);
  const scrollMargin = useDocumentOffset(scrollRef);
  const virtualizer = useWindowVirtualizer({
    count: trace.matched,
    scrollMargin,
    estimateSize: () => (cards ? CARD_ESTIMATE : ROW_HEIGHT),
    // The page scrolls, so the trace may start below the fold: enough rows beyond the screen for a scenario's whole
    // trace to be there.
    overscan: 24,
    // Lets the first rows render before layout is known (and in DOM-less tests).
    initialRect: { width: 800, height: 600 },
  });
  // The page scrolls, so rows measured above the fold would each push the scroll down by their size's error, and
  // the next row is then above the fold too: a view opened part-way down walked to the page's end. Rows keep their
  // place in the document instead; a card measured taller moves only what is below it.
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = () => false;
  const items = virtualizer.getVirtualItems();
  const firstIndex = items[0]?.index ?? 0;
  const lastIndex = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    void loadTracePages(firstIndex, lastIndex);
  }, [firstIndex, lastIndex, trace]);
  // Estimates change with the layout: forget measured sizes when switching between rows and cards.
  useEffect(() => {
    virtualizer.measure();
  }, [cards, virtualizer]);
  const notice = response?.ok ? response.view.withheldNotice : null;
  const unreadable = response?.ok ? response.view.unreadable : [];
  return (
    <section className="panel trace-panel" aria-labelledby="trace-heading" ref={panelRef}>
      <h2 id="trace-heading">Trace</h2>
      <AudienceSwitch />
      <TraceFilters />
      <TraceLegend />
      <p data-testid="trace-count" aria-live="polite">
        Showing {formatCount(trace.matched)} of {formatCount(trace.total)} candidates
      </p>
      {notice ? (
        <p className="withheld" data-testid="withheld-notice">
          {notice}
        </p>
      ) : null}
      {unreadable.length > 0 ? (
        <div className="warning" data-testid="unreadable-records">
          <p>
            <CodeLink code="EXCLUDE_UNREADABLE" /> {REASONS.EXCLUDE_UNREADABLE.summary}
          </p>
          <ul>
            {unreadable.map((issue, index) => (
              <li key={index}>{formatIssue(issue)}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <div
        role="table"
        aria-label="Trace"
        aria-rowcount={trace.matched + 1}
        className={cards ? 'trace-table cards' : 'trace-table'}
      >
        <div role="rowgroup">
          <div role="row" aria-rowindex={1} className="trace-row trace-head">
            {COLUMNS.map((column) => (
              <SortHeader key={column.key} column={column} />
            ))}
          </div>
        </div>
        <div ref={scrollRef} className="trace-scroll" role="rowgroup" aria-label="Trace rows">
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const row = traceRowAt(trace, item.index);
              const top = item.start - scrollMargin;
              const position = cards
                ? ({ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${top}px)` } as const)
                : ({
                    position: 'absolute',
                    top: 0,
                    left: 0,
                    width: '100%',
                    height: ROW_HEIGHT,
                    transform: `translateY(${top}px)`,
                  } as const);
              if (!row) {
                return (
                  <div
                    key={`loading-${item.index}`}
                    ref={cards ? virtualizer.measureElement : undefined}
                    data-index={item.index}
                    role="row"
                    aria-rowindex={item.index + 2}
                    aria-busy="true"
                    className="trace-row loading"
                    style={position}
                  >
                    <div role="cell" className="trace-cell">
                      Loading…
                    </div>
                  </div>
                );
              }
              return (
                <div
                  key={row.id}
                  ref={cards ? virtualizer.measureElement : undefined}
                  data-index={item.index}
                  role="row"
                  aria-rowindex={item.index + 2}
                  className={`trace-row ${row.decision}${row.change || row.mark ? ' changed' : ''}`}
                  data-testid={`trace-row-${row.id}`}
                  style={position}
                >
                  <Row row={row} />
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </section>
  );
}
