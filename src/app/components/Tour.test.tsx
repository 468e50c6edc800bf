// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Selection } from '../../worker/protocol';
import { useUiStore } from '../state/ui-store';
import { useScenarioStore } from '../state/scenario-store';
import { installFakeApi, resetStores, sampleScenario, sampleView, sampleWorkspace } from '../test-support';
import { App } from './App';

/** A worker whose compilation follows the switches: "Remove required provenance" on fails closed. */
function installSwitchingApi(): void {
  let selection: Selection = { scenarioKey: 'retry-policy', controls: [], lateChanges: [] };
  installFakeApi({
    select: async (wanted) => {
      selection = wanted;
      return sampleWorkspace({ selection });
    },
    compile: async () => {
      const failed = selection.controls.includes('remove-provenance');
      const view = sampleView({
        controls: [...selection.controls],
        status: failed ? 'fail_closed' : 'packet',
        failure: failed
          ? { code: 'REQUIRED_MISSING_PROVENANCE', summary: 's', message: 'm', recordId: 'ADR-0234', fact: null }
          : null,
      });
      return {
        ok: true,
        view: failed
          ? {
              ...view,
              columns: { ...view.columns, compiled: { ...view.columns.compiled, emitted: false, entries: [] } },
            }
          : view,
      };
    },
  });
}

describe('Guided tour', () => {
  beforeEach(() => {
    resetStores();
    installSwitchingApi();
  });
  afterEach(cleanup);

  it('builds steps from the controls and late changes, waits for each action and refuses Next until it is done', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.click(screen.getByRole('button', { name: 'Start guided tour' }));
    const tour = await screen.findByRole('region', { name: 'Guided tour' });
    // One control switched on and off, then the four steps of the fire drill.
    expect(screen.getByTestId('tour-progress')).toHaveTextContent('step 1 of 6');
    expect(screen.getByRole('heading', { name: 'Control 1 of 1: Remove required provenance' })).toHaveFocus();
    expect(screen.getByTestId('tour-ask')).toHaveTextContent(
      'Switch on “Remove required provenance” under Poison controls.',
    );
    expect(screen.queryByTestId('tour-shows')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByTestId('tour-progress')).toHaveTextContent('step 1 of 6');
    expect(screen.getByTestId('tour-refusal')).toHaveTextContent(
      'Not yet: “Remove required provenance” is off. Switch on “Remove required provenance” under Poison controls.',
    );

    await user.click(screen.getByTestId('control-remove-provenance'));
    await waitFor(() =>
      expect(screen.getByTestId('tour-shows')).toHaveTextContent(
        'No packet at all: the compiler fails closed (REQUIRED_MISSING_PROVENANCE).',
      ),
    );
    expect(screen.queryByTestId('tour-refusal')).toBeNull();
    // The effect is in the Compare view (a tab on a narrow screen).
    expect(useUiStore.getState().activeView).toBe('compare');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByTestId('tour-progress')).toHaveTextContent('step 2 of 6');
    expect(useUiStore.getState().activeView).toBe('contract');

    await user.click(screen.getByTestId('control-remove-provenance'));
    await waitFor(() => expect(screen.getByTestId('tour-shows')).toHaveTextContent('A packet again: ADR-0234.'));
    // By keyboard: from the card's Next button, Enter, then the arrow keys inside the card.
    screen.getByRole('button', { name: 'Next' }).focus();
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('tour-progress')).toHaveTextContent('step 3 of 6');
    expect(useUiStore.getState().workspace).toBe('drill');
    await user.click(screen.getByRole('button', { name: 'Freeze receipt' }));
    await waitFor(() => expect(screen.getByTestId('tour-shows')).toHaveTextContent('Frozen: receipt'));
    expect(tour).toHaveAttribute('data-step-done', 'true');

    screen.getByRole('button', { name: 'Back' }).focus();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByTestId('tour-progress')).toHaveTextContent('step 2 of 6');
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('tour')).toBeNull();
    expect(screen.getByRole('button', { name: 'Start guided tour' })).toHaveFocus();
  });

  it('shows no step text in the user view, and asks for the diagnostic view', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.click(screen.getByRole('button', { name: 'Start guided tour' }));
    await screen.findByRole('region', { name: 'Guided tour' });
    await user.click(screen.getByRole('radio', { name: 'User view' }));
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: 'The tour runs in the diagnostic view' })).toBeVisible(),
    );
    expect(screen.getByTestId('tour')).not.toHaveTextContent('Remove required provenance');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByTestId('tour-refusal')).toHaveTextContent('Not yet: The tour runs in the diagnostic view');
  });

  it('ends when another scenario is selected, and says so when a scenario has nothing to try', async () => {
    const user = userEvent.setup();
    render(<App />);
    const start = screen.getByRole('button', { name: 'Start guided tour' });
    await user.click(start);
    await screen.findByRole('region', { name: 'Guided tour' });
    const other = sampleScenario({ key: 'loaded:bare', title: 'Bare', controls: [], lateChanges: [] });
    act(() =>
      useScenarioStore.setState({
        workspace: sampleWorkspace({
          scenarios: [sampleScenario(), other],
          selection: { scenarioKey: 'loaded:bare', controls: [], lateChanges: [] },
        }),
      }),
    );
    expect(screen.queryByTestId('tour')).toBeNull();

    await user.click(start);
    expect(screen.getByRole('heading', { name: 'Nothing to try here' })).toHaveFocus();
    expect(screen.getByTestId('tour')).toHaveTextContent('This scenario has no controls and no late changes');
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('tour')).toBeNull();
    expect(start).toHaveFocus();
  });
});
