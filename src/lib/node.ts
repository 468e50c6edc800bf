import { installSha256InNode } from '../cli/node-sha256';
import { openInMemoryDatabase } from '../sqlite/load-sqlite';
import { createApi } from './api';

/**
 * `import … from 'context-compiler'` in Node: the core with Node's SHA-256 and SQLite in WebAssembly.
 * See docs/API.md.
 */
installSha256InNode();

export const { version, readRecords, compile, drill, diff, runSuite } = createApi({ ready: Promise.resolve(), openDatabase: openInMemoryDatabase });
export type { CompileAnswer, CompileInputs, ContextCompilerApi, DrillInputs, Inputs, ScenarioInputs, SuiteInputs } from './api';
