import { DEFAULT_TRACE_QUERY } from '../../shared/trace-page';
import { wordMessage, wordsText } from '../../core/messages';
import type { RememberedResult, SavedWorkspace, WorkspaceEvent } from '../../worker/protocol';
import { viewIdentity } from '../../shared/view-identity';
import { compileNow, failClosed, guarded } from './actions';
import { compilerApi, restartCompilerWorker, WorkerLostError } from '../worker-client';
import { failureWords } from './failure';
import { traceFrom, useResultStore } from './result-store';
import { useScenarioStore } from './scenario-store';
import { linkOf, openLinkFromLocation } from './share';
import { useUiStore } from './ui-store';
import { resetWorkspace } from './workspace-actions';

// The workspace as the worker last reported it (files as Blobs, edits, selection), saved or not: a restarted worker
// gets it back.
let keptWorkspace: SavedWorkspace | null = null;
// True from a restart until the restored workspace has compiled: a worker lost then is not restarted again by itself.
let restoring = false;

function onWorkspaceEvent(event: WorkspaceEvent): void {
  keptWorkspace = event.workspace;
  const workspace = useScenarioStore.getState().workspace;
  const storage = workspace?.storage;
  const changed =
    storage?.status !== event.storage.status ||
    (storage.status !== 'persistent' &&
      event.storage.status !== 'persistent' &&
      storage.message !== event.storage.message);
  if (workspace && changed) useScenarioStore.setState({ workspace: { ...workspace, storage: event.storage } });
}

/**
 * Starts the worker's session on the given workspace (or what storage holds) and compiles. At boot a share
 * or blank-session link in the address bar is opened first. False when it could not start.
 */
async function startSession(restore: SavedWorkspace | null, openLink = false): Promise<boolean> {
  try {
    const workspace = await compilerApi().start(restore, onWorkspaceEvent);
    useScenarioStore.setState({ workspace });
  } catch (error) {
    // Not even the last session's result stays on screen when no compiler is there to check it.
    if (useResultStore.getState().rememberedReceipt !== null) failClosed('STARTING_COMPILER', error);
    // A loss reported while restoring has already said more than this could.
    if (useUiStore.getState().fatal === null)
      useUiStore.setState({
        fatal: wordMessage('COMPILER_NOT_STARTED', { failure: wordsText(failureWords(error)) }),
      });
    return false;
  }
  useUiStore.setState({ fatal: null });
  // A link replaces the workspace (and compiles) before the first result; a failure to open it has failed closed.
  let linked = false;
  const opened =
    !openLink ||
    (await guarded('OPENING_LINK', async () => {
      linked = await openLinkFromLocation(compileNow);
    }));
  if (opened && !linked) await compileNow({ checksRemembered: true });
  // The fresh worker may have been lost while compiling what it restored.
  return useUiStore.getState().fatal === null;
}

export async function boot(): Promise<void> {
  await Promise.all([showRememberedResult(), startSession(null, true)]);
}

/**
 * Shows the result the last session showed for the saved workspace while the worker restores it and compiles it
 * again: marked as being checked (exports wait), and replaced by the compilation. Not when a link in the address
 * bar is about to replace the workspace, nor once anything else is on screen.
 */
async function showRememberedResult(): Promise<void> {
  if (linkOf(window.location.hash) !== null) return;
  let remembered: RememberedResult | null;
  try {
    remembered = await compilerApi().rememberedResult();
  } catch {
    // Only a lost worker fails here, and starting the session reports that.
    return;
  }
  const { response, failure, traceQuery } = useResultStore.getState();
  const { audience, fatal } = useUiStore.getState();
  if (
    remembered === null ||
    response !== null ||
    failure !== null ||
    fatal !== null ||
    traceQuery !== DEFAULT_TRACE_QUERY ||
    remembered.view.audience !== audience
  )
    return;
  const { view, firstPage } = remembered;
  // A page-side marker: the reload test and the benchmark read which receipt was shown before the compilation.
  performance.mark('cc:remembered-shown', { detail: viewIdentity(view).id });
  useResultStore.setState({
    response: { ok: true, view },
    rememberedReceipt: viewIdentity(view).id,
    compiling: true,
    baselineProgress: view.baselineIndexing,
    trace: traceFrom(firstPage),
  });
}

/**
 * A worker ended without being asked (crashed, terminated, uncaught error). Nothing it computed stays
 * on screen; a fresh worker is started with the workspace the page kept, and the user is told. If the
 * fresh one is lost too before the workspace compiles, it is not retried blindly: the user chooses.
 */
export async function recoverFromWorkerLoss(reason: string): Promise<void> {
  failClosed('WORKING', new WorkerLostError(reason));
  useResultStore.setState({ failure: null });
  if (restoring) {
    restoring = false;
    useUiStore.setState({
      workerNotice: null,
      fatal: wordMessage('COMPILER_LOST_RESTORING', { reason }),
    });
    return;
  }
  useUiStore.setState({ workerNotice: { status: 'restarting', reason } });
  await restartCompiler(keptWorkspace);
  useUiStore.setState((state) => ({ workerNotice: state.fatal === null ? { status: 'restarted', reason } : null }));
}

/** Replaces the worker with a fresh one and restores `restore` into it (null: what storage holds). */
async function restartCompiler(restore: SavedWorkspace | null): Promise<boolean> {
  restoring = true;
  restartCompilerWorker();
  const started = await startSession(restore);
  restoring = false;
  return started;
}

/** "Try again" after the compiler could not start or kept stopping. */
export async function retryCompiler(): Promise<void> {
  useUiStore.setState({ fatal: null, workerNotice: null });
  await restartCompiler(keptWorkspace);
}

/**
 * The last way back: a fresh worker with nothing restored, and storage cleared, so a workspace that kills the worker is
 * gone.
 */
export async function startFromBuiltins(): Promise<void> {
  useUiStore.setState({ fatal: null, workerNotice: null });
  const empty: SavedWorkspace = {
    version: 1,
    loads: [],
    contractEdits: {},
    selection: { scenarioKey: '', controls: [], lateChanges: [] },
  };
  if (await restartCompiler(empty)) await resetWorkspace();
}

export function dismissWorkerNotice(): void {
  useUiStore.setState({ workerNotice: null });
}
