import { proxy, wrap, type Remote } from 'comlink';
import workerScriptUrl from '../worker/compiler.worker.ts?worker&url';
import type { CompilerApi } from '../worker/protocol';
import { wordMessage } from '../core/messages';
import { callByName, forwarding } from '../shared/forwarding';
import { workerBootstrapUrl } from '../shared/worker-bootstrap';

/** One started worker as the supervisor sees it. */
export interface WorkerConnection<R> {
  readonly remote: R;
  /** Settles with a reason once the worker has ended or broken for good; never rejects. */
  readonly lost: Promise<string>;
  /** Ends the worker on purpose; `lost` then settles. */
  terminate(): void;
}

/** A call was made to a worker that ended before it answered. */
export class WorkerLostError extends Error {
  constructor(readonly reason: string) {
    super(`The compiler stopped: ${reason}`);
    this.name = 'WorkerLostError';
  }
}

export interface WorkerSupervisor<R> {
  /** Runs a call on the current worker; rejects with WorkerLostError if that worker ends first. */
  call<T>(run: (remote: R) => T): Promise<Awaited<T>>;
  /** Ends the current worker and starts a fresh one; calls still waiting on the old one are rejected. */
  restart(): void;
}

/**
 * Keeps one worker at a time. A call to a worker that is gone rejects at once instead of waiting
 * forever (comlink would wait: a dead worker never answers), and `onLost` hears of every worker that
 * ends without being asked to, so the page can say so and start another.
 */
export function createWorkerSupervisor<R>(
  connect: () => WorkerConnection<R>,
  onLost: (reason: string) => void,
): WorkerSupervisor<R> {
  const open = () => {
    const connection = connect();
    const gone = connection.lost.then((reason): never => {
      throw new WorkerLostError(reason);
    });
    // Nobody may be waiting on the worker when it ends; that rejection is then expected, not unhandled.
    gone.catch(() => undefined);
    void connection.lost.then((reason) => {
      if (current.connection === connection) onLost(reason);
    });
    return { connection, gone };
  };
  let current = open();
  return {
    call(run) {
      const { connection, gone } = current;
      let answer: Promise<Awaited<ReturnType<typeof run>>>;
      try {
        answer = Promise.resolve(run(connection.remote));
      } catch (error) {
        // comlink throws before sending when an argument cannot be copied; that is a failed call too.
        answer = Promise.reject(error);
      }
      return Promise.race([answer, gone]);
    },
    restart() {
      const old = current;
      current = open();
      old.connection.terminate();
    },
  };
}

// The worker's API: `connectCompilerWorker` (called once by main.tsx) starts the real one, tests hand in a fake.
let current: CompilerApi | null = null;
let restart: () => void = () => undefined;

/** Hands in a worker API and a way to replace its worker with a fresh one. */
export function setCompilerApi(api: CompilerApi, restartWorker: () => void = () => undefined): void {
  current = api;
  restart = restartWorker;
}

/** The worker's API every action calls. */
export function compilerApi(): CompilerApi {
  if (!current) throw new Error('the compiler worker has not been connected');
  return current;
}

/** Ends the current worker and starts another behind the same API. */
export function restartCompilerWorker(): void {
  restart();
}

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

/**
 * Starts the compiler worker behind the API `compilerApi` returns, kept across restarts; `onLost` hears when a worker
 * ends unasked.
 */
export function connectCompilerWorker(onLost: (reason: string) => void): void {
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
  setCompilerApi(api, supervisor.restart);
}
