// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compileNow } from '../state/actions';
import { useScenarioStore } from '../state/scenario-store';
import { installFakeApi, resetStores, sampleWorkspace } from '../test-support';
import { DrillPanel } from './DrillPanel';

const stale = { action: 'recompile_required' as const, code: 'STALE_CONTRACT_FINGERPRINT' as const, message: 'The contract changed since the receipt.', priorReceiptId: 'a'.repeat(64), currentReceiptId: null };
const current = { action: 'continue' as const, code: 'RECEIPT_CURRENT' as const, message: 'The receipt matches.', priorReceiptId: 'e'.repeat(64), currentReceiptId: 'e'.repeat(64) };

describe('DrillPanel', () => {
  beforeEach(() => resetStores());
  afterEach(cleanup);

  it('walks the drill: inject, stale on continue, current after recompiling', async () => {
    const user = userEvent.setup();
    const attemptContinue = vi.fn().mockResolvedValueOnce(stale).mockResolvedValueOnce(current);
    const api = installFakeApi({ attemptContinue, freezeReceipt: vi.fn(async () => ({ frozenReceiptId: 'e'.repeat(64), declared: [] })) });
    render(<DrillPanel />);

    await user.click(screen.getByRole('button', { name: 'Inject late change' }));
    expect(api.declareLateChange).toHaveBeenCalledWith('promote-run-0880');
    expect(await screen.findByTestId('drill-declared')).toHaveTextContent('promote-run-0880');

    await user.click(screen.getByRole('button', { name: 'Attempt to continue' }));
    expect(await screen.findByTestId('drill-headline')).toHaveTextContent('STALE — RECOMPILE REQUIRED');
    expect(screen.getByTestId('drill-code')).toHaveTextContent('STALE_CONTRACT_FINGERPRINT');

    await user.click(screen.getByRole('button', { name: 'Recompile current context' }));
    expect(api.select).toHaveBeenCalledWith(expect.objectContaining({ lateChanges: ['promote-run-0880'] }));
    expect(await screen.findByText('CURRENT — MAY CONTINUE')).toBeInTheDocument();
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
    useScenarioStore.setState({ workspace: { ...workspace, scenarios: workspace.scenarios.map((scenario) => ({ ...scenario, lateChanges: [] })) } });
    render(<DrillPanel />);
    expect(screen.getByText('This scenario declares no late changes.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Inject late change' })).toBeNull();
  });
});
