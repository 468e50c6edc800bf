// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { inputIssue } from '../../core/issues';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useScenarioStore } from '../state/scenario-store';
import { useResultStore } from '../state/result-store';
import { useUiStore } from '../state/ui-store';
import { installFakeApi, resetStores, sampleScenario, sampleView, sampleWorkspace } from '../test-support';
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
    expect(api.select).toHaveBeenCalledWith({
      scenarioKey: 'retry-policy',
      controls: ['remove-provenance'],
      lateChanges: [],
    });
    expect(api.compile).toHaveBeenCalled();
  });

  it('offers no scenario export in the user view: a scenario file holds every record, withheld ones among them', async () => {
    const user = userEvent.setup();
    const api = installFakeApi();
    render(<ContractPanel />);
    await user.click(screen.getByRole('button', { name: 'Export scenario' }));
    expect(api.exportScenario).toHaveBeenCalledTimes(1);
    expect(await screen.findByTestId('export-scenario-status')).toHaveTextContent(
      'Exported retry-policy.scenario.json',
    );
    act(() => useUiStore.setState({ audience: 'user' }));
    expect(screen.queryByRole('button', { name: 'Export scenario' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('export-scenario-status')).not.toBeInTheDocument();
    expect(screen.getByTestId('export-scenario-diagnostic-only')).toHaveTextContent(
      'Export scenario is in the diagnostic view',
    );
  });

  it('lists built-in and loaded scenarios in the picker and switches between them', async () => {
    const user = userEvent.setup();
    const api = installFakeApi();
    useScenarioStore.setState({
      workspace: sampleWorkspace({
        scenarios: [sampleScenario(), sampleScenario({ key: 'loaded:mine', title: 'Mine', origin: 'loaded' })],
      }),
    });
    render(<ContractPanel />);
    expect(screen.getByRole('option', { name: 'Mine (loaded)' })).toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Scenario' }), 'loaded:mine');
    expect(api.select).toHaveBeenCalledWith({ scenarioKey: 'loaded:mine', controls: [], lateChanges: [] });
  });

  it('shows a schema error beside the field it concerns and keeps the draft', async () => {
    const user = userEvent.setup();
    const updateContract = vi.fn(async () => ({
      ok: false as const,
      issues: [
        inputIssue({ file: 'contract', path: 'tokenBudget' }, 'FORMAT_RULE', {
          problem: 'Invalid input: expected number, received string',
        }),
      ],
    }));
    installFakeApi({ updateContract });
    render(<ContractPanel />);
    const budget = screen.getByRole('textbox', { name: 'Token budget' });
    await user.clear(budget);
    await user.type(budget, 'lots');
    await user.click(screen.getByRole('button', { name: 'Apply contract' }));
    expect(updateContract).toHaveBeenCalledWith({ value: expect.objectContaining({ tokenBudget: 'lots' }) });
    expect(await screen.findByRole('textbox', { name: 'Token budget' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('textbox', { name: 'Token budget' })).toHaveAccessibleDescription(
      'tokenBudget: Invalid input: expected number, received string',
    );
    expect(screen.getByRole('textbox', { name: 'Token budget' })).toHaveValue('lots');
  });

  it('sends raw JSON to the worker and lists problems by path and line', async () => {
    const user = userEvent.setup();
    const updateContract = vi.fn(async () => ({
      ok: false as const,
      issues: [
        inputIssue({ file: 'contract.json', line: 1, path: '(root)' }, 'NOT_JSON', {
          problem: 'Unexpected end of JSON input',
          near: null,
        }),
      ],
    }));
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

  it('flags a misspelt field as it is typed, on its line, before anything is applied', async () => {
    const user = userEvent.setup();
    const checkContract = vi.fn(async (text: string) =>
      text.includes('"tokenBudgte"')
        ? [
            inputIssue({ file: 'contract.json', line: 2, path: '(root)' }, 'UNKNOWN_FIELDS', {
              fields: ['"tokenBudgte"'],
              meant: ['"tokenBudget"'],
            }),
          ]
        : [],
    );
    const api = installFakeApi({ checkContract });
    render(<ContractPanel />);
    await user.click(screen.getByRole('button', { name: 'Raw JSON' }));
    const editor = screen.getByRole('textbox', { name: 'Contract JSON' });
    await user.clear(editor);
    await user.type(editor, '{{\n"tokenBudgte": 10}');
    expect(await screen.findByTestId('contract-typed-issues')).toHaveTextContent(
      '(root) (line 2): unknown field "tokenBudgte": not part of the format; did you mean "tokenBudget"?',
    );
    expect(editor).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('contract-json-problem-line')).toHaveTextContent('"tokenBudgte": 10}');
    expect(api.updateContract).not.toHaveBeenCalled();
  });

  it('formats the JSON, and applies it with Ctrl+Enter', async () => {
    const user = userEvent.setup();
    const api = installFakeApi();
    render(<ContractPanel />);
    await user.click(screen.getByRole('button', { name: 'Raw JSON' }));
    const editor = screen.getByRole('textbox', { name: 'Contract JSON' });
    await user.clear(editor);
    await user.type(editor, '{{"task":"Review","tokenBudget":10}');
    await user.click(screen.getByRole('button', { name: 'Format' }));
    expect(editor).toHaveValue('{\n  "task": "Review",\n  "tokenBudget": 10\n}\n');
    await user.click(editor);
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(api.updateContract).toHaveBeenCalledWith({ text: '{\n  "task": "Review",\n  "tokenBudget": 10\n}\n' });
  });

  it('shows the values actually compiled, with a badge for each active control and late change', () => {
    installFakeApi();
    const base = sampleScenario().contract;
    useResultStore.setState({
      response: {
        ok: true,
        view: sampleView({
          compiledContract: { ...base, tokenBudget: 24, requiredRecords: ['ADR-0234', 'RUN-0880'] },
          recordCount: 14,
          appliedChanges: [
            {
              id: 'tight-budget',
              label: 'Required record over budget',
              kind: 'control',
              contractFields: ['tokenBudget'],
              records: { added: 0, removed: 0, patched: 0 },
            },
            {
              id: 'future-reveal',
              label: 'Future reveal',
              kind: 'control',
              contractFields: [],
              records: { added: 1, removed: 0, patched: 0 },
            },
            {
              id: 'promote-run-0880',
              label: 'Late correction: RUN-0880 is required',
              kind: 'late-change',
              contractFields: ['requiredRecords'],
              records: { added: 0, removed: 0, patched: 0 },
            },
          ],
        }),
      },
    });
    render(<ContractPanel />);
    const budget = screen.getByRole('textbox', { name: 'Token budget' });
    expect(budget).toHaveValue('24');
    expect(budget).toHaveAttribute('readonly');
    expect(budget).toHaveAccessibleDescription(
      /set by control: Required record over budget\s*\. The scenario says “96”/,
    );
    expect(screen.getByRole('textbox', { name: /Required records/ })).toHaveValue('ADR-0234, RUN-0880');
    expect(screen.getByRole('textbox', { name: 'Query' })).not.toHaveAttribute('readonly');
    expect(screen.getByTestId('scenario-records')).toHaveTextContent('14 records (13 in the scenario)');
    expect(screen.getByTestId('compiled-with')).toHaveTextContent('control: Future reveal');
    expect(screen.getByTestId('compiled-with')).toHaveTextContent('late change: Late correction: RUN-0880 is required');
  });

  it('submits the scenario value of a field a control overrides, never the compiled one', async () => {
    const user = userEvent.setup();
    const api = installFakeApi();
    const base = sampleScenario().contract;
    useResultStore.setState({
      response: {
        ok: true,
        view: sampleView({
          compiledContract: { ...base, tokenBudget: 24 },
          appliedChanges: [
            {
              id: 'tight-budget',
              label: 'Required record over budget',
              kind: 'control',
              contractFields: ['tokenBudget'],
              records: { added: 0, removed: 0, patched: 0 },
            },
          ],
        }),
      },
    });
    render(<ContractPanel />);
    await user.clear(screen.getByRole('textbox', { name: 'Query' }));
    await user.type(screen.getByRole('textbox', { name: 'Query' }), 'timeouts');
    await user.click(screen.getByRole('button', { name: 'Apply contract' }));
    expect(api.updateContract).toHaveBeenCalledWith({
      value: expect.objectContaining({ query: 'timeouts', tokenBudget: 96 }),
    });
  });

  it('marks an edited scenario in the picker and beside it', () => {
    installFakeApi();
    useScenarioStore.setState({
      workspace: sampleWorkspace({
        scenarios: [
          sampleScenario({ contractEdited: true }),
          sampleScenario({ key: 'loaded:mine', title: 'Mine', origin: 'loaded', contractEdited: true }),
        ],
      }),
    });
    render(<ContractPanel />);
    expect(screen.getByRole('option', { name: 'Retry policy (edited)' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Mine (loaded, edited)' })).toBeInTheDocument();
    expect(screen.getByTestId('scenario-edited')).toHaveTextContent('differs from the built-in scenario');
    expect(screen.getByRole('heading', { name: 'Contract (edited)' })).toBeInTheDocument();
  });

  it('exports the scenario and says how to get the same receipt back', async () => {
    const user = userEvent.setup();
    URL.createObjectURL = vi.fn(() => 'blob:scenario');
    URL.revokeObjectURL = vi.fn();
    const api = installFakeApi({
      exportScenario: vi.fn(async () => ({ fileName: 'retry-policy.scenario.json', json: '{}', edited: true })),
    });
    useScenarioStore.setState({
      workspace: sampleWorkspace({
        selection: { scenarioKey: 'retry-policy', controls: ['remove-provenance'], lateChanges: [] },
      }),
    });
    render(<ContractPanel />);
    await user.click(screen.getByRole('button', { name: 'Export scenario' }));
    expect(api.exportScenario).toHaveBeenCalled();
    expect(await screen.findByTestId('export-scenario-status')).toHaveTextContent(
      'Exported retry-policy.scenario.json with the edited contract. Loading it selects it with every control off: switch on Remove required provenance to get this receipt again.',
    );
  });
});
