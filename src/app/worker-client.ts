import { proxy, wrap } from 'comlink';
import type { CompilerApi } from '../worker/protocol';

/** Starts the compiler worker; progress callbacks cross the boundary as comlink proxies. */
export function createWorkerApi(): CompilerApi {
  const worker = new Worker(new URL('../worker/compiler.worker.ts', import.meta.url), { type: 'module', name: 'compiler' });
  const remote = wrap<CompilerApi>(worker);
  return {
    start: () => remote.start(),
    select: (selection) => remote.select(selection),
    compile: (audience) => remote.compile(audience),
    disclose: (audience) => remote.disclose(audience),
    awaitBaselines: (compilation, onProgress) => remote.awaitBaselines(compilation, proxy(onProgress)),
    queryTrace: (query) => remote.queryTrace(query),
    receiptJson: () => remote.receiptJson(),
    packetJson: (audience) => remote.packetJson(audience),
    userViewJson: () => remote.userViewJson(),
    statementJson: () => remote.statementJson(),
    updateContract: (input) => remote.updateContract(input),
    revertContract: () => remote.revertContract(),
    exportScenario: () => remote.exportScenario(),
    createShareLink: () => remote.createShareLink(),
    checkShareLink: (fragment) => remote.checkShareLink(fragment),
    openShareLink: (fragment) => remote.openShareLink(fragment),
    loadFiles: (files, onProgress) => remote.loadFiles(files, proxy(onProgress)),
    cancelLoad: () => remote.cancelLoad(),
    freezeReceipt: () => remote.freezeReceipt(),
    declareLateChange: (id) => remote.declareLateChange(id),
    attemptContinue: () => remote.attemptContinue(),
    resetDrill: () => remote.resetDrill(),
    resetWorkspace: () => remote.resetWorkspace(),
    diffReceipts: (before, after, audience) => remote.diffReceipts(before, after, audience),
    runSeed000: (onProgress) => remote.runSeed000(proxy(onProgress)),
    runScenarioComparison: (onProgress) => remote.runScenarioComparison(proxy(onProgress)),
    runGrowth: (sizes, onProgress) => remote.runGrowth(sizes, proxy(onProgress)),
    runFoundation: (onProgress) => remote.runFoundation(proxy(onProgress)),
    cancelEvaluation: () => remote.cancelEvaluation(),
  };
}
