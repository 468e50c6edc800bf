import '../shared/jitless-zod';
import { expose } from 'comlink';
import { createCompiler } from '../core/compile';
import { openInMemoryDatabase } from '../sqlite/load-sqlite';
import { readBuiltinScenarios } from './builtin-sources';
import { createEvaluation } from './evaluation';
import { readFoundationTexts, readSeed000 } from './evaluation-sources';
import { hashInWasm } from './hash-wasm';
import type { CompilerApi } from './protocol';
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
    compiler: createCompiler(driver),
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

const api: CompilerApi = {
  // Answered before SQLite loads, so the page can watch this worker from its first moment.
  holdLifeline: (name) =>
    new Promise<void>((held, refused) => {
      navigator.locks.request(name, () => {
        held();
        return new Promise<never>(() => undefined);
      }).catch(refused);
    }),
  rememberedResult: () => remembered,
  start: (restore, onChange) => {
    const restoring = ready.then(async (opened) => ({ opened, snapshot: await opened.start(restore, onChange) }));
    started = restoring.then(({ opened }) => opened);
    started.catch(() => undefined);
    return restoring.then(({ snapshot }) => snapshot);
  },
  select: async (selection) => (await session()).select(selection),
  compile: async (audience) => (await session()).compile(audience),
  disclose: async (audience) => (await session()).disclose(audience),
  awaitBaselines: async (compilation, onProgress) => (await session()).awaitBaselines(compilation, onProgress),
  queryTrace: async (query) => (await session()).queryTrace(query),
  firstEvidenceAttempts: async (compilation, audience) => (await session()).firstEvidenceAttempts(compilation, audience),
  evidenceAttempts: async (compilation, proposition, audience, offset) => (await session()).evidenceAttempts(compilation, proposition, audience, offset),
  receiptJson: async () => (await session()).receiptJson(),
  packetJson: async (audience) => (await session()).packetJson(audience),
  userViewJson: async () => (await session()).userViewJson(),
  statementJson: async () => (await session()).statementJson(),
  updateContract: async (input) => (await session()).updateContract(input),
  revertContract: async () => (await session()).revertContract(),
  saveWorkspace: async () => (await session()).saveWorkspace(),
  exportScenario: async () => (await session()).exportScenario(),
  createShareLink: async () => (await session()).createShareLink(),
  checkShareLink: async (fragment) => (await session()).checkShareLink(fragment),
  openShareLink: async (fragment) => (await session()).openShareLink(fragment),
  loadFiles: async (files, onProgress) => (await session()).loadFiles(files.map((file) => ({ name: file.name, blob: file })), onProgress),
  cancelLoad: async () => (await session()).cancelLoad(),
  freezeReceipt: async () => (await session()).freezeReceipt(),
  declareLateChange: async (id) => (await session()).declareLateChange(id),
  attemptContinue: async () => (await session()).attemptContinue(),
  checkReceipts: async () => (await session()).checkReceipts(),
  resetDrill: async () => (await session()).resetDrill(),
  resetWorkspace: async () => (await session()).resetWorkspace(),
  diffReceipts: async (before, after, audience) => (await session()).diffReceipts(before, after, audience),
  inspectRecord: async (id, audience) => (await session()).inspectRecord(id, audience),
  pinBaseline: async () => (await session()).pinBaseline(),
  clearBaseline: async () => (await session()).clearBaseline(),
  baselineDiff: async (audience) => (await session()).baselineDiff(audience),
  asOfStops: async (audience) => (await session()).asOfStops(audience),
  stepAsOf: async (step) => (await session()).stepAsOf(step),
  asOfDiff: async (audience) => (await session()).asOfDiff(audience),
  openSuites: async (files, audience) => (await session()).openSuites(files.map((file) => ({ name: file.name, blob: file })), audience),
  closeSuite: async (file, audience) => (await session()).closeSuite(file, audience),
  runTests: async (audience) => (await session()).runTests(audience),
  runSeed000: (onProgress) => evaluation.runSeed000(onProgress),
  runScenarioComparison: (onProgress) => evaluation.runScenarioComparison(onProgress),
  runGrowth: (sizes, onProgress) => evaluation.runGrowth(sizes, onProgress),
  runFoundation: (onProgress) => evaluation.runFoundation(onProgress),
  cancelEvaluation: () => evaluation.cancelEvaluation(),
};

expose(api);
