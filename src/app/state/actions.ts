import type { Audience } from '../../core/disclosure';
import type { ActivityCode } from '../../core/messages-app';
import { wordMessage } from '../../core/messages';
import { TRACE_PAGE_SIZE } from '../../shared/trace-page';
import type {
  CompileResponse,
  EvidenceAttempts,
  ReceiptCheck,
  TestsView,
  TraceFilter,
  TracePage,
} from '../../worker/protocol';
import { viewIdentity } from '../../shared/view-identity';
import { compilerApi } from '../worker-client';
import { INITIAL_DRILL, useDrillStore } from './drill-store';
import { failureWords } from './failure';
import { EMPTY_TRACE, traceFrom, useResultStore } from './result-store';
import { useScenarioStore } from './scenario-store';
import { INITIAL_TESTS, useTestsStore } from './tests-store';
import { useUiStore } from './ui-store';

// Compiling and reading the trace: what every other action (session-actions, workspace-actions, drill-actions,
// export-actions, debug-actions) builds on, and the one place a failure clears the screen.

// Responses can arrive out of order when the user clicks quickly; only the newest one is shown.
let compileTicket = 0;
let traceTicket = 0;

/**
 * A call to the worker threw or was lost. Fail closed: nothing derived from an earlier compilation
 * stays on screen (no packet, receipt, trace or drill verdict), replies still on their way are
 * dropped, and the failure names what was being done and why.
 */
export function failClosed(during: ActivityCode, error: unknown): void {
  compileTicket += 1;
  traceTicket += 1;
  requestedPages.clear();
  useResultStore.setState({
    response: null,
    failure: {
      headline: { code: 'COMPILER_FAILED_WHILE', args: { during } },
      reason: failureWords(error),
    },
    compiling: false,
    rememberedReceipt: null,
    trace: EMPTY_TRACE,
  });
  useDrillStore.setState(INITIAL_DRILL);
  useTestsStore.setState(INITIAL_TESTS);
  useUiStore.setState({ notice: null });
}

/** Runs one step against the worker; a throw or rejection fails closed. False when it failed. */
export async function guarded(during: ActivityCode, work: () => Promise<void>): Promise<boolean> {
  try {
    await work();
    return true;
  } catch (error) {
    failClosed(during, error);
    return false;
  }
}

// Whether the compilation now asked for is the boot's, which says so if it differs from the remembered result it
// replaces.
let checkingRemembered = false;
// What follows the result last shown (its trace, baselines and evidence attempts): a caller of compileNow waits for it
// too.
let shownFollowUps: Promise<unknown> = Promise.resolve();
const compiles = createLatestWins(compileOnce);

/** A request that changes the inputs in the worker (a selection): no compilation is sent until it is answered. */
export function changingInputs<T>(change: Promise<T>): Promise<T> {
  return compiles.changing(change);
}

/**
 * Compiles the inputs as they are now. Requests coalesce (createLatestWins): one made while another compiles is sent
 * once that one is answered, and only the last of a burst; the answer to a superseded one is never shown.
 * `checksRemembered`: the boot's compilation.
 */
export async function compileNow({ checksRemembered = false } = {}): Promise<void> {
  // Any reply to a compilation sent before this request is about inputs that have changed since.
  compileTicket += 1;
  if (checksRemembered) checkingRemembered = true;
  // Any other compilation is of inputs the user changed (or asked for again): a remembered result is then outdated, not
  // being checked.
  useResultStore.setState(checksRemembered ? { compiling: true } : { compiling: true, rememberedReceipt: null });
  markTestsRerunning();
  await compiles.request();
  await shownFollowUps;
}

async function compileOnce(superseded: () => boolean): Promise<void> {
  const ticket = compileTicket;
  const checksRemembered = checkingRemembered;
  let response: CompileResponse;
  try {
    // The marks of the answer are against the compilation on screen, not one whose answer a burst made the page drop.
    const onScreen = useResultStore.getState().response;
    response = await compilerApi().compile(
      useUiStore.getState().audience,
      onScreen?.ok ? onScreen.view.compilation : null,
    );
  } catch (error) {
    // A failure of a compilation the user has already replaced changes nothing on screen.
    if (ticket === compileTicket && !superseded()) failClosed('COMPILING', error);
    return;
  }
  if (ticket !== compileTicket || superseded()) return;
  checkingRemembered = false;
  const remembered = useResultStore.getState().rememberedReceipt;
  useResultStore.setState((state) => ({
    response,
    failure: null,
    compiling: false,
    rememberedReceipt: null,
    revision: state.revision + 1,
    baselineProgress: response.ok ? response.view.baselineIndexing : null,
  }));
  const compiled = response.ok ? viewIdentity(response.view) : null;
  if (checksRemembered && remembered !== null && compiled?.id !== remembered) {
    // The remembered view is of the audience on screen (`showRememberedResult`), so both ids are of one kind.
    const label = compiled?.label ?? 'receipt';
    useUiStore.setState({
      notice: wordMessage('REMEMBERED_RESULT_REPLACED', { label, remembered, compiled: compiled?.id ?? null }),
    });
  }
  shownFollowUps = Promise.all([
    refreshTrace(),
    fillBaselines(response, ticket),
    fillEvidenceAttempts(response, ticket),
    recheckLoadedReceipts(ticket),
    rerunTests(ticket),
  ]);
}

/** The cases on screen are of the inputs before a change until the suites have run again. */
function markTestsRerunning(): void {
  useTestsStore.setState((state) => (state.view === null ? {} : { busy: true }));
}

/** The open suites run on the inputs on screen (a drop that brought suites but changed no input). */
export async function refreshTests(): Promise<void> {
  await rerunTests(compileTicket);
}

/**
 * The open suites run again on the inputs just compiled, in the view on screen: no case's verdict outlives its inputs.
 */
async function rerunTests(ticket: number): Promise<void> {
  const { audience } = useUiStore.getState();
  let view: TestsView | null;
  try {
    view = await compilerApi().runTests(audience);
  } catch (error) {
    if (ticket === compileTicket) failClosed('RUNNING_TESTS', error);
    return;
  }
  if (ticket !== compileTicket) return;
  useTestsStore.setState((state) => (view === null ? INITIAL_TESTS : { view, refusal: state.refusal, busy: false }));
}

/**
 * The receipts the last load brought are judged again against the inputs just compiled: no verdict outlives its inputs.
 */
async function recheckLoadedReceipts(ticket: number): Promise<void> {
  const load = useScenarioStore.getState().load;
  if (load.status !== 'loaded' || load.receiptChecks.length === 0) return;
  const revision = useResultStore.getState().revision;
  let receiptChecks: readonly ReceiptCheck[];
  try {
    receiptChecks = await compilerApi().checkReceipts();
  } catch (error) {
    if (ticket === compileTicket) failClosed('CHECKING_LOADED_RECEIPTS', error);
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
    if (ticket === compileTicket) failClosed('READING_EVIDENCE_ATTEMPTS', error);
    return;
  }
  if (ticket !== compileTicket || attempts === null) return;
  const found = attempts;
  useResultStore.setState((state) => {
    const shown = state.response;
    if (
      !shown?.ok ||
      shown.view.compilation !== compilation ||
      shown.view.audience !== audience ||
      shown.view.evidenceAttempts !== null
    )
      return {};
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
    if (ticket === compileTicket) failClosed('INDEXING_BASELINES', error);
    return;
  }
  if (ticket !== compileTicket || filled === null) return;
  useResultStore.setState({ response: filled, baselineProgress: null });
}

export async function setAudience(audience: Audience): Promise<void> {
  useUiStore.setState({ audience });
  markTestsRerunning();
  const ticket = ++compileTicket;
  let response: CompileResponse;
  try {
    response = await compilerApi().disclose(audience);
  } catch (error) {
    if (ticket === compileTicket) failClosed('CHANGING_DISCLOSURE_VIEW', error);
    return;
  }
  if (ticket !== compileTicket) return;
  useResultStore.setState({
    response,
    failure: null,
    rememberedReceipt: null,
    baselineProgress: response.ok ? response.view.baselineIndexing : null,
  });
  await Promise.all([
    refreshTrace({ code: 'all' }),
    fillBaselines(response, ticket),
    fillEvidenceAttempts(response, ticket),
    rerunTests(ticket),
  ]);
}

export async function refreshTrace(change: Partial<Omit<TraceFilter, 'audience'>> = {}): Promise<void> {
  const ticket = ++traceTicket;
  requestedPages.clear();
  const traceQuery = { ...useResultStore.getState().traceQuery, ...change };
  useResultStore.setState({ traceQuery });
  let page: TracePage;
  try {
    page = await compilerApi().queryTrace({
      ...traceQuery,
      audience: useUiStore.getState().audience,
      offset: 0,
      limit: TRACE_PAGE_SIZE,
    });
  } catch (error) {
    if (ticket === traceTicket) failClosed('READING_TRACE', error);
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
        window = await compilerApi().queryTrace({
          ...traceQuery,
          audience: useUiStore.getState().audience,
          offset: page * TRACE_PAGE_SIZE,
          limit: TRACE_PAGE_SIZE,
        });
      } catch (error) {
        if (ticket === traceTicket) failClosed('READING_TRACE', error);
        return;
      }
      if (ticket !== traceTicket) return;
      useResultStore.setState((state) => ({
        trace: { ...state.trace, pages: new Map(state.trace.pages).set(page, window.rows) },
      }));
    }),
  );
}

/**
 * The next page of one proposition's evidence attempts in compilation `compilation`, from `offset`. Null when
 * a later compilation replaced it, or when the worker failed (the page has then failed closed).
 */
export async function loadEvidenceAttempts(
  compilation: number,
  audience: Audience,
  proposition: string,
  offset: number,
): Promise<EvidenceAttempts | null> {
  try {
    return await compilerApi().evidenceAttempts(compilation, proposition, audience, offset);
  } catch (error) {
    failClosed('READING_EVIDENCE_ATTEMPTS', error);
    return null;
  }
}

/**
 * Compilations asked for while one is on its way coalesce: the latest state wins. Every request marks the inputs
 * as wanted; one run at a time sends them, after every change of the inputs already sent to the worker (a toggle's
 * `select`) has been answered, so a burst of clicks is compiled once, as it ends. A request superseded before it
 * was sent is never sent; the answer to one superseded while it compiled (by a request, or by a change of the inputs
 * still on its way) is dropped, so no intermediate state is ever shown as the answer: of a burst of slow compiles,
 * only the one already compiling and the last run, not each in turn (docs/DECISIONS.md).
 */
interface LatestWins {
  /** Resolves once the inputs as they are now (or later ones) have been compiled and shown, or have failed. */
  request(): Promise<void>;
  /** Keeps a request that changes the inputs in the worker: no compilation is sent until it has been answered. */
  changing<T>(change: Promise<T>): Promise<T>;
}

/**
 * `compileOnce(superseded)` sends one compilation and shows its answer unless `superseded()` says a newer state is
 * wanted.
 */
export function createLatestWins(compileOnce: (superseded: () => boolean) => Promise<void>): LatestWins {
  let wanted = false;
  let running: Promise<void> | null = null;
  const changes = new Set<Promise<unknown>>();

  const drain = async (): Promise<void> => {
    try {
      while (wanted) {
        wanted = false;
        while (changes.size > 0) await Promise.allSettled([...changes]);
        // Superseded while the changes were being answered: only the newest request is sent.
        if (wanted) continue;
        // An answer is superseded by a request made since, or by a change still on its way (its request follows it).
        await compileOnce(() => wanted || changes.size > 0);
      }
    } finally {
      // Cleared in the same step as the last check of `wanted`: a request made after it starts a run of its own.
      running = null;
    }
  };

  return {
    request() {
      wanted = true;
      running ??= drain();
      return running;
    },
    changing(change) {
      changes.add(change);
      const settled = () => changes.delete(change);
      change.then(settled, settled);
      return change;
    },
  };
}
