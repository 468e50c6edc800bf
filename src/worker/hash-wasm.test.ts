import { expect, it } from 'vitest';
import { describeSha256 } from '../core/test-support/sha256-battery';
import { loadSha256InWasm } from './hash-wasm';

const inWasm = await loadSha256InWasm();

describeSha256('in WebAssembly (the browser\'s workers, four messages at once in SIMD lanes)', inWasm);

it('hashes four messages side by side where WebAssembly has SIMD, as Node has', () => {
  expect(inWasm.lanes).toBe(4);
});
