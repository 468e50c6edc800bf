import type { InputIssue } from '../../core/errors';
import { wordMessage, wordsText } from '../../core/messages';
import { inputIssue } from '../../core/issues';
import { DEFAULT_TRACE_QUERY } from '../../shared/trace-page';
import type { ContractUpdate, LoadResult, Selection, WorkspaceSnapshot } from '../../worker/protocol';
import { compilerApi } from '../worker-client';
import { changingInputs, compileNow, failClosed, guarded, refreshTests } from './actions';
import { INITIAL_DRILL, useDrillStore } from './drill-store';
import { failureWords } from './failure';
import { useResultStore } from './result-store';
import { useScenarioStore } from './scenario-store';
import { useUiStore } from './ui-store';
import { applyLink, copyShareLink, openLinkFromLocation, useShareStore, type PendingLink } from './share';

// The inputs the user changes: the selection, the contract, loaded files, the workspace as a whole, and share links.

// A later click's selection must not be switched back by an earlier answer.
let selectTicket = 0;

/** Sends the selection to the worker, then compiles. False when the worker failed. */
export async function applySelection(change: Partial<Selection>): Promise<boolean> {
  const before = useScenarioStore.getState().workspace;
  const current = before?.selection;
  if (!before || !current) return false;
  // Toggles reflect the click at once (a checkbox must not lag behind a worker round trip); the worker's answer then
  // settles it.
  // From the same moment the result on screen is no longer the selection's: it is marked as compiling, not exported.
  useScenarioStore.setState({ workspace: { ...before, selection: { ...current, ...change } } });
  useResultStore.setState({ compiling: true, rememberedReceipt: null });
  let workspace: WorkspaceSnapshot;
  const ticket = ++selectTicket;
  try {
    workspace = await changingInputs(compilerApi().select({ ...current, ...change }));
  } catch (error) {
    // The switches go back to what the worker last confirmed: the click did not take effect.
    useScenarioStore.setState({ workspace: before });
    failClosed('CHANGING_SELECTION', error);
    return false;
  }
  if (workspace.selection.scenarioKey !== current.scenarioKey) {
    useDrillStore.setState({ declared: [] });
    useResultStore.setState({ traceQuery: DEFAULT_TRACE_QUERY });
  }
  // A later click's selection is on screen already: an earlier answer must not switch it back for a moment.
  if (ticket === selectTicket) useScenarioStore.setState({ workspace, contractIssues: [] });
  await compileNow();
  return useResultStore.getState().failure === null;
}

export async function selectScenario(scenarioKey: string): Promise<void> {
  await applySelection({ scenarioKey, controls: [], lateChanges: [] });
}

export async function setControl(id: string, on: boolean): Promise<void> {
  const controls = useScenarioStore.getState().workspace?.selection.controls ?? [];
  await applySelection({ controls: on ? [...controls, id] : controls.filter((control) => control !== id) });
}

/** The way back from a failure: send the selection on screen again and compile it. */
export async function retryAfterFailure(): Promise<void> {
  await applySelection({});
}

export async function updateContract(input: { readonly value: unknown } | { readonly text: string }): Promise<boolean> {
  let update: ContractUpdate;
  try {
    update = await compilerApi().updateContract(input);
  } catch (error) {
    failClosed('APPLYING_CONTRACT', error);
    return false;
  }
  if (!update.ok) {
    useScenarioStore.setState({ contractIssues: update.issues });
    return false;
  }
  useScenarioStore.setState({ workspace: update.snapshot, contractIssues: [] });
  await compileNow();
  return true;
}

/**
 * The problems of contract text as typed, for the editor; none when the worker cannot be asked (Apply reports it then).
 */
export async function checkContractText(text: string): Promise<readonly InputIssue[]> {
  try {
    return await compilerApi().checkContract(text);
  } catch {
    return [];
  }
}

/** After storage was cleared under the page: write the workspace in memory to storage again. */
export async function saveWorkspaceAgain(): Promise<void> {
  await guarded('SAVING_WORKSPACE', async () => {
    const workspace = await compilerApi().saveWorkspace();
    useScenarioStore.setState({ workspace });
  });
}

export async function revertContract(): Promise<void> {
  const reverted = await guarded('REVERTING_CONTRACT', async () => {
    const workspace = await compilerApi().revertContract();
    useScenarioStore.setState({ workspace, contractIssues: [] });
  });
  if (reverted) await compileNow();
}

export async function loadFiles(files: readonly File[]): Promise<void> {
  if (files.length === 0) return;
  useScenarioStore.setState({ load: { status: 'loading', progress: null } });
  let finished = false;
  let result: LoadResult;
  try {
    // Progress comes over its own message channel and can land after the result: it must not reopen a finished load.
    result = await compilerApi().loadFiles(files, (progress) => {
      if (!finished) useScenarioStore.setState({ load: { status: 'loading', progress } });
    });
  } catch (error) {
    finished = true;
    const names = files.map((file) => file.name).join(', ');
    useScenarioStore.setState({
      load: {
        status: 'rejected',
        issues: [
          inputIssue({ file: names, path: '(root)' }, 'READING_FAILED', { failure: wordsText(failureWords(error)) }),
        ],
        summaries: [],
      },
    });
    failClosed('LOADING_FILES', error);
    return;
  }
  finished = true;
  if (result.status === 'rejected') {
    useScenarioStore.setState({ load: { status: 'rejected', issues: result.issues, summaries: result.summaries } });
    return;
  }
  if (result.status === 'cancelled') {
    useScenarioStore.setState({ load: { status: 'cancelled' } });
    return;
  }
  const loaded = [
    ...result.kinds.map(({ file, kind }) => `${file} (${kind})`),
    ...result.suites.map((file) => `${file} (expectation suite)`),
  ];
  const previousKey = useScenarioStore.getState().workspace?.selection.scenarioKey;
  const switched = result.snapshot.selection.scenarioKey !== previousKey;
  // A load that selects its own scenario leaves the result on screen outdated from the moment the picker shows it.
  if (switched) useResultStore.setState({ compiling: true, rememberedReceipt: null, traceQuery: DEFAULT_TRACE_QUERY });
  useScenarioStore.setState({
    workspace: result.snapshot,
    contractIssues: [],
    load: {
      status: 'loaded',
      message: wordMessage('LOADED', { files: loaded }),
      receiptChecks: result.receiptChecks,
      checkedAt: useResultStore.getState().revision,
    },
  });
  // A suite opens in the Tests panel, run on the inputs on screen (the compilation runs it, when there is one).
  if (result.suites.length > 0) useUiStore.setState({ workspace: 'tests' });
  if (switched) {
    // The frozen receipt stays, to be judged against the inputs just loaded; the late changes declared were the old
    // inputs'.
    useDrillStore.setState({ declared: [] });
    await compileNow();
  } else if (result.suites.length > 0) await refreshTests();
}

export async function cancelLoad(): Promise<void> {
  // A lost worker ends the load by itself (the load fails closed); a cancel has nothing more to do.
  await compilerApi()
    .cancelLoad()
    .catch(() => undefined);
}

export function dismissLoadStatus(): void {
  useScenarioStore.setState({ load: { status: 'idle' } });
}

export async function resetWorkspace(): Promise<void> {
  // The result on screen belongs to the workspace being cleared: outdated from the click on.
  useResultStore.setState({ compiling: true, rememberedReceipt: null });
  const reset = await guarded('RESETTING_WORKSPACE', async () => {
    const workspace = await compilerApi().resetWorkspace();
    useDrillStore.setState(INITIAL_DRILL);
    useResultStore.setState({ traceQuery: DEFAULT_TRACE_QUERY });
    useScenarioStore.setState({ workspace, contractIssues: [], load: { status: 'idle' } });
  });
  if (reset) await compileNow();
}

/** The reason the failure on screen gives, in words; null when none is shown. */
function shownReason(): string | null {
  const failure = useResultStore.getState().failure;
  return failure === null ? null : wordsText(failure.reason);
}

/** Makes a link to the workspace and copies it; when the worker fails, no link is made and the page fails closed. */
export async function shareWorkspace(): Promise<void> {
  if (!(await guarded('MAKING_SHARE_LINK', copyShareLink)))
    useShareStore.setState({
      link: null,
      status: wordMessage('SHARE_COMPILER_FAILED', { failure: shownReason() }),
    });
}

/** Opens a share or blank-session link the user agreed to; a failed worker call fails closed. */
export async function openLink(link: PendingLink): Promise<void> {
  await guarded('OPENING_LINK', () => applyLink(link, compileNow));
}

/** A link pasted into the address bar of an open tab (only the fragment changed, so there was no reload). */
export async function openLinkInAddressBar(): Promise<void> {
  await guarded('OPENING_LINK', async () => {
    await openLinkFromLocation(compileNow);
  });
}
