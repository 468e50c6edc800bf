// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useUiStore } from '../state/ui-store';
import { installFakeApi, resetStores } from '../test-support';
import { App } from './App';
import { TOUR_STEPS } from './Tour';

describe('Guided tour', () => {
  beforeEach(() => {
    resetStores();
    installFakeApi();
  });
  afterEach(cleanup);

  it('steps through the eight steps by keyboard, opening the view each one needs, and can be left at any step', async () => {
    const user = userEvent.setup();
    render(<App />);
    const start = screen.getByRole('button', { name: 'Start guided tour' });
    await user.click(start);
    const tour = screen.getByRole('region', { name: 'Guided tour' });
    expect(tour).toHaveTextContent('step 1 of 8');
    expect(screen.getByRole('heading', { name: TOUR_STEPS[0]?.title })).toHaveFocus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(screen.getByTestId('tour-progress')).toHaveTextContent('step 3 of 8');
    expect(useUiStore.getState().activeView).toBe('trace');
    await user.keyboard('{ArrowRight}');
    expect(useUiStore.getState().workspace).toBe('drill');
    await user.keyboard('{ArrowLeft}');
    expect(useUiStore.getState().workspace).toBe('debugger');
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('tour')).toBeNull();
    expect(start).toHaveFocus();
  });

  it('ends with "Finish tour" on the last step', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.click(screen.getByRole('button', { name: 'Start guided tour' }));
    for (let step = 1; step < TOUR_STEPS.length; step += 1) await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByTestId('tour-progress')).toHaveTextContent('step 8 of 8');
    await user.click(screen.getByRole('button', { name: 'Finish tour' }));
    expect(screen.queryByTestId('tour')).toBeNull();
  });
});
