// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WhatIfResponse } from '../../worker/protocol';
import { useUiStore } from '../state/ui-store';
import { installFakeApi, resetStores, sampleInspection } from '../test-support';
import { RecordInspector, RecordLink } from './RecordInspector';

const answer: WhatIfResponse = {
  ok: true,
  compilation: 1,
  id: 'P2',
  admitted: false,
  suggestions: [
    {
      code: 'SET_AS_OF_BEFORE',
      args: { asOf: '2026-07-21T23:59:59.999Z' },
      text: 'set the as-of to 2026-07-21T23:59:59.999Z or earlier',
      verifiedBy: {
        change: 'contract',
        contractFingerprint: 'e'.repeat(64),
        decision: 'selected',
        code: 'SELECTED_RANKED',
      },
    },
    {
      code: 'SUPPLY_PROVENANCE',
      args: { contentHash: 'sha256:0123456789a' },
      text: 'supply provenance whose content hash matches the text (sha256:0123456789a…)',
      verifiedBy: {
        change: 'record',
        contractFingerprint: 'b'.repeat(64),
        decision: 'excluded',
        code: 'EXCLUDE_BUDGET',
      },
    },
  ],
};

async function inspect(): Promise<HTMLElement> {
  render(
    <>
      <RecordLink id="P2" />
      <RecordInspector />
    </>,
  );
  await userEvent.setup().click(screen.getByRole('button', { name: 'Inspect P2' }));
  return screen.getByRole('dialog', { name: 'Record P2' });
}

describe('what would admit the inspected record', () => {
  beforeEach(() => resetStores());
  afterEach(cleanup);

  it('lists each verified change with the compilation that verified it, and applies a contract change then compiles', async () => {
    const api = installFakeApi({
      inspectRecord: vi.fn(async () => ({ ok: true as const, record: sampleInspection() })),
      whatWouldChange: vi.fn(async () => answer),
    });
    const dialog = await inspect();
    const list = await within(dialog).findByTestId('what-if-list');
    expect(api.whatWouldChange).toHaveBeenCalledWith('P2', 'diagnostic');
    expect(within(dialog).getByRole('heading', { name: 'What would admit it' })).toBeInTheDocument();
    expect(within(list).getByTestId('what-if-SET_AS_OF_BEFORE')).toHaveTextContent(
      'set the as-of to 2026-07-21T23:59:59.999Z or earlier — verified by compiling the contract with this change (contract eeeeeeeeeeee): selected · SELECTED_RANKED',
    );
    expect(
      within(within(list).getByTestId('what-if-SUPPLY_PROVENANCE')).getByRole('button', {
        name: 'Apply to the record (a new revision)',
      }),
    ).toBeInTheDocument();
    expect(within(list).getAllByRole('button', { name: 'Apply to the contract' })).toHaveLength(1);
    await userEvent.setup().click(within(list).getByRole('button', { name: 'Apply to the contract' }));
    await waitFor(() => expect(api.compile).toHaveBeenCalled());
    expect(api.applySuggestion).toHaveBeenCalledWith(
      { code: 'SET_AS_OF_BEFORE', args: { asOf: '2026-07-21T23:59:59.999Z' } },
      'P2',
      'diagnostic',
    );
    expect(useUiStore.getState().notice).toBe(
      'Applied to the contract: set the as-of to 2026-07-21T23:59:59.999Z or earlier.',
    );
  });

  it('says so when no single change takes an admitted record out of the admitted set', async () => {
    installFakeApi({
      inspectRecord: vi.fn(async () => ({ ok: true as const, record: sampleInspection() })),
      whatWouldChange: vi.fn(async () => ({ ...answer, admitted: true, suggestions: [] })),
    });
    const dialog = await inspect();
    expect(await within(dialog).findByTestId('what-if-none')).toHaveTextContent(
      'No single change to the contract or to this record excludes it.',
    );
    expect(within(dialog).getByRole('heading', { name: 'What would exclude it' })).toBeInTheDocument();
  });
});
