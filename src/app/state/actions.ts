import type { Audience } from '../../core/disclosure';
import type { CompileResponse, Selection, TraceFilter } from '../../worker/protocol';
import { compilerApi } from './api';
import { INITIAL_DRILL, useDrillStore } from './drill-store';
import { DEFAULT_TRACE_QUERY, TRACE_PAGE_SIZE, useResultStore } from './result-store';
import { selectedScenario, useScenarioStore } from './scenario-store';
import { openLinkFromLocation } from './share';
import { useUiStore } from './ui-store';

// Responses can arrive out of order when the user clicks quickly; only the newest one is shown.
let compileTicket = 0;
let traceTicket = 0;

export async function boot(): Promise<void> {
  try {
    const workspace = await compilerApi().start();
    useScenarioStore.setState({ workspace });
    // A share or blank-session link in the address bar replaces the workspace (and compiles) before the first result.
    if (await openLinkFromLocation(compileNow)) return;
    await compileNow();
  } catch (error) {
    useUiStore.setState({ fatal: `The compiler could not start in this browser: ${error instanceof Error ? error.message : String(error)}` });
  }
}

export async function compileNow(): Promise<void> {
  const ticket = ++compileTicket;
  useResultStore.setState({ compiling: true });
  const response = await compilerApi().compile(useUiStore.getState().audience);
  if (ticket !== compileTicket) return;
  useResultStore.setState((state) => ({ response, compiling: false, revision: state.revision + 1, baselineProgress: response.ok ? response.view.baselineIndexing : null }));
  await Promise.all([refreshTrace(), fillBaselines(response, ticket)]);
}

/**
 * The packet and trace are on screen; the naive and post-filter columns follow when the worker has built the
 * whole-corpus index, unless another compilation or view has replaced this one meanwhile.
 */
async function fillBaselines(response: CompileResponse, ticket: number): Promise<void> {
  if (!response.ok || response.view.baselineIndexing === null) return;
  const filled = await compilerApi().awaitBaselines(response.view.compilation, (progress) => {
    if (ticket === compileTicket) useResultStore.setState({ baselineProgress: progress });
  });
  if (ticket !== compileTicket || filled === null) return;
  useResultStore.setState({ response: filled, baselineProgress: null });
}

export async function setAudience(audience: Audience): Promise<void> {
  useUiStore.setState({ audience });
  const ticket = ++compileTicket;
  const response = await compilerApi().disclose(audience);
  if (ticket !== compileTicket) return;
  useResultStore.setState({ response, baselineProgress: response.ok ? response.view.baselineIndexing : null });
  await Promise.all([refreshTrace({ code: 'all' }), fillBaselines(response, ticket)]);
}

export async function refreshTrace(change: Partial<Omit<TraceFilter, 'audience'>> = {}): Promise<void> {
  const ticket = ++traceTicket;
  requestedPages.clear();
  const traceQuery = { ...useResultStore.getState().traceQuery, ...change };
  useResultStore.setState({ traceQuery });
  const page = await compilerApi().queryTrace({ ...traceQuery, audience: useUiStore.getState().audience, offset: 0, limit: TRACE_PAGE_SIZE });
  if (ticket !== traceTicket) return;
  useResultStore.setState({ trace: { matched: page.matched, total: page.total, pages: new Map([[0, page.rows]]) } });
}

// Pages already asked for under the current trace ticket, so a scroll does not ask twice.
const requestedPages = new Set<number>();

/** Fetches the pages that hold rows `first` to `last` (inclusive) that are not loaded or on their way. */
export async function loadTracePages(first: number, last: number): Promise<void> {
  const ticket = traceTicket;
  const { traceQuery, trace } = useResultStore.getState();
  const wanted: number[] = [];
  for (let page = Math.floor(first / TRACE_PAGE_SIZE); page <= Math.floor(last / TRACE_PAGE_SIZE); page += 1) {
    if (trace.pages.has(page) || requestedPages.has(page) || page * TRACE_PAGE_SIZE >= trace.matched) continue;
    requestedPages.add(page);
    wanted.push(page);
  }
  await Promise.all(
    wanted.map(async (page) => {
      const window = await compilerApi().queryTrace({ ...traceQuery, audience: useUiStore.getState().audience, offset: page * TRACE_PAGE_SIZE, limit: TRACE_PAGE_SIZE });
      if (ticket !== traceTicket) return;
      useResultStore.setState((state) => ({ trace: { ...state.trace, pages: new Map(state.trace.pages).set(page, window.rows) } }));
    }),
  );
}

async function applySelection(change: Partial<Selection>): Promise<void> {
  const before = useScenarioStore.getState().workspace;
  const current = before?.selection;
  if (!before || !current) return;
  // Toggles reflect the click at once (a checkbox must not lag behind a worker round trip); the worker's answer then settles it.
  useScenarioStore.setState({ workspace: { ...before, selection: { ...current, ...change } } });
  const workspace = await compilerApi().select({ ...current, ...change });
  if (workspace.selection.scenarioKey !== current.scenarioKey) {
    useDrillStore.setState(INITIAL_DRILL);
    useResultStore.setState({ traceQuery: DEFAULT_TRACE_QUERY });
  }
  useScenarioStore.setState({ workspace, contractIssues: [] });
  await compileNow();
}

export function selectScenario(scenarioKey: string): Promise<void> {
  return applySelection({ scenarioKey, controls: [], lateChanges: [] });
}

export function setControl(id: string, on: boolean): Promise<void> {
  const controls = useScenarioStore.getState().workspace?.selection.controls ?? [];
  return applySelection({ controls: on ? [...controls, id] : controls.filter((control) => control !== id) });
}

export async function updateContract(input: { readonly value: unknown } | { readonly text: string }): Promise<boolean> {
  const update = await compilerApi().updateContract(input);
  if (!update.ok) {
    useScenarioStore.setState({ contractIssues: update.issues });
    return false;
  }
  useScenarioStore.setState({ workspace: update.snapshot, contractIssues: [] });
  await compileNow();
  return true;
}

export async function revertContract(): Promise<void> {
  const workspace = await compilerApi().revertContract();
  useScenarioStore.setState({ workspace, contractIssues: [] });
  await compileNow();
}

export async function loadFiles(files: readonly File[]): Promise<void> {
  if (files.length === 0) return;
  useScenarioStore.setState({ load: { status: 'loading', progress: null } });
  let finished = false;
  // Progress comes over its own message channel and can land after the result: it must not reopen a finished load.
  const result = await compilerApi().loadFiles(files, (progress) => {
    if (!finished) useScenarioStore.setState({ load: { status: 'loading', progress } });
  });
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
  useScenarioStore.setState({ workspace: result.snapshot, contractIssues: [], load: { status: 'loaded', message: `Loaded ${message}.`, receiptChecks: result.receiptChecks } });
  if (result.snapshot.selection.scenarioKey !== previousKey) {
    useDrillStore.setState(INITIAL_DRILL);
    useResultStore.setState({ traceQuery: DEFAULT_TRACE_QUERY });
    await compileNow();
  }
}

export function cancelLoad(): Promise<void> {
  return compilerApi().cancelLoad();
}

export function dismissLoadStatus(): void {
  useScenarioStore.setState({ load: { status: 'idle' } });
}

export async function freezeReceipt(): Promise<void> {
  const state = await compilerApi().freezeReceipt();
  useDrillStore.setState({ ...state, verdict: null });
}

export async function injectLateChange(id: string): Promise<void> {
  const state = await compilerApi().declareLateChange(id);
  useDrillStore.setState({ ...state, verdict: null });
}

export async function attemptContinue(): Promise<void> {
  useDrillStore.setState({ busy: true });
  const verdict = await compilerApi().attemptContinue();
  useDrillStore.setState({ verdict, verdictRevision: useResultStore.getState().revision, busy: false });
}

/** Applies every declared late change, compiles, and checks the new receipt: it is the one now current. */
export async function recompileAfterDrill(): Promise<void> {
  const declared = useDrillStore.getState().declared;
  const lateChanges = useScenarioStore.getState().workspace?.selection.lateChanges ?? [];
  useDrillStore.setState({ busy: true });
  await applySelection({ lateChanges: [...new Set([...lateChanges, ...declared])] });
  const state = await compilerApi().freezeReceipt();
  const verdict = await compilerApi().attemptContinue();
  useDrillStore.setState({ ...state, verdict, verdictRevision: useResultStore.getState().revision, busy: false });
}

export async function resetDrill(): Promise<void> {
  await compilerApi().resetDrill();
  useDrillStore.setState(INITIAL_DRILL);
  const lateChanges = useScenarioStore.getState().workspace?.selection.lateChanges ?? [];
  if (lateChanges.length > 0) await applySelection({ lateChanges: [] });
}

export async function resetWorkspace(): Promise<void> {
  const workspace = await compilerApi().resetWorkspace();
  useDrillStore.setState(INITIAL_DRILL);
  useResultStore.setState({ traceQuery: DEFAULT_TRACE_QUERY });
  useScenarioStore.setState({ workspace, contractIssues: [], load: { status: 'idle' } });
  await compileNow();
}

/** Saves the selected scenario as a file; the notice says what loading it back gives. */
export async function exportScenario(): Promise<void> {
  const exported = await compilerApi().exportScenario();
  saveText(exported.fileName, exported.json);
  const workspace = useScenarioStore.getState().workspace;
  const scenario = workspace ? selectedScenario(useScenarioStore.getState()) : null;
  const on = scenario && workspace ? [...scenario.controls, ...scenario.lateChanges].filter((change) => workspace.selection.controls.includes(change.id) || workspace.selection.lateChanges.includes(change.id)).map((change) => change.label) : [];
  const switched = on.length > 0 ? ` Loading it selects it with every control off: switch on ${on.join(', ')} to get this receipt again.` : ' Dropping it back gives this receipt again.';
  useScenarioStore.setState({ exportNotice: `Exported ${exported.fileName}${exported.edited ? ' with the edited contract' : ''}.${switched}` });
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

/** The result on screen, if it compiled: exports always follow what is shown, in the view it is shown in. */
function shownView() {
  const response = useResultStore.getState().response;
  return response?.ok ? response.view : null;
}

export async function copyPacket(): Promise<void> {
  const view = shownView();
  const text = view?.packetText ?? null;
  if (!view || text === null) return;
  try {
    await navigator.clipboard.writeText(text);
    useUiStore.setState({ notice: view.audience === 'user' ? `Packet copied (user view, packet ${shortId(view.packetFingerprint ?? '')}).` : `Packet copied (receipt ${shortId(view.receiptId)}).` });
  } catch {
    useUiStore.setState({ notice: 'The browser refused clipboard access: use "Download packet" instead.' });
  }
}

export async function downloadPacket(): Promise<void> {
  const view = shownView();
  if (!view) return;
  const json = await compilerApi().packetJson(view.audience);
  if (json === null) return;
  saveText(view.audience === 'user' ? `packet-user-view-${shortId(view.packetFingerprint ?? '')}.json` : `packet-${shortId(view.receiptId)}.json`, json);
  useUiStore.setState({ notice: view.audience === 'user' ? 'Packet downloaded (user view).' : 'Packet downloaded.' });
}

/** The receipt as an in-toto statement: it carries the receipt, so it too leaves only from the diagnostic view. */
export async function downloadStatement(): Promise<void> {
  const view = shownView();
  if (!view || view.audience !== 'diagnostic') return;
  const json = await compilerApi().statementJson();
  if (json === null) return;
  saveText(`statement-${shortId(view.receiptId)}.intoto.json`, json);
  useUiStore.setState({ notice: 'Statement downloaded (in-toto Statement v1).' });
}

/** The receipt names every record: it leaves the app only from the diagnostic view, and its file name says so. */
export async function downloadReceipt(): Promise<void> {
  const view = shownView();
  if (!view || view.audience !== 'diagnostic') return;
  const json = await compilerApi().receiptJson();
  if (json === null) return;
  saveText(`receipt-diagnostic-${shortId(view.receiptId)}.json`, json);
  useUiStore.setState({ notice: 'Diagnostic receipt downloaded.' });
}

export async function downloadUserView(): Promise<void> {
  const view = shownView();
  if (!view || view.audience !== 'user') return;
  const json = await compilerApi().userViewJson();
  if (json === null) return;
  saveText(`user-view-${shortId(view.packetFingerprint ?? view.contractFingerprint)}.json`, json);
  useUiStore.setState({ notice: 'User view downloaded (not a receipt).' });
}
