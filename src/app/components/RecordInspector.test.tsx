// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GATE_ORDER } from '../../core/result';
import { useResultStore } from '../state/result-store';
import { useUiStore } from '../state/ui-store';
import { installFakeApi, resetStores, sampleInspection } from '../test-support';
import { RecordInspector, RecordLink } from './RecordInspector';

describe('RecordInspector', () => {
  beforeEach(() => resetStores());
  afterEach(cleanup);

  it('opens from a record id with every gate in order, the failing one with its code and fact, and gives the focus back', async () => {
    const api = installFakeApi({
      inspectRecord: vi.fn(async () => ({ ok: true as const, record: sampleInspection() })),
    });
    const user = userEvent.setup();
    render(
      <>
        <RecordLink id="P2" />
        <RecordInspector />
      </>,
    );
    const link = screen.getByRole('button', { name: 'Inspect P2' });
    await user.click(link);
    const dialog = screen.getByRole('dialog', { name: 'Record P2' });
    await waitFor(() =>
      expect(within(dialog).getByTestId('inspector-gate-supersession')).toHaveTextContent(
        'failed: EXCLUDE_SUPERSEDED superseded by P3',
      ),
    );
    expect(api.inspectRecord).toHaveBeenCalledWith('P2', 'diagnostic');
    expect(
      within(dialog)
        .getAllByRole('listitem')
        .filter((item) => item.dataset.testid?.startsWith('inspector-gate-'))
        .map((item) => item.dataset.testid),
    ).toEqual(GATE_ORDER.map((gate) => `inspector-gate-${gate}`));
    expect(within(dialog).getByTestId('inspector-gate-time')).toHaveTextContent('passed');
    expect(within(dialog).getByTestId('inspector-supersession')).toHaveTextContent(
      'superseded by P3 (in force from 2026-07-22)',
    );
    expect(within(dialog).getByTestId('inspector-receipt-row')).toHaveTextContent('"decision": "excluded"');
    expect(within(dialog).getByTestId('inspector-text')).toHaveTextContent('The old policy.');
    await user.click(within(dialog).getByRole('button', { name: 'Close inspector' }));
    expect(dialog).not.toBeVisible();
    expect(link).toHaveFocus();
  });

  it('follows a successor to its own record', async () => {
    const api = installFakeApi({
      inspectRecord: vi.fn(async (id: string) => ({
        ok: true as const,
        record: sampleInspection(
          id === 'P3'
            ? { id: 'P3', supersededBy: null, supersedes: ['P2'], decision: 'selected', code: 'SELECTED_EVIDENCE' }
            : {},
        ),
      })),
    });
    const user = userEvent.setup();
    render(
      <>
        <RecordLink id="P2" />
        <RecordInspector />
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'Inspect P2' }));
    const dialog = screen.getByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: 'Inspect P3' }));
    await waitFor(() =>
      expect(within(dialog).getByTestId('inspector-supersession')).toHaveTextContent('names as replaced: P2'),
    );
    expect(api.inspectRecord).toHaveBeenLastCalledWith('P3', 'diagnostic');
  });

  it('in the user view asks for the user view and says only that a withheld record is not in it', async () => {
    installFakeApi();
    useUiStore.setState({ audience: 'user' });
    const user = userEvent.setup();
    render(
      <>
        <RecordLink id="X9" />
        <RecordInspector />
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'Inspect X9' }));
    expect(await screen.findByTestId('inspector-missing')).toHaveTextContent('No record "X9" in this view.');
  });

  it('fails closed when the worker fails while inspecting: no result stays on screen', async () => {
    installFakeApi({ inspectRecord: vi.fn(async () => Promise.reject(new Error('worker lost'))) });
    const user = userEvent.setup();
    render(
      <>
        <RecordLink id="P2" />
        <RecordInspector />
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'Inspect P2' }));
    await waitFor(() => expect(useResultStore.getState().failure?.headline.args.during).toBe('INSPECTING_RECORD'));
    expect(useResultStore.getState().response).toBeNull();
  });
});
