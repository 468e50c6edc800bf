// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuditStrip } from '../components/AuditStrip';
import type { CompileResponse, RememberedResult, TraceRowView } from '../../worker/protocol';
import { installFakeApi, resetStores, sampleView, sampleWorkspace } from '../test-support';
import { loadTracePages } from './actions';
import { boot } from './session-actions';
import { setControl } from './workspace-actions';
import { useResultStore } from './result-store';
import { useScenarioStore } from './scenario-store';
import { useUiStore } from './ui-store';

const REMEMBERED = 'a'.repeat(64);
const row: TraceRowView = {
  id: 'ADR-0234',
  decision: 'selected',
  code: 'SELECTED_REQUIRED',
  fact: 'required by the contract',
  tokens: 40,
  required: true,
  score: null,
  rank: 1,
  change: null,
  mark: null,
};
const remembered: RememberedResult = {
  view: sampleView({ compilation: 0, receiptId: REMEMBERED }),
  firstPage: { offset: 0, rows: [row], matched: 600, total: 600 },
};

/** A promise and the function that settles it, so a test decides when the worker answers. */
function deferred<T>() {
  let settle: (value: T) => void = () => undefined;
  const promise = new Promise<T>((resolve) => (settle = resolve));
  return { promise, settle };
}

describe('the result remembered from the last session', () => {
  beforeEach(() => {
    resetStores();
    useResultStore.setState({ response: null });
    window.location.hash = '';
  });
  afterEach(cleanup);

  it('is shown at boot, marked as being checked, until the compilation of the restored workspace replaces it', async () => {
    const started = deferred<ReturnType<typeof sampleWorkspace>>();
    const api = installFakeApi({
      rememberedResult: async () => remembered,
      start: () => started.promise,
      compile: async () => ({ ok: true, view: sampleView({ receiptId: REMEMBERED }) }),
    });
    render(<AuditStrip />);
    const booting = boot();
    await vi.waitFor(() => expect(useResultStore.getState().rememberedReceipt).toBe(REMEMBERED));
    expect(screen.getByTestId('audit-outcome')).toHaveTextContent('From your last session; checking…');
    expect(screen.getByTestId('audit-receipt')).toHaveTextContent(REMEMBERED.slice(0, 12));
    expect(useResultStore.getState()).toMatchObject({ compiling: true, trace: { matched: 600, total: 600 } });
    expect(useResultStore.getState().trace.pages.get(0)).toEqual([row]);
    // Pages past the first come with the compilation: the worker has nothing compiled to answer from yet.
    await loadTracePages(200, 399);
    expect(api.queryTrace).not.toHaveBeenCalled();

    started.settle(sampleWorkspace());
    await booting;
    expect(useResultStore.getState()).toMatchObject({ rememberedReceipt: null, compiling: false });
    expect(screen.getByTestId('audit-outcome')).toHaveTextContent('Packet emitted');
    expect(useUiStore.getState().notice).toBeNull();
  });

  it('is only outdated, not being checked, once the user changes the inputs; the result of the toggle replaces it without a notice', async () => {
    const started = deferred<ReturnType<typeof sampleWorkspace>>();
    const toggled = 'c'.repeat(64);
    // As in the worker, every call waits until the workspace is restored.
    installFakeApi({
      rememberedResult: async () => remembered,
      start: () => started.promise,
      select: async (selection) => sampleWorkspace({ ...(await started.promise), selection }),
      compile: async () => ({ ok: true, view: sampleView({ receiptId: toggled }) }),
    });
    useUiStore.setState({ audience: 'diagnostic' });
    render(<AuditStrip />);
    const booting = boot();
    await vi.waitFor(() => expect(useResultStore.getState().rememberedReceipt).toBe(REMEMBERED));
    useScenarioStore.setState({ workspace: sampleWorkspace() });
    const toggling = setControl('future-reveal', true);
    expect(useResultStore.getState()).toMatchObject({ rememberedReceipt: null, compiling: true });
    await vi.waitFor(() => expect(screen.getByTestId('audit-outcome')).toHaveTextContent('Compiling…'));
    started.settle(sampleWorkspace());
    await Promise.all([booting, toggling]);
    expect(screen.getByTestId('audit-receipt')).toHaveTextContent(toggled.slice(0, 12));
    expect(useUiStore.getState().notice).toBeNull();
  });

  it('says so when the compilation gives another receipt, or none', async () => {
    const other = 'b'.repeat(64);
    const outcomes: CompileResponse[] = [
      { ok: true, view: sampleView({ receiptId: other }) },
      { ok: false, error: { code: 'REQUIRED_RECORD_MISSING', pass: 'admit', message: 'missing', issues: [] } as never },
    ];
    for (const outcome of outcomes) {
      resetStores();
      useResultStore.setState({ response: null });
      installFakeApi({ rememberedResult: async () => remembered, compile: async () => outcome });
      await boot();
      expect(useResultStore.getState().rememberedReceipt).toBeNull();
      expect(useUiStore.getState().notice).toContain(
        `The result shown from your last session (receipt ${REMEMBERED.slice(0, 12)}) is not what the workspace compiles to now`,
      );
    }
    expect(useUiStore.getState().notice).toContain('(it does not compile)');
  });

  it('leaves the screen when the compiler cannot start to check it', async () => {
    const started = deferred<ReturnType<typeof sampleWorkspace>>();
    installFakeApi({ rememberedResult: async () => remembered, start: () => started.promise });
    const booting = boot();
    await vi.waitFor(() => expect(useResultStore.getState().rememberedReceipt).toBe(REMEMBERED));
    started.settle(Promise.reject(new Error('WebAssembly is disabled')) as never);
    await booting;
    expect(useResultStore.getState()).toMatchObject({ response: null, rememberedReceipt: null, compiling: false });
    expect(useUiStore.getState().fatal).toContain('The compiler could not start in this browser.');
  });

  it('is not asked for when a link in the address bar will replace the workspace, and not shown in another view', async () => {
    window.location.hash = '#blank';
    const api = installFakeApi({ rememberedResult: vi.fn(async () => remembered) });
    await boot();
    expect(api.rememberedResult).not.toHaveBeenCalled();

    window.location.hash = '';
    resetStores();
    useResultStore.setState({ response: null });
    useUiStore.setState({ audience: 'user' });
    const compiled = deferred<CompileResponse>();
    installFakeApi({ rememberedResult: async () => remembered, compile: () => compiled.promise });
    const booting = boot();
    await vi.waitFor(() => expect(useResultStore.getState().compiling).toBe(true));
    expect(useResultStore.getState().response).toBeNull();
    compiled.settle({ ok: true, view: sampleView({ audience: 'user' }) });
    await booting;
  });
});
