import '../shared/jitless-zod';
import { expose } from 'comlink';
import { createSqliteCompiler } from '../adapters/sqlite/compiler';
import { loadSha256InWasm } from '../lib/hash-wasm';
import { openInMemoryDatabase } from '../sqlite/load-sqlite';
import { readRememberedResult } from './compilations/remembered-result';
import { createEvaluation } from './evaluation';
import { readFoundationTexts, readSeed000 } from './evaluation-sources';
import { createSession, startWorker } from './session';
import { measuredAsync } from './user-timing';
import { readBuiltinScenarios } from './workspace/builtin-sources';
import { createRecordStore } from './workspace/record-store';
import { readRecordsInParts } from './workspace/records-in-parts';
import { startPartHelper } from './workspace/records-part-helper';
import { openWorkspaceDatabase } from './workspace/workspace-database';
import { createIndexedDbStorage } from './workspace/workspace-storage';

const storage = createIndexedDbStorage();
// In a build the worker's script name carries a hash of its code, the compiler's included: a result remembered by
// another build is not shown.
const build = new URL(import.meta.url).pathname;
const sha256 = loadSha256InWasm();

expose(
  startWorker({
    sha256,
    readRemembered: (sha256) => measuredAsync('cc:remembered', () => readRememberedResult(sha256, storage, build)),
    openSession: async (sha256) => {
      const { driver, state, image } = await openWorkspaceDatabase();
      return createSession({
        compiler: createSqliteCompiler(sha256, driver),
        storage,
        builtins: readBuiltinScenarios(sha256),
        database: state,
        // Only a database that survives a reload is worth keeping the records in.
        records: image ? createRecordStore(driver) : null,
        image,
        estimateStorage: () => navigator.storage.estimate(),
        remember: { memory: storage, build },
        // With one core a helper only adds the copying of its records; with more it reads beside this worker.
        readRecords: navigator.hardwareConcurrency > 1 ? readRecordsInParts(startPartHelper) : undefined,
      });
    },
    evaluation: (currentScenario) =>
      createEvaluation({
        sha256,
        openDatabase: openInMemoryDatabase,
        seed000: readSeed000,
        foundationTexts: readFoundationTexts,
        currentScenario,
        clock: () => performance.now(),
      }),
    locks: navigator.locks,
  }),
);
