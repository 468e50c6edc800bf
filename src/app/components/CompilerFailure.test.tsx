// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CompileResponse, LoadResult } from '../../worker/protocol';
import { compileNow } from '../state/actions';
import { downloadUserView, exportScenario } from '../state/export-actions';
import { openLink, setControl, shareWorkspace, updateContract } from '../state/workspace-actions';
import { useDrillStore } from '../state/drill-store';
import { useResultStore } from '../state/result-store';
import { useShareStore } from '../state/share';
import { installFakeApi, resetStores, sampleScenario, sampleView, sampleWorkspace } from '../test-support';
import { App } from './App';

const overflow = () =>
  Promise.reject(
    Object.assign(new Error('Maximum call stack size exceeded'), {
      stack: 'RangeError: Maximum call stack size exceeded\n    at lowerAdmission (lower-admission.ts:28:12)',
    }),
  );

/** What must be gone from the screen after any failure: every trace of a packet, receipt or copy. */
function expectNothingCopyable() {
  expect(screen.queryByTestId('audit-outcome')).toBeNull();
  expect(screen.queryByTestId('audit-receipt')).toBeNull();
  expect(screen.queryByRole('button', { name: 'Copy packet' })).toBeNull();
  expect(screen.queryByRole('button', { name: 'Download packet' })).toBeNull();
  expect(screen.queryByRole('button', { name: 'Download diagnostic receipt' })).toBeNull();
  expect(screen.queryByRole('button', { name: 'Download user view' })).toBeNull();
  expect(screen.queryByRole('button', { name: 'Download statement' })).toBeNull();
  expect(screen.queryByTestId('packet-text')).toBeNull();
  expect(screen.queryByTestId('column-compiled')).toBeNull();
}

describe('a failed call to the worker fails closed', () => {
  beforeEach(() => resetStores());
  afterEach(cleanup);

  it('a compile that throws after a contract edit leaves no packet, receipt or copy button, and says why', async () => {
    const user = userEvent.setup();
    const edited = sampleWorkspace({ scenarios: [sampleScenario({ contractEdited: true })] });
    const api = installFakeApi({
      compile: vi.fn(overflow),
      updateContract: vi.fn(async () => ({ ok: true as const, snapshot: edited })),
    });
    useDrillStore.setState({ frozenReceiptId: 'a'.repeat(64), declared: [], verdict: null, busy: false });
    render(<App />);
    expect(screen.getByTestId('audit-outcome')).toHaveTextContent('Packet emitted');

    expect(await updateContract({ value: {} })).toBe(true);
    const alert = await screen.findByTestId('compiler-failure');
    expect(alert).toHaveAttribute('role', 'alert');
    expect(alert).toHaveTextContent('NOT COMPILED — the compiler failed while compiling');
    expect(screen.getByTestId('compiler-failure-reason')).toHaveTextContent(
      'It ran out of stack space (Maximum call stack size exceeded)',
    );
    expect(alert).not.toHaveTextContent('lower-admission.ts');
    expect(screen.getByTestId('audit-strip')).toHaveTextContent('Not compiled: the compiler failed');
    expect(useDrillStore.getState().frozenReceiptId).toBeNull();
    expectNothingCopyable();

    // The way back: undo the edit, which recompiles; a success clears the failure.
    vi.mocked(api.compile).mockImplementation(async () => ({ ok: true, view: sampleView() }));
    await user.click(within(alert).getByRole('button', { name: 'Undo contract edits' }));
    expect(api.revertContract).toHaveBeenCalled();
    expect(await screen.findByTestId('audit-outcome')).toHaveTextContent('Packet emitted');
    expect(screen.queryByTestId('compiler-failure')).toBeNull();
  });

  it('a toggle the worker refuses puts the switch back and fails closed; "Try again" sends the selection again', async () => {
    const user = userEvent.setup();
    const api = installFakeApi({ select: vi.fn(() => Promise.reject(new Error('the compiler stopped'))) });
    render(<App />);
    await setControl('remove-provenance', true);
    expect(await screen.findByTestId('compiler-failure')).toHaveTextContent('while changing the selection');
    expect(screen.getByRole('switch', { name: 'Remove required provenance' })).not.toBeChecked();
    expectNothingCopyable();

    vi.mocked(api.select).mockImplementation(async (selection) => sampleWorkspace({ selection }));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(api.select).toHaveBeenLastCalledWith({ scenarioKey: 'retry-policy', controls: [], lateChanges: [] });
    expect(await screen.findByTestId('audit-outcome')).toHaveTextContent('Packet emitted');
  });

  it('a reply to an earlier compile that arrives after a failure is dropped', async () => {
    let answer: (response: CompileResponse) => void = () => undefined;
    const api = installFakeApi({ compile: vi.fn(() => new Promise<CompileResponse>((resolve) => (answer = resolve))) });
    render(<App />);
    const pending = compileNow();
    vi.mocked(api.select).mockImplementation(() => Promise.reject(new Error('the compiler stopped')));
    await setControl('remove-provenance', true);
    answer({ ok: true, view: sampleView() });
    await pending;
    expect(useResultStore.getState().response).toBeNull();
    expect(screen.getByTestId('compiler-failure')).toBeInTheDocument();
    expectNothingCopyable();
  });

  it('a failure of a compilation already replaced by a newer one changes nothing', async () => {
    let fail: (error: Error) => void = () => undefined;
    const api = installFakeApi({ compile: vi.fn(() => new Promise<CompileResponse>((_, reject) => (fail = reject))) });
    render(<App />);
    const first = compileNow();
    vi.mocked(api.compile).mockImplementation(async () => ({ ok: true, view: sampleView() }));
    // Asked for while the first compiles: it is sent once the first is answered, as the worker would take it.
    const second = compileNow();
    fail(new Error('late failure'));
    await Promise.all([first, second]);
    expect(api.compile).toHaveBeenCalledTimes(2);
    expect(useResultStore.getState().failure).toBeNull();
    expect(screen.getByTestId('audit-outcome')).toHaveTextContent('Packet emitted');
  });

  it('a file load that throws ends the spinner, lists the files as not loaded and fails closed', async () => {
    const user = userEvent.setup();
    installFakeApi({ loadFiles: vi.fn((): Promise<LoadResult> => Promise.reject(new Error('out of memory'))) });
    render(<App />);
    await user.upload(screen.getByTestId('file-input'), new File(['{}'], 'huge.jsonl'));
    expect(await screen.findByTestId('load-errors')).toHaveTextContent(
      'huge.jsonl: (root): the compiler failed while reading the files, so none was loaded. It ran out of memory (out of memory).',
    );
    expect(screen.queryByTestId('load-progress')).toBeNull();
    expect(screen.getByRole('button', { name: 'Open files…' })).toBeEnabled();
    expect(screen.getByTestId('compiler-failure')).toHaveTextContent('while loading files');
    expectNothingCopyable();
  });

  it('a failed download fails closed instead of throwing into the page', async () => {
    const user = userEvent.setup();
    installFakeApi({ receiptJson: vi.fn(() => Promise.reject(new Error('the compiler stopped'))) });
    render(<App />);
    await user.click(screen.getByRole('button', { name: 'Download diagnostic receipt' }));
    expect(await screen.findByTestId('compiler-failure')).toHaveTextContent('while exporting the receipt');
    expectNothingCopyable();
  });

  it.each([
    [
      'exporting the user view',
      () => downloadUserView(),
      { userViewJson: vi.fn(() => Promise.reject(new Error('the compiler stopped'))) },
    ],
    [
      'exporting the scenario',
      () => exportScenario(),
      { exportScenario: vi.fn(() => Promise.reject(new Error('the compiler stopped'))) },
    ],
    [
      'making a share link',
      () => shareWorkspace(),
      { createShareLink: vi.fn(() => Promise.reject(new Error('the compiler stopped'))) },
    ],
    [
      'opening the link',
      () => openLink({ kind: 'share', fragment: 'share=1.AAAA' }),
      { openShareLink: vi.fn(() => Promise.reject(new Error('the compiler stopped'))) },
    ],
    [
      'opening the link',
      () => openLink({ kind: 'blank' }),
      { resetWorkspace: vi.fn(() => Promise.reject(new Error('the compiler stopped'))) },
    ],
  ] as const)('a failed call while %s fails closed like the others', async (during, act, failing) => {
    resetStores(sampleView({ audience: 'user' }));
    installFakeApi(failing);
    render(<App />);
    await act();
    expect(await screen.findByTestId('compiler-failure')).toHaveTextContent(
      `NOT COMPILED — the compiler failed while ${during}`,
    );
    expectNothingCopyable();
  });

  it('a share link the worker could not make says so in the dialog, with no link', async () => {
    installFakeApi({ createShareLink: vi.fn(() => Promise.reject(new Error('the compiler stopped'))) });
    render(<App />);
    await shareWorkspace();
    expect(useShareStore.getState()).toMatchObject({
      link: null,
      status: 'No link was made: the compiler failed. The compiler stopped.',
    });
  });
});
