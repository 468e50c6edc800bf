// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TestsView } from '../../worker/suites/expectation-runs';
import { INITIAL_TESTS, useTestsStore } from '../state/tests-store';
import { useUiStore } from '../state/ui-store';
import { TestsPanel } from './TestsPanel';
import { installFakeApi, sampleCoverage } from '../test-support';

afterEach(() => {
  cleanup();
  useTestsStore.setState(INITIAL_TESTS);
});

const view: TestsView = {
  coverage: sampleCoverage(['EXCLUDE_AUTHORITY', 'EXCLUDE_PURPOSE']),
  passed: 1,
  failed: 1,
  suites: [
    {
      file: 'exercise.expect.json',
      suite: 'chat approval',
      description: 'The compiled packet stays legal.',
      inputsNote: null,
      coverage: sampleCoverage(),
      problems: [],
      cases: [
        { name: 'the default packet', passed: true, mismatches: [], notChecked: 0 },
        {
          name: 'approval keeps NOTE-0311 out',
          passed: false,
          notChecked: 1,
          mismatches: [
            {
              place: 'line 9: cases[1].expect.selected.excludes[0]',
              subject: 'packet excludes NOTE-0311',
              expected: 'NOTE-0311 not selected',
              actual: 'selected ADR-0234, NOTE-0311',
              record: 'NOTE-0311',
              field: 'selected',
            },
            {
              place: 'line 12: cases[1].expect.evidence.waiver.state',
              subject: 'evidence slot waiver: state',
              expected: 'supported',
              actual: 'unknown',
              record: null,
              field: 'evidence',
            },
          ],
        },
      ],
    },
  ],
};

describe('the Tests panel', () => {
  it('shows each case passing or failing, and a failing one with what it expected, what happened and where to look', async () => {
    useTestsStore.setState({ view });
    render(<TestsPanel onOpen={vi.fn()} onClose={vi.fn()} />);
    expect(screen.getByTestId('tests-summary').textContent).toBe('1 passing, 1 failing.');
    const [passing, failing] = screen.getAllByTestId('test-case');
    expect(passing?.dataset.passed).toBe('true');
    expect(failing?.dataset.passed).toBe('false');
    const mismatches = within(failing as HTMLElement).getAllByTestId('test-mismatch');
    expect(within(mismatches[0] as HTMLElement).getByTestId('test-expected').textContent).toBe(
      'NOTE-0311 not selected',
    );
    expect(within(mismatches[0] as HTMLElement).getByTestId('test-actual').textContent).toBe(
      'selected ADR-0234, NOTE-0311',
    );
    expect(within(mismatches[0] as HTMLElement).getByRole('button', { name: 'Inspect NOTE-0311' })).toBeTruthy();
    expect(failing?.textContent).toContain(
      '1 expectation is not checked in the user view: it concerns a record you may not see, or the baselines.',
    );
    useUiStore.setState({ activeView: 'trace' });
    await userEvent.click(
      within(mismatches[1] as HTMLElement).getByRole('button', { name: 'Show the contract (evidence)' }),
    );
    expect(useUiStore.getState().activeView).toBe('contract');
  });

  it('hands opened files to its caller and closes a suite by its file', async () => {
    useTestsStore.setState({ view });
    const onOpen = vi.fn();
    const onClose = vi.fn();
    render(<TestsPanel onOpen={onOpen} onClose={onClose} />);
    const file = new File(['{}'], 'a.expect.json', { type: 'application/json' });
    await userEvent.upload(screen.getByTestId('tests-open'), file);
    expect(onOpen).toHaveBeenCalledWith([file]);
    await userEvent.click(screen.getByRole('button', { name: 'Close exercise.expect.json' }));
    expect(onClose).toHaveBeenCalledWith('exercise.expect.json');
  });

  it('says why a suite was refused, and that none is open', () => {
    useTestsStore.setState({ refusal: 'bad.expect.json:3: cases[0].expect: unknown field "outcom"' });
    render(<TestsPanel onOpen={vi.fn()} onClose={vi.fn()} />);
    expect(screen.getByTestId('tests-refusal').textContent).toContain('bad.expect.json:3');
    expect(screen.getByText(/No suite open/)).toBeTruthy();
  });
});

describe('writing expectations from the screen', () => {
  it('previews a case as a diff in the view on screen, and keeping it downloads and opens the suite', async () => {
    const user = userEvent.setup();
    const text = '{\n  "suite": "s"\n}\n';
    const caseFromScreen = vi.fn(async () => ({
      ok: true as const,
      file: 'retry-policy.expect.json',
      text,
      diff: [{ kind: 'added' as const, text: '{' }],
      notShown: ['NOPE-1'],
      unchanged: [],
    }));
    const api = installFakeApi({ caseFromScreen });
    URL.createObjectURL = vi.fn(() => 'blob:suite');
    URL.revokeObjectURL = vi.fn();
    useUiStore.setState({ audience: 'user' });
    useTestsStore.setState({ view });
    render(<TestsPanel onOpen={() => undefined} onClose={() => undefined} />);
    await user.type(screen.getByTestId('case-name'), 'as on screen');
    await user.type(screen.getByTestId('case-records'), 'ADR-0240, NOPE-1');
    await user.selectOptions(screen.getByTestId('case-suite'), 'exercise.expect.json');
    await user.click(screen.getByRole('button', { name: 'Preview test case' }));
    expect(caseFromScreen).toHaveBeenCalledWith(
      { name: 'as on screen', records: ['ADR-0240', 'NOPE-1'], suite: 'exercise.expect.json' },
      'user',
    );
    expect(await screen.findByTestId('suite-diff')).toHaveTextContent('+ {');
    expect(screen.getByTestId('suite-draft-not-shown')).toHaveTextContent('NOPE-1');
    expect(screen.queryByTestId('suite-draft-scenario-file')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Keep and download' }));
    const [files] = vi.mocked(api.openSuites).mock.calls[0] ?? [];
    expect(files?.map((file) => file.name)).toEqual(['retry-policy.expect.json']);
    expect(await files?.[0]?.text()).toBe(text);
    expect(screen.queryByTestId('suite-draft')).toBeNull();
  });

  it('says which exported scenario a suite saved from an edited contract runs on', async () => {
    const text = '{"suite": "s", "inputs": {"scenarioFile": "retry-policy.scenario.json"}, "cases": []}';
    useTestsStore.setState({
      view,
      draft: {
        purpose: 'case',
        draft: { ok: true, file: 'retry-policy.expect.json', text, diff: [], notShown: [], unchanged: [] },
      },
    });
    installFakeApi();
    render(<TestsPanel onOpen={() => undefined} onClose={() => undefined} />);
    expect(screen.getByTestId('suite-draft-scenario-file')).toHaveTextContent(
      'Its inputs are retry-policy.scenario.json, the scenario as edited here: Export scenario',
    );
  });

  it('asks for an open suite updated and shows why it cannot be, with nothing to keep', async () => {
    const user = userEvent.setup();
    const updatedSuite = vi.fn(async () => ({
      ok: false as const,
      issues: [
        {
          file: 'exercise.expect.json',
          path: '(root)',
          code: 'SUITE_NOT_OPEN' as const,
          args: {},
          message: 'is not open in the Tests panel: open it first',
        },
      ],
    }));
    installFakeApi({ updatedSuite });
    useUiStore.setState({ audience: 'diagnostic' });
    useTestsStore.setState({ view });
    render(<TestsPanel onOpen={() => undefined} onClose={() => undefined} />);
    await user.click(screen.getByRole('button', { name: 'Update expectations of exercise.expect.json' }));
    expect(updatedSuite).toHaveBeenCalledWith('exercise.expect.json', 'diagnostic');
    expect(await screen.findByTestId('suite-draft-issues')).toHaveTextContent('is not open in the Tests panel');
    expect(screen.queryByRole('button', { name: 'Keep and download' })).toBeNull();
  });
});

describe('coverage in the Tests panel', () => {
  it('shows what the open suites reached and what they never did, per dimension and per suite', () => {
    useTestsStore.setState({ view });
    render(<TestsPanel onOpen={() => undefined} onClose={() => undefined} />);
    const table = screen.getByRole('table', { name: 'Coverage of the open suites on the inputs on screen' });
    expect(within(table).getByTestId('coverage-codes')).toHaveTextContent(
      'Reason codes60%EXCLUDE_AUTHORITY, EXCLUDE_PURPOSE',
    );
    expect(within(table).getByTestId('coverage-controls')).toHaveTextContent('Controls50%tight-budget');
    expect(within(table).getByTestId('coverage-lateChanges')).toHaveTextContent('Late changes100%nothing');
    expect(screen.getByTestId('test-suite-coverage')).toHaveTextContent(
      'Reaches 75% of reason codes, 100% of gates, 50% of controls.',
    );
  });
});

describe('the suite editor', () => {
  it('edits an open suite, flags a problem as typed, and runs the edited text with Ctrl+Enter', async () => {
    const user = userEvent.setup();
    const suiteText = vi.fn(async () => '{"suite": "chat approval"}\n');
    const checkSuite = vi.fn(async (_file: string, text: string) =>
      text.includes('"suit"')
        ? [
            {
              file: 'exercise.expect.json',
              line: 1,
              path: '(root)',
              code: 'UNKNOWN_FIELDS' as const,
              args: {},
              message: 'unknown field "suit"',
            },
          ]
        : [],
    );
    const api = installFakeApi({ suiteText, checkSuite });
    useUiStore.setState({ audience: 'diagnostic' });
    useTestsStore.setState({ view });
    render(<TestsPanel onOpen={() => undefined} onClose={() => undefined} />);
    await user.click(screen.getByRole('button', { name: 'Edit exercise.expect.json' }));
    const editor = await screen.findByRole('textbox', { name: 'Suite exercise.expect.json' });
    expect(suiteText).toHaveBeenCalledWith('exercise.expect.json');
    await user.clear(editor);
    await user.type(editor, '{{"suit": 1}');
    expect(await screen.findByTestId('suite-typed-issues')).toHaveTextContent('unknown field "suit"');
    expect(api.openSuites).not.toHaveBeenCalled();
    await user.keyboard('{Control>}{Enter}{/Control}');
    const [files] = vi.mocked(api.openSuites).mock.calls[0] ?? [];
    expect(files?.map((file) => file.name)).toEqual(['exercise.expect.json']);
    expect(await files?.[0]?.text()).toBe('{"suit": 1}');
  });
});
