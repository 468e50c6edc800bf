import { proxy, wrap, type Remote } from 'comlink';
import workerScriptUrl from '../worker/compiler.worker.ts?worker&url';
import type { CompilerApi } from '../worker/protocol';
import { wordMessage } from '../core/messages';
import { callByName, forwarding } from '../shared/forwarding';
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
  // Started through a bootstrap so that the worker runs under the page's Content Security Policy (see
  // workerBootstrapUrl).
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
    end(
      event.message ? wordMessage('WORKER_ERROR', { problem: event.message }) : wordMessage('WORKER_SCRIPT_NOT_LOADED'),
    );
  });
  worker.addEventListener('messageerror', () => end(wordMessage('WORKER_MESSAGE_UNREADABLE')));
  const startTimer = setTimeout(
    () => end(wordMessage('WORKER_DID_NOT_START', { seconds: START_TIMEOUT_MS / 1000 })),
    START_TIMEOUT_MS,
  );
  const lifeline = `context-compiler-worker-${crypto.randomUUID()}`;
  remote.holdLifeline(lifeline).then(
    () => {
      clearTimeout(startTimer);
      // The worker's code has loaded and runs: the bootstrap is no longer needed.
      URL.revokeObjectURL(bootstrap);
      void navigator.locks.request(lifeline, () => end(wordMessage('WORKER_ENDED')));
    },
    // Without Web Locks only errors reveal a lost worker; everything else still works.
    () => clearTimeout(startTimer),
  );
  return { remote, lost, terminate: () => end(wordMessage('WORKER_RESTARTED')) };
}

/** The worker API the app calls, kept across restarts; `onLost` hears when a worker ends unasked. */
export function createWorkerApi(onLost: (reason: string) => void): {
  readonly api: CompilerApi;
  readonly restart: () => void;
} {
  const supervisor = createWorkerSupervisor(connectWorker, onLost);
  // Callbacks (progress, workspace events) cannot be copied into a message: comlink sends them as proxies.
  const api = forwarding<CompilerApi>((name, args) =>
    supervisor.call((remote) =>
      callByName(
        remote,
        name,
        args.map((arg) => (typeof arg === 'function' ? proxy(arg) : arg)),
      ),
    ),
  );
  return { api, restart: supervisor.restart };
}
