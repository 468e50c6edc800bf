import { describeSha256 } from '../core/test-support/sha256-battery';
import { loadSha256InWasm } from './hash-wasm';

const inWasm = await loadSha256InWasm();

describeSha256("in WebAssembly (hash-wasm, the browser's workers)", inWasm);
