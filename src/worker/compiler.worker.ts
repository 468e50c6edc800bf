import '../shared/jitless-zod';
import { expose } from 'comlink';
import { createSqliteCompiler } from '../adapters/sqlite/compiler';
import { openInMemoryDatabase } from '../sqlite/load-sqlite';
import { readBuiltinScenarios } from './builtin-sources';
import { createEvaluation } from './evaluation';
import { readFoundationTexts, readSeed000 } from './evaluation-sources';
import { hashInWasm } from '../lib/hash-wasm';
import type { Audience } from '../core/disclosure';
import { callByName, forwarding, type Answering } from '../shared/forwarding';
import type { CompilerApi, LoadProgress, SavedWorkspace, WorkspaceEvent } from './protocol';
import { createRecordStore } from './record-store';
import { readRecordsInParts } from './records-in-parts';
import { startPartHelper } from './records-part-helper';
import { readRememberedResult } from './remembered-result';
import { createSession, type Session } from './session';
import { measuredAsync } from './user-timing';
import { openWorkspaceDatabase } from './workspace-database';
import { createIndexedDbStorage } from './workspace-storage';

const hashing = hashInWasm();
const storage = createIndexedDbStorage();
// In a build the worker's script name carries a hash of its code, the compiler's included: a result remembered by another build is not shown.
const build = new URL(import.meta.url).pathname;
// Its key is a SHA-256, so it is read once the hasher is installed.
const remembered = hashing.then(() => measuredAsync('cc:remembered', () => readRememberedResult(storage, build)));
// The image is restored in one long task: the remembered result is read first, so the page is not kept waiting behind it.
const ready = Promise.all([remembered.then(openWorkspaceDatabase), hashing]).then(([{ driver, state, image }]) =>
  createSession({
    compiler: createSqliteCompiler(driver),
    storage,
    builtins: readBuiltinScenarios(),
    database: state,
    // Only a database that survives a reload is worth keeping the records in.
    records: image ? createRecordStore(driver) : null,
    image,
    estimateStorage: () => navigator.storage.estimate(),
    remember: { memory: storage, build },
    // With one core a helper only adds the copying of its records; with more it reads beside this worker.
    readRecords: navigator.hardwareConcurrency > 1 ? readRecordsInParts(startPartHelper) : undefined,
  }),
);
// A failed start (SQLite could not load) reaches the page through each call that awaits it, not as an unhandled rejection.
ready.catch(() => undefined);
// Every call after `start` waits until the workspace is restored: a click sent to a restarted worker must not act on a half-restored one.
let started: Promise<Session> | null = null;
const session = (): Promise<Session> => started ?? ready;

const evaluation = createEvaluation({
  openDatabase: openInMemoryDatabase,
  seed000: readSeed000,
  foundationTexts: readFoundationTexts,
  currentScenario: async () => (await session()).current(),
  clock: () => performance.now(),
});

/** What the entry answers itself; every other method of the API is the session's, asked once the workspace is restored. */
const own = {
  ...evaluation,
  // Answered before SQLite loads, so the page can watch this worker from its first moment.
  holdLifeline: (name: string) =>
    new Promise<void>((held, refused) => {
      navigator.locks
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
} satisfies Partial<CompilerApi>;

// Checked here, not at run time: the session answers every other method with the API's arguments and results.
const answers: (session: Session) => Answering<Omit<CompilerApi, keyof typeof own>> = (opened) => opened;

const api = forwarding<CompilerApi>((name, args) =>
  Object.hasOwn(own, name)
    ? callByName(own, name, args)
    : session().then((opened) => callByName(answers(opened), name, args)),
);

expose(api);
