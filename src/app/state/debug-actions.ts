import type { AsOfStep } from '../../worker/protocol';
import { compileNow, failClosed, guarded, refreshTrace } from './actions';
import { compilerApi } from '../worker-client';
import { INITIAL_DEBUG, useDebugStore } from './debug-store';
import { useResultStore } from './result-store';
import { useScenarioStore } from './scenario-store';
import { useUiStore } from './ui-store';
import { wordMessage } from '../../core/messages';

// Answers can arrive out of order when compilations follow each other quickly: only the newest is shown.
let ticket = 0;

/**
 * The diffs, the as-of boundaries and an open inspector, asked again for what is compiled now and the view on screen.
 */
export async function refreshDebugViews(): Promise<void> {
  const current = ++ticket;
  const response = useResultStore.getState().response;
  if (!response?.ok) {
    // Nothing compiled: nothing to compare or inspect (the pin, held by the worker, stays).
    useDebugStore.setState((state) => ({
      baselineDiff: null,
      stops: null,
      asOfDiff: null,
      inspector: state.inspector && {
        id: state.inspector.id,
        response: { ok: false, message: wordMessage('NOTHING_COMPILED_NOW') },
      },
    }));
    return;
  }
  const audience = useUiStore.getState().audience;
  const { baseline, inspector } = useDebugStore.getState();
  const api = compilerApi();
  try {
    const [stops, asOfDiff, baselineDiff, inspection] = await Promise.all([
      api.asOfStops(audience),
      api.asOfDiff(audience),
      baseline ? api.baselineDiff(audience) : Promise.resolve(null),
      inspector ? api.inspectRecord(inspector.id, audience) : Promise.resolve(null),
    ]);
    if (current !== ticket) return;
    // The worker holds the pin: a reset workspace, an opened share link or a restarted worker has none.
    const pinLost = baseline !== null && baselineDiff === null;
    useDebugStore.setState((state) => ({
      stops,
      asOfDiff,
      baselineDiff,
      ...(pinLost ? { baseline: null } : {}),
      inspector:
        state.inspector && inspection && state.inspector.id === inspector?.id
          ? { id: state.inspector.id, response: inspection }
          : state.inspector,
    }));
  } catch (error) {
    if (current !== ticket) return;
    // Like any failed call to the worker: nothing derived from it stays on screen (this runs again once the result is
    // gone).
    useDebugStore.setState({ ...INITIAL_DEBUG, baseline: useDebugStore.getState().baseline });
    failClosed('UPDATING_DEBUG_VIEWS', error);
  }
}

/** Every new result (a compilation, another view) refreshes the debugger views; returns the unsubscribe. */
export function watchCompilations(): () => void {
  return useResultStore.subscribe((state, previous) => {
    // A result remembered from the last session has no compilation in the worker yet to ask about.
    if (state.response !== previous.response && state.rememberedReceipt === null) void refreshDebugViews();
  });
}

export async function openInspector(id: string): Promise<void> {
  useDebugStore.setState({ inspector: { id, response: null } });
  await guarded('INSPECTING_RECORD', async () => {
    const response = await compilerApi().inspectRecord(id, useUiStore.getState().audience);
    // A later open (another record) or a close wins.
    if (useDebugStore.getState().inspector?.id !== id) return;
    useDebugStore.setState({ inspector: { id, response } });
  });
}

export function closeInspector(): void {
  useDebugStore.setState({ inspector: null });
}

/** Pins what is compiled now; later compilations are diffed against it and the trace marks the rows that changed. */
export async function pinBaseline(): Promise<void> {
  const pinned = await guarded('PINNING_BASELINE', async () => {
    const baseline = await compilerApi().pinBaseline();
    useDebugStore.setState({ baseline, baselineDiff: null });
    useUiStore.setState({
      notice: baseline
        ? `Pinned as the baseline: ${baseline.scenarioTitle}, as of ${baseline.asOf}.`
        : 'Nothing is compiled yet: nothing to pin.',
    });
  });
  if (pinned) await Promise.all([refreshDebugViews(), refreshTrace()]);
}

export async function clearBaseline(): Promise<void> {
  const cleared = await guarded('CLEARING_BASELINE', async () => {
    await compilerApi().clearBaseline();
    useDebugStore.setState({ baseline: null, baselineDiff: null });
    useUiStore.setState({ notice: wordMessage('BASELINE_CLEARED') });
  });
  if (cleared) await refreshTrace();
}

/** Moves the contract's as-of (an edit, marked like any other) and compiles; the stepper then shows what changed. */
export async function stepAsOf(step: AsOfStep): Promise<void> {
  useDebugStore.setState({ stepping: true, stepIssues: [] });
  let stepped = false;
  await guarded('STEPPING_AS_OF', async () => {
    const update = await compilerApi().stepAsOf(step);
    if (!update.ok) {
      useDebugStore.setState({ stepIssues: update.issues });
      return;
    }
    useScenarioStore.setState({ workspace: update.snapshot, contractIssues: [] });
    stepped = true;
  });
  if (stepped) await compileNow();
  useDebugStore.setState({ stepping: false });
}
