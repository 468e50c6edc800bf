import type { Audience } from '../../core/disclosure';
import { DEFAULT_TRACE_QUERY, TRACE_PAGE_SIZE } from '../../shared/trace-page';
import type { CompileResponse, ContractUpdate, EvidenceAttempts, LoadResult, ReceiptCheck, RememberedResult, SavedWorkspace, Selection, TraceFilter, TracePage, WorkspaceEvent, WorkspaceSnapshot } from '../../worker/protocol';
import { viewIdentity } from '../../shared/view-identity';
import { WorkerLostError } from '../worker-supervisor';
import { compilerApi, restartCompilerWorker } from './api';
import { createLatestWins } from './latest-wins';
import { INITIAL_DRILL, useDrillStore } from './drill-store';
import { describeFailure } from './failure';
import { EMPTY_TRACE, traceFrom, useResultStore } from './result-store';
import { selectedScenario, useScenarioStore } from './scenario-store';
import { applyLink, copyShareLink, linkOf, openLinkFromLocation, useShareStore, type PendingLink } from './share';
import { useUiStore } from './ui-store';

// Responses can arrive out of order when the user clicks quickly; only the newest one is shown.
let compileTicket = 0;
let traceTicket = 0;
let selectTicket = 0;

/**
 * A call to the worker threw or was lost. Fail closed: nothing derived from an earlier compilation
 * stays on screen (no packet, receipt, trace or drill verdict), replies still on their way are
 * dropped, and the failure names what was being done and why.
 */
export function failClosed(during: string, error: unknown): void {
  compileTicket += 1;
  traceTicket += 1;
  requestedPages.clear();
  useResultStore.setState({ response: null, failure: { during, reason: describeFailure(error) }, compiling: false, rememberedReceipt: null, trace: EMPTY_TRACE });
  useDrillStore.setState(INITIAL_DRILL);
  useUiStore.setState({ notice: null });
}

/** Runs one step against the worker; a throw or rejection fails closed. False when it failed. */
export async function guarded(during: string, work: () => Promise<void>): Promise<boolean> {
  try {
    await work();
    return true;
  } catch (error) {
    failClosed(during, error);
    return false;
  }
}

// The workspace as the worker last reported it (files as Blobs, edits, selection), saved or not: a restarted worker gets it back.
let keptWorkspace: SavedWorkspace | null = null;
// True from a restart until the restored workspace has compiled: a worker lost then is not restarted again by itself.
let restoring = false;

function onWorkspaceEvent(event: WorkspaceEvent): void {
  keptWorkspace = event.workspace;
  const workspace = useScenarioStore.getState().workspace;
  const storage = workspace?.storage;
  const changed = storage?.status !== event.storage.status || (storage.status !== 'persistent' && event.storage.status !== 'persistent' && storage.message !== event.storage.message);
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
    if (useResultStore.getState().rememberedReceipt !== null) failClosed('starting the compiler', error);
    // A loss reported while restoring has already said more than this could.
    if (useUiStore.getState().fatal === null) useUiStore.setState({ fatal: `The compiler could not start in this browser. ${describeFailure(error)}` });
    return false;
  }
  useUiStore.setState({ fatal: null });
  // A link replaces the workspace (and compiles) before the first result; a failure to open it has failed closed.
  let linked = false;
  const opened =
    !openLink ||
    (await guarded('opening the link', async () => {
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
  if (remembered === null || response !== null || failure !== null || fatal !== null || traceQuery !== DEFAULT_TRACE_QUERY || remembered.view.audience !== audience) return;
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
  failClosed('working', new WorkerLostError(reason));
  useResultStore.setState({ failure: null });
  if (restoring) {
    restoring = false;
    useUiStore.setState({ workerNotice: null, fatal: `The compiler stopped again while your workspace was being restored: ${reason}.` });
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

/** The last way back: a fresh worker with nothing restored, and storage cleared, so a workspace that kills the worker is gone. */
export async function startFromBuiltins(): Promise<void> {
  useUiStore.setState({ fatal: null, workerNotice: null });
  const empty: SavedWorkspace = { version: 1, loads: [], contractEdits: {}, selection: { scenarioKey: '', controls: [], lateChanges: [] } };
  if (await restartCompiler(empty)) await resetWorkspace();
}

export function dismissWorkerNotice(): void {
  useUiStore.setState({ workerNotice: null });
}

// Whether the compilation now asked for is the boot's, which says so if it differs from the remembered result it replaces.
let checkingRemembered = false;
// What follows the result last shown (its trace, baselines and evidence attempts): a caller of compileNow waits for it too.
let shownFollowUps: Promise<unknown> = Promise.resolve();
const compiles = createLatestWins(compileOnce);

/**
 * Compiles the inputs as they are now. Requests coalesce (latest-wins.ts): one made while another compiles is sent
 * once that one is answered, and only the last of a burst; the answer to a superseded one is never shown.
 * `checksRemembered`: the boot's compilation.
 */
export async function compileNow({ checksRemembered = false } = {}): Promise<void> {
  // Any reply to a compilation sent before this request is about inputs that have changed since.
  compileTicket += 1;
  if (checksRemembered) checkingRemembered = true;
  // Any other compilation is of inputs the user changed (or asked for again): a remembered result is then outdated, not being checked.
  useResultStore.setState(checksRemembered ? { compiling: true } : { compiling: true, rememberedReceipt: null });
  await compiles.request();
  await shownFollowUps;
}

async function compileOnce(superseded: () => boolean): Promise<void> {
  const ticket = compileTicket;
  const checksRemembered = checkingRemembered;
  let response: CompileResponse;
  try {
    response = await compilerApi().compile(useUiStore.getState().audience);
  } catch (error) {
    // A failure of a compilation the user has already replaced changes nothing on screen.
    if (ticket === compileTicket && !superseded()) failClosed('compiling', error);
    return;
  }
  if (ticket !== compileTicket || superseded()) return;
  checkingRemembered = false;
  const remembered = useResultStore.getState().rememberedReceipt;
  useResultStore.setState((state) => ({ response, failure: null, compiling: false, rememberedReceipt: null, revision: state.revision + 1, baselineProgress: response.ok ? response.view.baselineIndexing : null }));
  const compiled = response.ok ? viewIdentity(response.view) : null;
  if (checksRemembered && remembered !== null && compiled?.id !== remembered) {
    // The remembered view is of the audience on screen (`showRememberedResult`), so both ids are of one kind.
    const label = compiled?.label ?? 'receipt';
    useUiStore.setState({ notice: `The result shown from your last session (${label} ${remembered.slice(0, 12)}) is not what the workspace compiles to now${compiled === null ? ' (it does not compile)' : ` (${label} ${compiled.id.slice(0, 12)})`}: the new compilation replaces it.` });
  }
  shownFollowUps = Promise.all([refreshTrace(), fillBaselines(response, ticket), fillEvidenceAttempts(response, ticket), recheckLoadedReceipts(ticket)]);
}

/** The receipts the last load brought are judged again against the inputs just compiled: no verdict outlives its inputs. */
async function recheckLoadedReceipts(ticket: number): Promise<void> {
  const load = useScenarioStore.getState().load;
  if (load.status !== 'loaded' || load.receiptChecks.length === 0) return;
  const revision = useResultStore.getState().revision;
  let receiptChecks: readonly ReceiptCheck[];
  try {
    receiptChecks = await compilerApi().checkReceipts();
  } catch (error) {
    if (ticket === compileTicket) failClosed('checking the loaded receipts', error);
    return;
  }
  const now = useScenarioStore.getState().load;
  if (ticket !== compileTicket || now.status !== 'loaded' || now.receiptChecks.length === 0) return;
  useScenarioStore.setState({ load: { ...now, receiptChecks, checkedAt: revision } });
}

/**
 * A large record set's result comes without its evidence attempts, so that the receipt is on screen sooner; they
 * follow, unless another compilation or view has replaced this one, or they came with its baselines meanwhile.
 */
async function fillEvidenceAttempts(response: CompileResponse, ticket: number): Promise<void> {
  if (!response.ok || response.view.evidenceAttempts !== null) return;
  const { compilation, audience } = response.view;
  let attempts: readonly EvidenceAttempts[] | null;
  try {
    attempts = await compilerApi().firstEvidenceAttempts(compilation, audience);
  } catch (error) {
    if (ticket === compileTicket) failClosed('reading the evidence attempts', error);
    return;
  }
  if (ticket !== compileTicket || attempts === null) return;
  const found = attempts;
  useResultStore.setState((state) => {
    const shown = state.response;
    if (!shown?.ok || shown.view.compilation !== compilation || shown.view.audience !== audience || shown.view.evidenceAttempts !== null) return {};
    return { response: { ok: true, view: { ...shown.view, evidenceAttempts: found } } };
  });
}

/**
 * The packet and trace are on screen; the naive and post-filter columns follow when the worker has built the
 * whole-corpus index, unless another compilation or view has replaced this one meanwhile.
 */
async function fillBaselines(response: CompileResponse, ticket: number): Promise<void> {
  if (!response.ok || response.view.baselineIndexing === null) return;
  let filled: CompileResponse | null;
  try {
    filled = await compilerApi().awaitBaselines(response.view.compilation, (progress) => {
      if (ticket === compileTicket) useResultStore.setState({ baselineProgress: progress });
    });
  } catch (error) {
    if (ticket === compileTicket) failClosed('indexing for the baselines', error);
    return;
  }
  if (ticket !== compileTicket || filled === null) return;
  useResultStore.setState({ response: filled, baselineProgress: null });
}

export async function setAudience(audience: Audience): Promise<void> {
  useUiStore.setState({ audience });
  const ticket = ++compileTicket;
  let response: CompileResponse;
  try {
    response = await compilerApi().disclose(audience);
  } catch (error) {
    if (ticket === compileTicket) failClosed('changing the disclosure view', error);
    return;
  }
  if (ticket !== compileTicket) return;
  useResultStore.setState({ response, failure: null, rememberedReceipt: null, baselineProgress: response.ok ? response.view.baselineIndexing : null });
  await Promise.all([refreshTrace({ code: 'all' }), fillBaselines(response, ticket), fillEvidenceAttempts(response, ticket)]);
}

export async function refreshTrace(change: Partial<Omit<TraceFilter, 'audience'>> = {}): Promise<void> {
  const ticket = ++traceTicket;
  requestedPages.clear();
  const traceQuery = { ...useResultStore.getState().traceQuery, ...change };
  useResultStore.setState({ traceQuery });
  let page: TracePage;
  try {
    page = await compilerApi().queryTrace({ ...traceQuery, audience: useUiStore.getState().audience, offset: 0, limit: TRACE_PAGE_SIZE });
  } catch (error) {
    if (ticket === traceTicket) failClosed('reading the trace', error);
    return;
  }
  if (ticket !== traceTicket) return;
  useResultStore.setState({ trace: traceFrom(page) });
}

// Pages already asked for under the current trace ticket, so a scroll does not ask twice.
const requestedPages = new Set<number>();

/** Fetches the pages that hold rows `first` to `last` (inclusive) that are not loaded or on their way. */
export async function loadTracePages(first: number, last: number): Promise<void> {
  const ticket = traceTicket;
  const { traceQuery, trace, rememberedReceipt } = useResultStore.getState();
  // A remembered result brought its first page only; the rest come with the compilation that replaces it.
  if (rememberedReceipt !== null) return;
  const wanted: number[] = [];
  for (let page = Math.floor(first / TRACE_PAGE_SIZE); page <= Math.floor(last / TRACE_PAGE_SIZE); page += 1) {
    if (trace.pages.has(page) || requestedPages.has(page) || page * TRACE_PAGE_SIZE >= trace.matched) continue;
    requestedPages.add(page);
    wanted.push(page);
  }
  await Promise.all(
    wanted.map(async (page) => {
      let window: TracePage;
      try {
        window = await compilerApi().queryTrace({ ...traceQuery, audience: useUiStore.getState().audience, offset: page * TRACE_PAGE_SIZE, limit: TRACE_PAGE_SIZE });
      } catch (error) {
        if (ticket === traceTicket) failClosed('reading the trace', error);
        return;
      }
      if (ticket !== traceTicket) return;
      useResultStore.setState((state) => ({ trace: { ...state.trace, pages: new Map(state.trace.pages).set(page, window.rows) } }));
    }),
  );
}

/**
 * The next page of one proposition's evidence attempts in compilation `compilation`, from `offset`. Null when
 * a later compilation replaced it, or when the worker failed (the page has then failed closed).
 */
export async function loadEvidenceAttempts(compilation: number, audience: Audience, proposition: string, offset: number): Promise<EvidenceAttempts | null> {
  try {
    return await compilerApi().evidenceAttempts(compilation, proposition, audience, offset);
  } catch (error) {
    failClosed('reading the evidence attempts', error);
    return null;
  }
}

/** Sends the selection to the worker, then compiles. False when the worker failed. */
async function applySelection(change: Partial<Selection>): Promise<boolean> {
  const before = useScenarioStore.getState().workspace;
  const current = before?.selection;
  if (!before || !current) return false;
  // Toggles reflect the click at once (a checkbox must not lag behind a worker round trip); the worker's answer then settles it.
  // From the same moment the result on screen is no longer the selection's: it is marked as compiling, not exported.
  useScenarioStore.setState({ workspace: { ...before, selection: { ...current, ...change } } });
  useResultStore.setState({ compiling: true, rememberedReceipt: null });
  let workspace: WorkspaceSnapshot;
  const ticket = ++selectTicket;
  try {
    workspace = await compiles.changing(compilerApi().select({ ...current, ...change }));
  } catch (error) {
    // The switches go back to what the worker last confirmed: the click did not take effect.
    useScenarioStore.setState({ workspace: before });
    failClosed('changing the selection', error);
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
    failClosed('applying the contract', error);
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

/** After storage was cleared under the page: write the workspace in memory to storage again. */
export async function saveWorkspaceAgain(): Promise<void> {
  await guarded('saving the workspace', async () => {
    const workspace = await compilerApi().saveWorkspace();
    useScenarioStore.setState({ workspace });
  });
}

export async function revertContract(): Promise<void> {
  const reverted = await guarded('reverting the contract', async () => {
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
    useScenarioStore.setState({ load: { status: 'rejected', issues: [{ file: names, path: '(root)', message: `the compiler failed while reading the files, so none was loaded. ${describeFailure(error)}` }], summaries: [] } });
    failClosed('loading files', error);
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
  const message = result.kinds.map(({ file, kind }) => `${file} (${kind})`).join(', ');
  const previousKey = useScenarioStore.getState().workspace?.selection.scenarioKey;
  const switched = result.snapshot.selection.scenarioKey !== previousKey;
  // A load that selects its own scenario leaves the result on screen outdated from the moment the picker shows it.
  if (switched) useResultStore.setState({ compiling: true, rememberedReceipt: null, traceQuery: DEFAULT_TRACE_QUERY });
  useScenarioStore.setState({ workspace: result.snapshot, contractIssues: [], load: { status: 'loaded', message: `Loaded ${message}.`, receiptChecks: result.receiptChecks, checkedAt: useResultStore.getState().revision } });
  if (switched) {
    // The frozen receipt stays, to be judged against the inputs just loaded; the late changes declared were the old inputs'.
    useDrillStore.setState({ declared: [] });
    await compileNow();
  }
}

export async function cancelLoad(): Promise<void> {
  // A lost worker ends the load by itself (the load fails closed); a cancel has nothing more to do.
  await compilerApi().cancelLoad().catch(() => undefined);
}

export function dismissLoadStatus(): void {
  useScenarioStore.setState({ load: { status: 'idle' } });
}

export async function freezeReceipt(): Promise<void> {
  await guarded('freezing the receipt', async () => {
    const state = await compilerApi().freezeReceipt();
    useDrillStore.setState({ ...state, verdict: null });
  });
}

export async function injectLateChange(id: string): Promise<void> {
  await guarded('declaring the late change', async () => {
    const state = await compilerApi().declareLateChange(id);
    useDrillStore.setState({ ...state, verdict: null });
  });
}

export async function attemptContinue(): Promise<void> {
  useDrillStore.setState({ busy: true });
  await guarded('checking the frozen receipt', async () => {
    const verdict = await compilerApi().attemptContinue();
    useDrillStore.setState({ verdict, verdictRevision: useResultStore.getState().revision, busy: false });
  });
}

/** Applies every declared late change, compiles, and checks the new receipt: it is the one now current. */
export async function recompileAfterDrill(): Promise<void> {
  const declared = useDrillStore.getState().declared;
  const lateChanges = useScenarioStore.getState().workspace?.selection.lateChanges ?? [];
  useDrillStore.setState({ busy: true });
  if (!(await applySelection({ lateChanges: [...new Set([...lateChanges, ...declared])] }))) return;
  await guarded('checking the new receipt', async () => {
    const state = await compilerApi().freezeReceipt();
    const verdict = await compilerApi().attemptContinue();
    useDrillStore.setState({ ...state, verdict, verdictRevision: useResultStore.getState().revision, busy: false });
  });
}

export async function resetDrill(): Promise<void> {
  const reset = await guarded('resetting the drill', async () => {
    await compilerApi().resetDrill();
    useDrillStore.setState(INITIAL_DRILL);
  });
  const lateChanges = useScenarioStore.getState().workspace?.selection.lateChanges ?? [];
  if (reset && lateChanges.length > 0) await applySelection({ lateChanges: [] });
}

export async function resetWorkspace(): Promise<void> {
  // The result on screen belongs to the workspace being cleared: outdated from the click on.
  useResultStore.setState({ compiling: true, rememberedReceipt: null });
  const reset = await guarded('resetting the workspace', async () => {
    const workspace = await compilerApi().resetWorkspace();
    useDrillStore.setState(INITIAL_DRILL);
    useResultStore.setState({ traceQuery: DEFAULT_TRACE_QUERY });
    useScenarioStore.setState({ workspace, contractIssues: [], load: { status: 'idle' } });
  });
  if (reset) await compileNow();
}

/** Saves the selected scenario as a file; the notice says what loading it back gives. */
export async function exportScenario(): Promise<void> {
  await guarded('exporting the scenario', async () => {
    const exported = await compilerApi().exportScenario();
    saveText(exported.fileName, exported.json);
    const workspace = useScenarioStore.getState().workspace;
    const scenario = workspace ? selectedScenario(useScenarioStore.getState()) : null;
    const on = scenario && workspace ? [...scenario.controls, ...scenario.lateChanges].filter((change) => workspace.selection.controls.includes(change.id) || workspace.selection.lateChanges.includes(change.id)).map((change) => change.label) : [];
    const switched = on.length > 0 ? ` Loading it selects it with every control off: switch on ${on.join(', ')} to get this receipt again.` : ' Dropping it back gives this receipt again.';
    useScenarioStore.setState({ exportNotice: `Exported ${exported.fileName}${exported.edited ? ' with the edited contract' : ''}.${switched}` });
  });
}

/** Makes a link to the workspace and copies it; when the worker fails, no link is made and the page fails closed. */
export async function shareWorkspace(): Promise<void> {
  if (!(await guarded('making a share link', copyShareLink))) useShareStore.setState({ link: null, status: `No link was made: the compiler failed. ${useResultStore.getState().failure?.reason ?? ''}`.trim() });
}

/** Opens a share or blank-session link the user agreed to; a failed worker call fails closed. */
export async function openLink(link: PendingLink): Promise<void> {
  await guarded('opening the link', () => applyLink(link, compileNow));
}

/** A link pasted into the address bar of an open tab (only the fragment changed, so there was no reload). */
export async function openLinkInAddressBar(): Promise<void> {
  await guarded('opening the link', async () => {
    await openLinkFromLocation(compileNow);
  });
}

function saveText(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  URL.revokeObjectURL(url);
}

const shortId = (hash: string) => hash.slice(0, 12);

/**
 * The result on screen, if it compiled and is still the inputs' result: exports always follow what is shown,
 * in the view it is shown in, and nothing is exported while a compilation is replacing it.
 */
function shownView() {
  const { response, compiling } = useResultStore.getState();
  return response?.ok && !compiling ? response.view : null;
}

export async function copyPacket(): Promise<void> {
  const view = shownView();
  const text = view?.packetText ?? null;
  if (!view || text === null) return;
  try {
    await navigator.clipboard.writeText(text);
    useUiStore.setState({ notice: view.audience === 'user' ? `Packet copied (user view, packet ${shortId(view.packetFingerprint ?? '')}).` : `Packet copied (receipt ${shortId(view.receiptId ?? '')}).` });
  } catch {
    useUiStore.setState({ notice: 'The browser refused clipboard access: use "Download packet" instead.' });
  }
}

export async function downloadPacket(): Promise<void> {
  const view = shownView();
  if (!view) return;
  await guarded('exporting the packet', async () => {
    const json = await compilerApi().packetJson(view.audience);
    if (json === null || shownView() !== view) return;
    saveText(view.audience === 'user' ? `packet-user-view-${shortId(view.packetFingerprint ?? '')}.json` : `packet-${shortId(view.receiptId ?? '')}.json`, json);
    useUiStore.setState({ notice: view.audience === 'user' ? 'Packet downloaded (user view).' : 'Packet downloaded.' });
  });
}

/** The receipt as an in-toto statement: it carries the receipt, so it too leaves only from the diagnostic view. */
export async function downloadStatement(): Promise<void> {
  const view = shownView();
  if (!view || view.audience !== 'diagnostic') return;
  await guarded('exporting the statement', async () => {
    const json = await compilerApi().statementJson();
    if (json === null || shownView() !== view) return;
    saveText(`statement-${shortId(view.receiptId ?? '')}.intoto.json`, json);
    useUiStore.setState({ notice: 'Statement downloaded (in-toto Statement v1).' });
  });
}

/** The receipt names every record: it leaves the app only from the diagnostic view, and its file name says so. */
export async function downloadReceipt(): Promise<void> {
  const view = shownView();
  if (!view || view.audience !== 'diagnostic') return;
  await guarded('exporting the receipt', async () => {
    const json = await compilerApi().receiptJson();
    if (json === null || shownView() !== view) return;
    saveText(`receipt-diagnostic-${shortId(view.receiptId ?? '')}.json`, json);
    useUiStore.setState({ notice: 'Diagnostic receipt downloaded.' });
  });
}

export async function downloadUserView(): Promise<void> {
  const view = shownView();
  if (!view || view.audience !== 'user') return;
  await guarded('exporting the user view', async () => {
    const json = await compilerApi().userViewJson();
    if (json === null || shownView() !== view) return;
    saveText(`user-view-${shortId(view.userViewId ?? '')}.json`, json);
    useUiStore.setState({ notice: 'User view downloaded (not a receipt).' });
  });
}
