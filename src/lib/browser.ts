import { openInMemoryDatabase } from '../sqlite/load-sqlite';
import { loadSha256InWasm } from './hash-wasm';
import { createApi } from './api';

/**
 * `import … from 'context-compiler'` through a browser bundler: the same functions as in Node, with
 * SHA-256 in WebAssembly, which starts asynchronously: every call waits for it. See docs/API.md.
 */
export const {
  version,
  readRecords,
  readScenario,
  readSuite,
  readReceipt,
  readCheckedReceipt,
  compile,
  compileInDetail,
  baselines,
  drill,
  rehearse,
  diff,
  runSuite,
  runSuiteInDetail,
} = createApi({
  sha256: loadSha256InWasm(),
  openDatabase: openInMemoryDatabase,
});
export type {
  CompileAnswer,
  CompileDetail,
  CompileInputs,
  ContextCompilerApi,
  DetailedCompileInputs,
  DrillInputs,
  Inputs,
  RecordsSource,
  Rehearsal,
  ScenarioInputs,
  SuiteInputs,
  SuiteOptions,
  SuiteRun,
} from './api';
