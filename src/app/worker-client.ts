import { proxy, wrap, type Remote } from 'comlink';
import workerScriptUrl from '../worker/compiler.worker.ts?worker&url';
import type { CompilerApi } from '../worker/protocol';
import { workerBootstrapUrl } from '../shared/worker-bootstrap';
import { createWorkerSupervisor, type WorkerConnection } from './worker-supervisor';

/** A worker that has not taken its lifeline by then is taken for dead. */
const START_TIMEOUT_MS = 30_000;

/**
 * Starts one compiler worker and watches it. A worker can end without a word (terminated by the
 * browser, out of memory, `close()`): it holds a Web Lock for its whole life, and the page asks for the
 * same lock, which is granted only once the worker is gone. An uncaught error in the worker, or a
 * script that cannot load, ends it too: its state can no longer be trusted.
 */
function connectWorker(): WorkerConnection<Remote<CompilerApi>> {
  // Started through a bootstrap so that the worker runs under the page's Content Security Policy (see workerBootstrapUrl).
  const bootstrap = workerBootstrapUrl(new URL(workerScriptUrl, import.meta.url).href);
  const worker = new Worker(bootstrap, { type: 'module', name: 'compiler' });
  const remote = wrap<CompilerApi>(worker);
  let settle: (reason: string) => void = () => undefined;
  const lost = new Promise<string>((resolve) => (settle = resolve));
  let ended = false;
  const end = (reason: string) => {
    if (ended) return;
    ended = true;
    clearTimeout(startTimer);
    URL.revokeObjectURL(bootstrap);
    worker.terminate();
    settle(reason);
  };
  worker.addEventListener('error', (event) => {
    // Handled here: the page reports it in words instead of the console reporting an uncaught error.
    event.preventDefault();
    end(event.message ? `it hit an unexpected error (${event.message})` : 'its script could not be loaded');
  });
  worker.addEventListener('messageerror', () => end('one of its messages could not be read'));
  const startTimer = setTimeout(() => end(`it did not start within ${START_TIMEOUT_MS / 1000} seconds`), START_TIMEOUT_MS);
  const lifeline = `context-compiler-worker-${crypto.randomUUID()}`;
  remote.holdLifeline(lifeline).then(
    () => {
      clearTimeout(startTimer);
      // The worker's code has loaded and runs: the bootstrap is no longer needed.
      URL.revokeObjectURL(bootstrap);
      void navigator.locks.request(lifeline, () => end('it was ended by the browser or crashed'));
    },
    // Without Web Locks only errors reveal a lost worker; everything else still works.
    () => clearTimeout(startTimer),
  );
  return { remote, lost, terminate: () => end('it was restarted') };
}

/** The worker API the app calls, kept across restarts; `onLost` hears when a worker ends unasked. */
export function createWorkerApi(onLost: (reason: string) => void): { readonly api: CompilerApi; readonly restart: () => void } {
  const supervisor = createWorkerSupervisor(connectWorker, onLost);
  const call = supervisor.call;
  const api: CompilerApi = {
    holdLifeline: (name) => call((remote) => remote.holdLifeline(name)),
    rememberedResult: () => call((remote) => remote.rememberedResult()),
    start: (restore, onChange) => call((remote) => remote.start(restore, proxy(onChange))),
    select: (selection) => call((remote) => remote.select(selection)),
    compile: (audience) => call((remote) => remote.compile(audience)),
    disclose: (audience) => call((remote) => remote.disclose(audience)),
    awaitBaselines: (compilation, onProgress) => call((remote) => remote.awaitBaselines(compilation, proxy(onProgress))),
    queryTrace: (query) => call((remote) => remote.queryTrace(query)),
    firstEvidenceAttempts: (compilation, audience) => call((remote) => remote.firstEvidenceAttempts(compilation, audience)),
    evidenceAttempts: (compilation, proposition, audience, offset) => call((remote) => remote.evidenceAttempts(compilation, proposition, audience, offset)),
    receiptJson: () => call((remote) => remote.receiptJson()),
    packetJson: (audience) => call((remote) => remote.packetJson(audience)),
    userViewJson: () => call((remote) => remote.userViewJson()),
    statementJson: () => call((remote) => remote.statementJson()),
    updateContract: (input) => call((remote) => remote.updateContract(input)),
    revertContract: () => call((remote) => remote.revertContract()),
    saveWorkspace: () => call((remote) => remote.saveWorkspace()),
    exportScenario: () => call((remote) => remote.exportScenario()),
    createShareLink: () => call((remote) => remote.createShareLink()),
    checkShareLink: (fragment) => call((remote) => remote.checkShareLink(fragment)),
    openShareLink: (fragment) => call((remote) => remote.openShareLink(fragment)),
    loadFiles: (files, onProgress) => call((remote) => remote.loadFiles(files, proxy(onProgress))),
    cancelLoad: () => call((remote) => remote.cancelLoad()),
    freezeReceipt: () => call((remote) => remote.freezeReceipt()),
    declareLateChange: (id) => call((remote) => remote.declareLateChange(id)),
    attemptContinue: () => call((remote) => remote.attemptContinue()),
    checkReceipts: () => call((remote) => remote.checkReceipts()),
    resetDrill: () => call((remote) => remote.resetDrill()),
    resetWorkspace: () => call((remote) => remote.resetWorkspace()),
    diffReceipts: (before, after, audience) => call((remote) => remote.diffReceipts(before, after, audience)),
    inspectRecord: (id, audience) => call((remote) => remote.inspectRecord(id, audience)),
    pinBaseline: () => call((remote) => remote.pinBaseline()),
    clearBaseline: () => call((remote) => remote.clearBaseline()),
    baselineDiff: (audience) => call((remote) => remote.baselineDiff(audience)),
    asOfStops: (audience) => call((remote) => remote.asOfStops(audience)),
    stepAsOf: (step) => call((remote) => remote.stepAsOf(step)),
    asOfDiff: (audience) => call((remote) => remote.asOfDiff(audience)),
    openSuites: (files, audience) => call((remote) => remote.openSuites(files, audience)),
    closeSuite: (file, audience) => call((remote) => remote.closeSuite(file, audience)),
    runTests: (audience) => call((remote) => remote.runTests(audience)),
    runSeed000: (onProgress) => call((remote) => remote.runSeed000(proxy(onProgress))),
    runScenarioComparison: (onProgress) => call((remote) => remote.runScenarioComparison(proxy(onProgress))),
    runGrowth: (sizes, onProgress) => call((remote) => remote.runGrowth(sizes, proxy(onProgress))),
    runFoundation: (onProgress) => call((remote) => remote.runFoundation(proxy(onProgress))),
    cancelEvaluation: () => call((remote) => remote.cancelEvaluation()),
  };
  return { api, restart: supervisor.restart };
}
