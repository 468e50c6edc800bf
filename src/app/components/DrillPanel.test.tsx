// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compileNow } from '../state/actions';
import { useScenarioStore } from '../state/scenario-store';
import { useUiStore } from '../state/ui-store';
import { installFakeApi, resetStores, sampleWorkspace } from '../test-support';
import type { DiffView, VerdictView } from '../../worker/protocol';
import { DrillPanel } from './DrillPanel';

const diffView = (lines: string[]): DiffView => ({
  before: { receiptId: 'a'.repeat(64), schemaVersion: 'context-compiler/2' },
  after: { receiptId: 'e'.repeat(64), schemaVersion: 'context-compiler/2' },
  identical: false,
  firstDifference: { path: 'requiredRecords', recordId: null },
  sections: [{ key: 'decisions', title: `Decisions changed (${lines.length})`, lines, more: 0 }],
});
const stale: VerdictView = {
  action: 'recompile_required',
  code: 'STALE_CONTRACT_FINGERPRINT',
  message: 'The contract changed since the receipt.',
  priorReceiptId: 'a'.repeat(64),
  currentReceiptId: 'e'.repeat(64),
  reperformed: true,
  diff: {
    diagnostic: diffView([
      'RUN-0880 EXCLUDE_BUDGET → SELECTED_REQUIRED',
      'LGL-0007 EXCLUDE_DENY_LABEL → EXCLUDE_SCOPE',
    ]),
    user: diffView(['RUN-0880 EXCLUDE_BUDGET → SELECTED_REQUIRED']),
  },
};
const current: VerdictView = {
  action: 'continue',
  code: 'RECEIPT_CURRENT',
  message: 'The receipt matches.',
  priorReceiptId: 'e'.repeat(64),
  currentReceiptId: 'e'.repeat(64),
  reperformed: true,
  diff: null,
};

describe('DrillPanel', () => {
  beforeEach(() => resetStores());
  afterEach(cleanup);

  it('walks the drill: inject, stale on continue, current after recompiling', async () => {
    const user = userEvent.setup();
    const attemptContinue = vi.fn().mockResolvedValueOnce(stale).mockResolvedValueOnce(current);
    const api = installFakeApi({
      attemptContinue,
      freezeReceipt: vi.fn(async () => ({ frozenReceiptId: 'e'.repeat(64), declared: [] })),
    });
    render(<DrillPanel />);

    await user.click(screen.getByRole('button', { name: 'Inject late change' }));
    expect(api.declareLateChange).toHaveBeenCalledWith('promote-run-0880');
    expect(await screen.findByTestId('drill-declared')).toHaveTextContent('Late correction: RUN-0880 is required');

    await user.click(screen.getByRole('button', { name: 'Attempt to continue' }));
    expect(await screen.findByTestId('drill-headline')).toHaveTextContent('STALE — RECOMPILE REQUIRED');
    expect(screen.getByTestId('drill-code')).toHaveTextContent('STALE_CONTRACT_FINGERPRINT');
    // The stale verdict shows why: the diff, as the current audience may see it.
    expect(
      screen.getByRole('group', { name: 'What changed from the receipt to what the current inputs compile to' }),
    ).toHaveTextContent('RUN-0880 EXCLUDE_BUDGET → SELECTED_REQUIRED');
    expect(screen.getByTestId('diff-first')).toHaveTextContent('First difference: requiredRecords');
    expect(screen.getByTestId('diff-decisions')).toHaveTextContent('LGL-0007');
    act(() => useUiStore.setState({ audience: 'user' }));
    expect(screen.getByTestId('diff-decisions')).not.toHaveTextContent('LGL-0007');
    act(() => useUiStore.setState({ audience: 'diagnostic' }));

    await user.click(screen.getByRole('button', { name: 'Recompile current context' }));
    expect(api.select).toHaveBeenCalledWith(expect.objectContaining({ lateChanges: ['promote-run-0880'] }));
    expect(await screen.findByText('CURRENT — MAY CONTINUE')).toBeInTheDocument();
  });

  it('names no receipt id in the user view: a receipt id covers the records that view withholds', async () => {
    const user = userEvent.setup();
    installFakeApi({
      attemptContinue: vi.fn(async () => stale),
      freezeReceipt: vi.fn(async () => ({ frozenReceiptId: 'e'.repeat(64), declared: [] })),
    });
    act(() => useUiStore.setState({ audience: 'user' }));
    render(<DrillPanel />);
    await user.click(screen.getByRole('button', { name: 'Freeze receipt' }));
    expect(await screen.findByTestId('drill-frozen')).toHaveTextContent(
      'Frozen (its receipt id is shown in the diagnostic view)',
    );
    await user.click(screen.getByRole('button', { name: 'Attempt to continue' }));
    expect(await screen.findByTestId('drill-headline')).toHaveTextContent('STALE — RECOMPILE REQUIRED');
    const panel = screen.getByRole('region', { name: 'Fire drill' });
    expect(panel.textContent).not.toContain('e'.repeat(12));
    expect(panel.textContent).not.toContain('a'.repeat(12));
    act(() => useUiStore.setState({ audience: 'diagnostic' }));
    expect(screen.getByTestId('drill-frozen')).toHaveTextContent(`Frozen: ${'e'.repeat(12)}`);
    expect(panel.textContent).toContain(`Receipt judged: ${'a'.repeat(12)}`);
  });

  it('marks a verdict "inputs changed" as soon as anything is recompiled after it', async () => {
    const user = userEvent.setup();
    installFakeApi({ attemptContinue: vi.fn(async () => current) });
    render(<DrillPanel />);
    await user.click(screen.getByRole('button', { name: 'Attempt to continue' }));
    expect(await screen.findByTestId('drill-headline')).toHaveTextContent('CURRENT — MAY CONTINUE');

    await compileNow();
    expect(await screen.findByTestId('drill-verdict-outdated')).toHaveTextContent('INPUTS CHANGED — ATTEMPT AGAIN');
    expect(screen.queryByTestId('drill-headline')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Attempt to continue' }));
    expect(await screen.findByTestId('drill-headline')).toHaveTextContent('CURRENT — MAY CONTINUE');
    expect(screen.queryByTestId('drill-verdict-outdated')).toBeNull();
  });

  it('says so when the scenario declares no late changes', () => {
    const workspace = sampleWorkspace();
    useScenarioStore.setState({
      workspace: { ...workspace, scenarios: workspace.scenarios.map((scenario) => ({ ...scenario, lateChanges: [] })) },
    });
    render(<DrillPanel />);
    expect(screen.getByText('This scenario declares no late changes.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Inject late change' })).toBeNull();
  });
});
