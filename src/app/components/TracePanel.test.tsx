// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TRACE_PAGE_SIZE } from '../../shared/trace-page';
import type { TraceQuery, TraceRowView } from '../../worker/protocol';
import { useResultStore } from '../state/result-store';
import { installFakeApi, resetStores, sampleView } from '../test-support';
import { TracePanel } from './TracePanel';

const row = (index: number): TraceRowView => ({
  id: `REC-${String(index).padStart(6, '0')}`,
  decision: index % 2 === 0 ? 'selected' : 'excluded',
  code: index % 2 === 0 ? 'SELECTED_RANKED' : 'EXCLUDE_SCOPE',
  fact: `fact for ${index}`,
  tokens: 10,
  required: false,
  score: index % 2 === 0 ? 1.5 : null,
  rank: index % 2 === 0 ? index / 2 + 1 : null,
  change: null,
  mark: null,
});

/** Answers every media query as a screen `width` px wide would (only max-width queries are asked). */
function stubScreenWidth(width: number): void {
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => {
    const limit = /max-width:\s*(\d+)px/.exec(query);
    const matches = limit ? width <= Number(limit[1]) : false;
    return {
      matches,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    } as MediaQueryList;
  });
}

describe('TracePanel', () => {
  beforeEach(() => {
    resetStores();
    stubScreenWidth(1440);
    // happy-dom lays nothing out; give the scroll viewport the size a browser would.
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(800);
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('renders only a window of 100,000 rows, with id, decision, reason and fact as text', () => {
    const firstPage = Array.from({ length: TRACE_PAGE_SIZE }, (_, index) => row(index));
    useResultStore.setState({ trace: { matched: 100_000, total: 100_000, pages: new Map([[0, firstPage]]) } });
    render(<TracePanel />);
    expect(screen.getByTestId('trace-count')).toHaveTextContent('Showing 100,000 of 100,000 candidates');
    const rendered = screen.getAllByRole('row').length;
    expect(rendered).toBeGreaterThan(2);
    expect(rendered).toBeLessThan(100);
    expect(screen.getByTestId('trace-row-REC-000001')).toHaveTextContent('✗ excluded');
    expect(screen.getByTestId('trace-row-REC-000001')).toHaveTextContent('EXCLUDE_SCOPE');
    expect(screen.getByTestId('trace-row-REC-000001')).toHaveTextContent('fact for 1');
  });

  it('fetches only the pages that scroll into view, never the whole trace', async () => {
    const api = installFakeApi({
      queryTrace: vi.fn(async (query: TraceQuery) => ({
        offset: query.offset,
        rows: Array.from({ length: query.limit }, (_, index) => row(query.offset + index)),
        matched: 100_000,
        total: 100_000,
      })),
    });
    useResultStore.setState({ trace: { matched: 100_000, total: 100_000, pages: new Map([[0, [row(0)]]]) } });
    render(<TracePanel />);
    // The page scrolls the rows, not a box of their own.
    vi.spyOn(window, 'scrollY', 'get').mockReturnValue(66 * 50_000);
    fireEvent.scroll(window);
    await waitFor(() =>
      expect(api.queryTrace).toHaveBeenCalledWith(
        expect.objectContaining({ offset: 250 * TRACE_PAGE_SIZE, limit: TRACE_PAGE_SIZE }),
      ),
    );
    for (const [query] of vi.mocked(api.queryTrace).mock.calls)
      expect(query.limit).toBeLessThanOrEqual(TRACE_PAGE_SIZE);
    await waitFor(() => expect(screen.getByTestId('trace-row-REC-050001')).toHaveTextContent('EXCLUDE_SCOPE'));
  });

  it('asks the worker to sort and filter, and switches the disclosure view', async () => {
    const user = userEvent.setup();
    const api = installFakeApi();
    render(<TracePanel />);
    await user.click(screen.getByRole('button', { name: 'Sort by tokens' }));
    expect(api.queryTrace).toHaveBeenLastCalledWith(expect.objectContaining({ sortKey: 'tokens', descending: false }));
    await user.click(screen.getByRole('button', { name: 'Sort by tokens' }));
    expect(api.queryTrace).toHaveBeenLastCalledWith(expect.objectContaining({ sortKey: 'tokens', descending: true }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter by decision' }), 'excluded');
    expect(api.queryTrace).toHaveBeenLastCalledWith(expect.objectContaining({ decision: 'excluded' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter by reason' }), 'EXCLUDE_IDENTITY');
    expect(api.queryTrace).toHaveBeenLastCalledWith(expect.objectContaining({ code: 'EXCLUDE_IDENTITY' }));
    await user.click(screen.getByRole('radio', { name: 'User view' }));
    expect(api.disclose).toHaveBeenCalledWith('user');
    expect(api.queryTrace).toHaveBeenLastCalledWith(expect.objectContaining({ audience: 'user' }));
  });

  it('stands in for withheld rows with the count sentence', () => {
    resetStores(sampleView({ withheldCount: 2, withheldNotice: '2 records are outside the authorised scope.' }));
    render(<TracePanel />);
    expect(screen.getByTestId('withheld-notice')).toHaveTextContent('2 records are outside the authorised scope.');
  });

  it('lists the records lines that are not records, with file, line and field, when the view carries them', () => {
    const issue = {
      file: 'records.jsonl',
      line: 14,
      path: 'tokens',
      code: 'NOT_IN_FORMAT' as const,
      args: {},
      message: 'Invalid input: expected number, received string (got "30")',
    };
    resetStores(sampleView({ unreadable: [issue] }));
    render(<TracePanel />);
    expect(screen.getByTestId('unreadable-records')).toHaveTextContent('EXCLUDE_UNREADABLE');
    expect(screen.getByTestId('unreadable-records')).toHaveTextContent(
      'records.jsonl:14: tokens: Invalid input: expected number, received string (got "30")',
    );
    cleanup();
    resetStores(sampleView());
    render(<TracePanel />);
    expect(screen.queryByTestId('unreadable-records')).toBeNull();
  });

  it('renders record text from a record as text, never as markup', () => {
    useResultStore.setState({
      trace: { matched: 1, total: 1, pages: new Map([[0, [{ ...row(0), fact: '<img src=x onerror=alert(1)>' }]]]) },
    });
    const alert = vi.fn();
    window.alert = alert;
    render(<TracePanel />);
    expect(screen.getByTestId('trace-row-REC-000000')).toHaveTextContent('<img src=x onerror=alert(1)>');
    expect(document.querySelector('.trace-scroll img')).toBeNull();
  });

  it('below 1100 px renders each record as a card with a label on every field', () => {
    stubScreenWidth(390);
    useResultStore.setState({ trace: { matched: 2, total: 2, pages: new Map([[0, [row(0), row(1)]]]) } });
    render(<TracePanel />);
    expect(screen.getByRole('table', { name: 'Trace' })).toHaveClass('cards');
    const cells = screen.getByTestId('trace-row-REC-000000').querySelectorAll('[role="cell"]');
    expect([...cells].map((cell) => cell.getAttribute('data-label'))).toEqual([
      'Id',
      'Decision',
      'Reason',
      'Boundary fact',
      'Tokens',
      'Required',
      'Rank · score',
    ]);
    expect(cells[6]?.textContent).toBe('#1 1.5');
  });

  it('marks the rows that changed since the pinned baseline, saying how', () => {
    useResultStore.setState({
      trace: {
        matched: 3,
        total: 3,
        pages: new Map([
          [0, [{ ...row(0), change: 'decision' as const }, row(1), { ...row(2), change: 'added' as const }]],
        ]),
      },
    });
    render(<TracePanel />);
    expect(screen.getByTestId('trace-change-REC-000000')).toHaveTextContent('decision changed');
    expect(screen.getByTestId('trace-change-REC-000002')).toHaveTextContent('new since the baseline');
    expect(screen.queryByTestId('trace-change-REC-000001')).toBeNull();
    expect(screen.getByRole('button', { name: 'Inspect REC-000001' })).toBeInTheDocument();
  });

  it('marks the rows that are new or decided otherwise than at the compilation before, with the old code in words', () => {
    const was = {
      kind: 'decision' as const,
      before: { decision: 'selected' as const, code: 'SELECTED_RANKED' as const },
    };
    useResultStore.setState({
      trace: {
        matched: 2,
        total: 2,
        pages: new Map([
          [
            0,
            [
              { ...row(0), mark: was },
              { ...row(1), mark: { kind: 'new' as const } },
            ],
          ],
        ]),
      },
    });
    render(<TracePanel />);
    expect(screen.getByTestId('trace-mark-REC-000000')).toHaveTextContent(
      '◆ was selected at the last change (SELECTED_RANKED: Legal optional record ranked by relevance',
    );
    expect(screen.getByTestId('trace-mark-REC-000001')).toHaveTextContent('◆ new at the last change');
    expect(screen.getByTestId('trace-row-REC-000001')).toHaveClass('changed');
  });
});
