// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { boot } from '../state/session-actions';
import { useScenarioStore } from '../state/scenario-store';
import { installFakeApi, resetStores, sampleScenario, sampleWorkspace } from '../test-support';
import { App } from './App';
import { UpdatePrompt } from './UpdatePrompt';

describe('App', () => {
  beforeEach(() => {
    resetStores();
    installFakeApi();
  });
  afterEach(cleanup);

  it('is headed with the product name, Context Compiler', () => {
    render(<App />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Context Compiler');
  });

  it('offers the three views as tabs and marks the chosen one', async () => {
    const user = userEvent.setup();
    render(<App />);
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Contract', 'Compare', 'Trace']);
    await user.click(screen.getByRole('tab', { name: 'Trace' }));
    expect(screen.getByRole('tab', { name: 'Trace' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: 'Trace' })).toHaveClass('active');
  });

  it('asks before resetting to the built-in scenarios, says what would be lost, and resets only when confirmed', async () => {
    const user = userEvent.setup();
    const api = installFakeApi();
    useScenarioStore.setState({
      workspace: sampleWorkspace({
        scenarios: [sampleScenario({ contractEdited: true }), sampleScenario({ key: 'loaded:mine', origin: 'loaded' })],
      }),
    });
    render(<App />);
    await user.click(screen.getByRole('button', { name: 'Reset to built-in scenarios' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Reset to the built-in scenarios?' });
    expect(dialog).toHaveAccessibleDescription(
      'This removes 1 loaded scenario and its files and 1 edited contract from this browser. Export a scenario first to keep it.',
    );
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(api.resetWorkspace).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Reset to built-in scenarios' }));
    await user.click(screen.getByRole('button', { name: 'Reset workspace' }));
    expect(api.resetWorkspace).toHaveBeenCalled();
    expect(api.compile).toHaveBeenCalled();
  });

  it('says so when the compiler worker cannot start', async () => {
    installFakeApi({ start: async () => Promise.reject(new Error('WebAssembly is disabled')) });
    render(<App />);
    await boot();
    expect(await screen.findByTestId('fatal-error')).toHaveTextContent('WebAssembly is disabled');
  });

  it('switches between light and dark themes', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.click(screen.getByRole('button', { name: 'Dark theme' }));
    expect(document.documentElement.dataset.theme).toBe('dark');
  });

  it('moves between the view tabs with the arrow keys, Home and End, one tab stop for the list', async () => {
    const user = userEvent.setup();
    render(<App />);
    const tab = (name: string) => screen.getByRole('tab', { name });
    expect(tab('Compare')).toHaveAttribute('tabindex', '0');
    expect(tab('Trace')).toHaveAttribute('tabindex', '-1');
    tab('Compare').focus();
    await user.keyboard('{ArrowRight}');
    expect(tab('Trace')).toHaveFocus();
    expect(tab('Trace')).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowRight}');
    expect(tab('Contract')).toHaveFocus();
    await user.keyboard('{End}');
    expect(tab('Trace')).toHaveFocus();
    await user.keyboard('{Home}{ArrowLeft}');
    expect(tab('Trace')).toHaveAttribute('aria-selected', 'true');
  });

  it('prompts for an update instead of swapping versions silently, and takes the focus', async () => {
    const user = userEvent.setup();
    let updated = false;
    render(<UpdatePrompt visible onUpdate={() => (updated = true)} onDismiss={() => undefined} />);
    expect(screen.getByRole('alertdialog', { name: 'Update available' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload to update' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Reload to update' }));
    expect(updated).toBe(true);
  });
});
