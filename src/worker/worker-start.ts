import type { Audience } from '../core/disclosure';
import type { Sha256 } from '../core/hash';
import type { LoadedScenario } from '../core/phases/1-validate/validate';
import { callByName, forwarding, type Answering } from '../shared/forwarding';
import type {
  CompilerApi,
  EvaluationApi,
  LoadProgress,
  RememberedResult,
  SavedWorkspace,
  Selection,
  WorkspaceEvent,
} from './protocol';
import type { AnsweredByEntry, Session } from './session';

export interface WorkerStartDeps {
  /** The SHA-256, once it has started: the remembered result's key is a SHA-256, and the session hashes too. */
  readonly sha256: Promise<Sha256>;
  /** The result the last session showed for the workspace storage holds; null when nothing matches it. */
  readonly readRemembered: (sha256: Sha256) => Promise<RememberedResult | null>;
  /** Opens the database and builds the session over it. */
  readonly openSession: (sha256: Sha256) => Promise<Session>;
  /** The Evaluation view's experiments, on the scenario the session has selected. */
  readonly evaluation: (
    currentScenario: () => Promise<{ readonly loaded: LoadedScenario; readonly selection: Selection }>,
  ) => EvaluationApi;
  /** Where the lifeline's lock is held (the worker's `navigator.locks`). */
  readonly locks: { request(name: string, whileHeld: () => Promise<never>): Promise<unknown> };
}

/**
 * The worker's API over a session that is still opening: what the entry answers itself (the lifeline, the
 * remembered result, the evaluation) at once, and every other method once the session is open and, after
 * `start`, restored. The worker entry wires this to SQLite, IndexedDB and comlink.
 */
export function startWorker({ sha256, readRemembered, openSession, evaluation, locks }: WorkerStartDeps): CompilerApi {
  const remembered = sha256.then(readRemembered);
  // The image is restored in one long task: the remembered result is read first, so the page is not kept waiting behind
  // it.
  const ready = Promise.all([remembered, sha256]).then(([, started]) => openSession(started));
  // A failed start (SQLite could not load) reaches the page through each call that awaits it, not as an unhandled
  // rejection.
  ready.catch(() => undefined);
  // Every call after `start` waits until the workspace is restored: a click sent to a restarted worker must not act on
  // a half-restored one.
  let started: Promise<Session> | null = null;
  const session = (): Promise<Session> => started ?? ready;

  /**
   * What the entry answers itself; every other method of the API is the session's, asked once the workspace is
   * restored.
   */
  const own = {
    ...evaluation(async () => (await session()).current()),
    // Answered before SQLite loads, so the page can watch this worker from its first moment.
    holdLifeline: (name: string) =>
      new Promise<void>((held, refused) => {
        locks
          .request(name, () => {
            held();
            return new Promise<never>(() => undefined);
          })
          .catch(refused);
      }),
    rememberedResult: () => remembered,
    start: (restore: SavedWorkspace | null, onChange: (event: WorkspaceEvent) => void) => {
      const restoring = ready.then(async (opened) => ({ opened, snapshot: await opened.start(restore, onChange) }));
      started = restoring.then(({ opened }) => opened);
      started.catch(() => undefined);
      return restoring.then(({ snapshot }) => snapshot);
    },
    // Files cross as File objects; the session reads named blobs.
    loadFiles: async (files: readonly File[], onProgress: (progress: LoadProgress) => void) =>
      (await session()).loadFiles(
        files.map((file) => ({ name: file.name, blob: file })),
        onProgress,
      ),
    openSuites: async (files: readonly File[], audience: Audience) =>
      (await session()).openSuites(
        files.map((file) => ({ name: file.name, blob: file })),
        audience,
      ),
  } satisfies Pick<CompilerApi, AnsweredByEntry | 'start' | 'loadFiles' | 'openSuites'>;

  // Checked here, not at run time: the session answers every other method with the API's arguments and results.
  const answers: (session: Session) => Answering<Omit<CompilerApi, keyof typeof own>> = (opened) => opened;

  return forwarding<CompilerApi>((name, args) =>
    Object.hasOwn(own, name)
      ? callByName(own, name, args)
      : session().then((opened) => callByName(answers(opened), name, args)),
  );
}
