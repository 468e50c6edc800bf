// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CompilerApi, SavedWorkspace, WorkspaceEvent } from '../../worker/protocol';
import { boot, recoverFromWorkerLoss } from '../state/session-actions';
import { useScenarioStore } from '../state/scenario-store';
import { installFakeApi, resetStores, sampleWorkspace } from '../test-support';
import { WorkerLostError } from '../worker-client';
import { App } from './App';

const kept: SavedWorkspace = {
  version: 1,
  loads: [{ baseKey: 'retry-policy', files: [{ name: 'mine.scenario.json', blob: new Blob(['{}']) }] }],
  contractEdits: { 'retry-policy': { task: 'edited' } },
  selection: { scenarioKey: 'loaded:mine', controls: [], lateChanges: [] },
};

/** A first worker that reports `kept` as its workspace, and the fresh ones a restart puts behind the API. */
function workers(fresh: () => Partial<CompilerApi> = () => ({})) {
  const started: CompilerApi[] = [];
  const restart = vi.fn(() => {
    started.push(installFakeApi(fresh(), restart));
  });
  const first = installFakeApi(
    {
      start: vi.fn(async (_restore: SavedWorkspace | null, onChange: (event: WorkspaceEvent) => void) => {
        onChange({ workspace: kept, storage: { status: 'persistent' } });
        return sampleWorkspace();
      }),
    },
    restart,
  );
  return { first, started, restart };
}

describe('a lost worker', () => {
  beforeEach(() => resetStores());
  afterEach(cleanup);

  it('is replaced by a fresh one given the workspace the page kept, which compiles again, and the user is told', async () => {
    const { first, started, restart } = workers();
    render(<App />);
    await boot();
    expect(first.start).toHaveBeenCalledWith(null, expect.any(Function));

    await recoverFromWorkerLoss('it was ended by the browser or crashed');
    expect(restart).toHaveBeenCalledTimes(1);
    const fresh = started[0];
    expect(fresh?.start).toHaveBeenCalledWith(kept, expect.any(Function));
    expect(fresh?.compile).toHaveBeenCalled();
    const notice = screen.getByTestId('worker-restarted');
    expect(notice).toHaveTextContent(
      'The compiler stopped (it was ended by the browser or crashed) and was started again. Your loaded files, selection and contract edits were restored',
    );
    expect(screen.getByTestId('audit-outcome')).toHaveTextContent('Packet emitted');
    expect(screen.queryByTestId('compiler-failure')).toBeNull();
    await userEvent.setup().click(within(notice).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('worker-restarted')).toBeNull();
  });

  it('lost again while restoring, is not retried blindly: the user may try again or start without the saved workspace', async () => {
    const user = userEvent.setup();
    // The fresh worker dies during its compile, as one killed by the restored workspace would.
    let recovering: Promise<void> = Promise.resolve();
    let fresh = 0;
    const { started, restart } = workers(() =>
      fresh++ > 0
        ? {}
        : {
            compile: vi.fn(() => {
              recovering = recoverFromWorkerLoss('it was ended by the browser or crashed');
              return Promise.reject(new WorkerLostError('it was ended by the browser or crashed'));
            }),
          },
    );
    render(<App />);
    await boot();
    await recoverFromWorkerLoss('it hit an unexpected error (boom)');
    await recovering;
    const fatal = screen.getByTestId('fatal-error');
    expect(fatal).toHaveTextContent(
      'The compiler stopped again while your workspace was being restored: it was ended by the browser or crashed.',
    );
    expect(screen.queryByTestId('audit-outcome')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Copy packet' })).toBeNull();
    expect(restart).toHaveBeenCalledTimes(1);

    await user.click(within(fatal).getByRole('button', { name: 'Start without the saved workspace' }));
    expect(restart).toHaveBeenCalledTimes(2);
    const clean = started[1];
    expect(clean?.start).toHaveBeenCalledWith(
      { version: 1, loads: [], contractEdits: {}, selection: { scenarioKey: '', controls: [], lateChanges: [] } },
      expect.any(Function),
    );
    expect(clean?.resetWorkspace).toHaveBeenCalled();
    expect(await screen.findByTestId('audit-outcome')).toHaveTextContent('Packet emitted');
    expect(screen.queryByTestId('fatal-error')).toBeNull();
  });

  it('a worker that cannot start says why, and "Try again" starts a fresh one', async () => {
    const user = userEvent.setup();
    const restart = vi.fn(() => installFakeApi({}, restart));
    installFakeApi(
      { start: () => Promise.reject(new Error('Aborted(both async and sync fetching of the wasm failed)')) },
      restart,
    );
    render(<App />);
    await boot();
    const fatal = screen.getByTestId('fatal-error');
    expect(fatal).toHaveTextContent(
      'The compiler could not start in this browser. Aborted(both async and sync fetching of the wasm failed).',
    );
    await user.click(within(fatal).getByRole('button', { name: 'Try again' }));
    expect(restart).toHaveBeenCalled();
    expect(await screen.findByTestId('audit-outcome')).toHaveTextContent('Packet emitted');
    expect(screen.queryByTestId('fatal-error')).toBeNull();
  });

  it('storage news from the worker reaches the notice without a round trip', async () => {
    installFakeApi({
      start: vi.fn(async (_restore: SavedWorkspace | null, onChange: (event: WorkspaceEvent) => void) => {
        setTimeout(
          () => onChange({ workspace: kept, storage: { status: 'unavailable', message: 'Browser storage failed.' } }),
          0,
        );
        return sampleWorkspace();
      }),
    });
    render(<App />);
    await boot();
    expect(await screen.findByTestId('storage-notice')).toHaveTextContent('Browser storage failed.');
    expect(useScenarioStore.getState().workspace?.storage.status).toBe('unavailable');
  });
});

describe('storage cleared under the page', () => {
  beforeEach(() => resetStores());
  afterEach(cleanup);

  it('is said with a way to save the workspace again', async () => {
    const user = userEvent.setup();
    const api = installFakeApi({
      start: vi.fn(async (_restore: SavedWorkspace | null, onChange: (event: WorkspaceEvent) => void) => {
        setTimeout(
          () =>
            onChange({
              workspace: kept,
              storage: { status: 'cleared', message: 'Browser storage was cleared while this page was open.' },
            }),
          0,
        );
        return sampleWorkspace();
      }),
    });
    render(<App />);
    await boot();
    const notice = await screen.findByTestId('storage-notice');
    expect(notice).toHaveTextContent('Browser storage was cleared while this page was open.');
    await user.click(within(notice).getByRole('button', { name: 'Save workspace again' }));
    expect(api.saveWorkspace).toHaveBeenCalled();
    expect(screen.queryByTestId('storage-notice')).toBeNull();
  });
});
