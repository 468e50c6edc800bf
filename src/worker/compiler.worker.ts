import '../shared/jitless-zod';
import { expose } from 'comlink';
import { createCompiler } from '../core/compile';
import { openInMemoryDatabase } from '../sqlite/load-sqlite';
import { readBuiltinScenarios } from './builtin-sources';
import { createEvaluation } from './evaluation';
import { readFoundationTexts, readSeed000 } from './evaluation-sources';
import type { CompilerApi } from './protocol';
import { createSession } from './session';
import { createRecordStore } from './record-store';
import { openWorkspaceDatabase } from './workspace-database';
import { createIndexedDbStorage } from './workspace-storage';

const ready = openWorkspaceDatabase().then(({ driver, state }) =>
  createSession({
    compiler: createCompiler(driver),
    storage: createIndexedDbStorage(),
    builtins: readBuiltinScenarios(),
    database: state,
    // Only a database that survives a reload is worth keeping the records in.
    records: state.kind === 'opfs' ? createRecordStore(driver) : null,
    estimateStorage: () => navigator.storage.estimate(),
  }),
);

const evaluation = createEvaluation({
  openDatabase: openInMemoryDatabase,
  seed000: readSeed000,
  foundationTexts: readFoundationTexts,
  currentScenario: async () => (await ready).current(),
  clock: () => performance.now(),
});

const api: CompilerApi = {
  start: async () => (await ready).start(),
  select: async (selection) => (await ready).select(selection),
  compile: async (audience) => (await ready).compile(audience),
  disclose: async (audience) => (await ready).disclose(audience),
  awaitBaselines: async (compilation, onProgress) => (await ready).awaitBaselines(compilation, onProgress),
  queryTrace: async (query) => (await ready).queryTrace(query),
  receiptJson: async () => (await ready).receiptJson(),
  packetJson: async (audience) => (await ready).packetJson(audience),
  userViewJson: async () => (await ready).userViewJson(),
  statementJson: async () => (await ready).statementJson(),
  updateContract: async (input) => (await ready).updateContract(input),
  revertContract: async () => (await ready).revertContract(),
  exportScenario: async () => (await ready).exportScenario(),
  createShareLink: async () => (await ready).createShareLink(),
  checkShareLink: async (fragment) => (await ready).checkShareLink(fragment),
  openShareLink: async (fragment) => (await ready).openShareLink(fragment),
  loadFiles: async (files, onProgress) => (await ready).loadFiles(files.map((file) => ({ name: file.name, blob: file })), onProgress),
  cancelLoad: async () => (await ready).cancelLoad(),
  freezeReceipt: async () => (await ready).freezeReceipt(),
  declareLateChange: async (id) => (await ready).declareLateChange(id),
  attemptContinue: async () => (await ready).attemptContinue(),
  resetDrill: async () => (await ready).resetDrill(),
  resetWorkspace: async () => (await ready).resetWorkspace(),
  diffReceipts: async (before, after, audience) => (await ready).diffReceipts(before, after, audience),
  runSeed000: (onProgress) => evaluation.runSeed000(onProgress),
  runScenarioComparison: (onProgress) => evaluation.runScenarioComparison(onProgress),
  runGrowth: (sizes, onProgress) => evaluation.runGrowth(sizes, onProgress),
  runFoundation: (onProgress) => evaluation.runFoundation(onProgress),
  cancelEvaluation: () => evaluation.cancelEvaluation(),
};

expose(api);
