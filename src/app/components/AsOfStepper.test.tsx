// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AsOfStops } from '../../worker/protocol';
import { refreshDebugViews } from '../state/debug-actions';
import { installFakeApi, resetStores } from '../test-support';
import { AsOfStepper } from './AsOfStepper';

const stops: AsOfStops = {
  asOf: '2026-08-30',
  before: [{ at: '2026-08-29', records: [{ id: 'W-61', kind: 'knownAt' }], more: 0 }],
  after: [
    {
      at: '2026-08-31',
      records: [
        { id: 'ADD-7', kind: 'expires' },
        { id: 'P4-LOCAL', kind: 'validFrom' },
      ],
      more: 0,
    },
  ],
  total: 11,
  lockedBy: null,
};

describe('AsOfStepper', () => {
  beforeEach(() => resetStores());
  afterEach(cleanup);

  it('steps by a day and to the next boundary, compiles, and shows what the step changed', async () => {
    const api = installFakeApi({
      asOfStops: vi.fn(async () => stops),
      asOfDiff: vi.fn(async () => ({
        before: { receiptId: '', schemaVersion: 'v' },
        after: { receiptId: '', schemaVersion: 'v' },
        identical: false,
        firstDifference: null,
        sections: [{ key: 'packet' as const, title: 'Packet', lines: ['in: P4-LOCAL'], more: 0 }],
      })),
    });
    await refreshDebugViews();
    const user = userEvent.setup();
    render(<AsOfStepper />);
    expect(screen.getByTestId('as-of-current')).toHaveTextContent('2026-08-30');
    await user.click(screen.getByRole('button', { name: 'Next boundary, 2026-08-31' }));
    expect(api.stepAsOf).toHaveBeenCalledWith({ to: '2026-08-31' });
    await waitFor(() => expect(api.compile).toHaveBeenCalled());
    await user.click(screen.getByRole('button', { name: '− 1 day' }));
    expect(api.stepAsOf).toHaveBeenLastCalledWith({ days: -1 });
    await user.click(screen.getByText(/Nearby boundaries/));
    expect(screen.getByText(/ADD-7 expired from, P4-LOCAL valid from/)).toBeInTheDocument();
    expect(screen.getByTestId('diff-packet')).toHaveTextContent('in: P4-LOCAL');
  });

  it('says which control sets the as-of and does not step', async () => {
    const api = installFakeApi({
      asOfStops: vi.fn(async () => ({ ...stops, lockedBy: 'Move the decision by one day' })),
    });
    await refreshDebugViews();
    const user = userEvent.setup();
    render(<AsOfStepper />);
    expect(screen.getByTestId('as-of-locked')).toHaveTextContent('“Move the decision by one day” sets the as-of');
    await user.click(screen.getByRole('button', { name: '+ 1 day' }));
    expect(api.stepAsOf).not.toHaveBeenCalled();
  });
});
