// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TestsView } from '../../worker/expectation-runs';
import { INITIAL_TESTS, useTestsStore } from '../state/tests-store';
import { useUiStore } from '../state/ui-store';
import { TestsPanel } from './TestsPanel';

afterEach(() => {
  cleanup();
  useTestsStore.setState(INITIAL_TESTS);
});

const view: TestsView = {
  passed: 1,
  failed: 1,
  suites: [
    {
      file: 'exercise.expect.json',
      suite: 'chat approval',
      description: 'The compiled packet stays legal.',
      inputsNote: null,
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
            { place: 'line 12: cases[1].expect.evidence.waiver.state', subject: 'evidence slot waiver: state', expected: 'supported', actual: 'unknown', record: null, field: 'evidence' },
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
    expect(within(mismatches[0] as HTMLElement).getByTestId('test-expected').textContent).toBe('NOTE-0311 not selected');
    expect(within(mismatches[0] as HTMLElement).getByTestId('test-actual').textContent).toBe('selected ADR-0234, NOTE-0311');
    expect(within(mismatches[0] as HTMLElement).getByRole('button', { name: 'Inspect NOTE-0311' })).toBeTruthy();
    expect(failing?.textContent).toContain('1 expectation is not checked in the user view: it concerns a record you may not see, or the baselines.');
    useUiStore.setState({ activeView: 'trace' });
    await userEvent.click(within(mismatches[1] as HTMLElement).getByRole('button', { name: 'Show the contract (evidence)' }));
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
