// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useScenarioStore } from '../state/scenario-store';
import { installFakeApi, resetStores, sampleScenario, sampleWorkspace } from '../test-support';
import { ContractPanel } from './ContractPanel';

describe('ContractPanel', () => {
  beforeEach(() => resetStores());
  afterEach(cleanup);

  it('generates one toggle per scenario control, with its explanation, and recompiles on change', async () => {
    const user = userEvent.setup();
    const api = installFakeApi();
    render(<ContractPanel />);
    const toggle = screen.getByRole('switch', { name: 'Remove required provenance' });
    expect(toggle).toHaveAccessibleDescription('Drops the provenance of ADR-0234.');
    await user.click(toggle);
    expect(toggle).toBeChecked();
    expect(api.select).toHaveBeenCalledWith({ scenarioKey: 'retry-policy', controls: ['remove-provenance'], lateChanges: [] });
    expect(api.compile).toHaveBeenCalled();
  });

  it('lists built-in and loaded scenarios in the picker and switches between them', async () => {
    const user = userEvent.setup();
    const api = installFakeApi();
    useScenarioStore.setState({ workspace: sampleWorkspace({ scenarios: [sampleScenario(), sampleScenario({ key: 'loaded:mine', title: 'Mine', origin: 'loaded' })] }) });
    render(<ContractPanel />);
    expect(screen.getByRole('option', { name: 'Mine (loaded)' })).toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Scenario' }), 'loaded:mine');
    expect(api.select).toHaveBeenCalledWith({ scenarioKey: 'loaded:mine', controls: [], lateChanges: [] });
  });

  it('shows a schema error beside the field it concerns and keeps the draft', async () => {
    const user = userEvent.setup();
    const updateContract = vi.fn(async () => ({ ok: false as const, issues: [{ file: 'contract', path: 'tokenBudget', message: 'Invalid input: expected number, received string' }] }));
    installFakeApi({ updateContract });
    render(<ContractPanel />);
    const budget = screen.getByRole('textbox', { name: 'Token budget' });
    await user.clear(budget);
    await user.type(budget, 'lots');
    await user.click(screen.getByRole('button', { name: 'Apply contract' }));
    expect(updateContract).toHaveBeenCalledWith({ value: expect.objectContaining({ tokenBudget: 'lots' }) });
    expect(await screen.findByRole('textbox', { name: 'Token budget' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('textbox', { name: 'Token budget' })).toHaveAccessibleDescription('tokenBudget: Invalid input: expected number, received string');
    expect(screen.getByRole('textbox', { name: 'Token budget' })).toHaveValue('lots');
  });

  it('sends raw JSON to the worker and lists problems by path and line', async () => {
    const user = userEvent.setup();
    const updateContract = vi.fn(async () => ({ ok: false as const, issues: [{ file: 'contract.json', line: 1, path: '(root)', message: 'not valid JSON: Unexpected end of JSON input' }] }));
    installFakeApi({ updateContract });
    render(<ContractPanel />);
    await user.click(screen.getByRole('button', { name: 'Raw JSON' }));
    const editor = screen.getByRole('textbox', { name: 'Contract JSON' });
    await user.clear(editor);
    await user.type(editor, '{{"task"');
    await user.click(screen.getByRole('button', { name: 'Apply JSON' }));
    expect(updateContract).toHaveBeenCalledWith({ text: '{"task"' });
    expect(await screen.findByTestId('contract-issues')).toHaveTextContent('(root) (line 1): not valid JSON');
  });
});
