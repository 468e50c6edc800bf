// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DiffView } from '../../worker/protocol';
import { watchCompilations } from '../state/debug-actions';
import { useResultStore } from '../state/result-store';
import { useUiStore } from '../state/ui-store';
import { installFakeApi, resetStores, sampleView } from '../test-support';
import { BaselinePanel } from './BaselinePanel';

const changed: DiffView = {
  before: { receiptId: 'a', schemaVersion: 'context-compiler/3' },
  after: { receiptId: 'b', schemaVersion: 'context-compiler/3' },
  identical: false,
  firstDifference: null,
  sections: [
    { key: 'contract', title: 'Contract fields changed (1)', lines: ['tokenBudget 96 → 24'], more: 0 },
    {
      key: 'decisions',
      title: 'Decisions changed (1)',
      lines: ['RUN-0880 selected → excluded (EXCLUDE_BUDGET)'],
      more: 0,
    },
  ],
};

describe('BaselinePanel', () => {
  beforeEach(() => resetStores());
  afterEach(cleanup);

  it('pins what is compiled, then shows what a later compilation changed, in the view on screen', async () => {
    let diff: DiffView | null = { ...changed, identical: true, sections: [] };
    const api = installFakeApi({ baselineDiff: vi.fn(async () => diff) });
    const stop = watchCompilations();
    const user = userEvent.setup();
    render(<BaselinePanel />);
    await user.click(screen.getByRole('button', { name: 'Pin as baseline' }));
    expect(api.pinBaseline).toHaveBeenCalled();
    expect(screen.getByTestId('baseline-pin')).toHaveTextContent(
      'Pinned: Retry policy, as of 2026-03-01, a packet of 1 record.',
    );
    expect(await screen.findByTestId('baseline-same')).toHaveTextContent('same receipt as the baseline');
    // A compilation (a control, an edit) brings the diff again.
    diff = changed;
    useResultStore.setState({ response: { ok: true, view: sampleView({ tokenBudget: 24 }) } });
    await waitFor(() => expect(screen.getByTestId('diff-contract')).toHaveTextContent('tokenBudget 96 → 24'));
    expect(screen.getByTestId('diff-decisions')).toHaveTextContent('RUN-0880 selected → excluded');
    useUiStore.setState({ audience: 'user' });
    useResultStore.setState({ response: { ok: true, view: sampleView({ audience: 'user' }) } });
    await waitFor(() => expect(api.baselineDiff).toHaveBeenLastCalledWith('user'));
    await user.click(screen.getByRole('button', { name: 'Clear baseline' }));
    expect(api.clearBaseline).toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Pin as baseline' })).toBeInTheDocument();
    stop();
  });

  it('forgets a pin the worker no longer holds (a reset workspace, a restarted worker)', async () => {
    installFakeApi({ baselineDiff: vi.fn(async () => null) });
    const stop = watchCompilations();
    const user = userEvent.setup();
    render(<BaselinePanel />);
    await user.click(screen.getByRole('button', { name: 'Pin as baseline' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Pin as baseline' })).toBeInTheDocument());
    stop();
  });
});
