import { sha256InNode } from './node-sha256';
import { openInMemoryDatabase } from '../sqlite/load-sqlite';
import { createApi } from './api';

/**
 * `import … from 'context-compiler'` in Node: the core with Node's SHA-256 and SQLite in WebAssembly.
 * See docs/API.md.
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
  sha256: sha256InNode,
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
