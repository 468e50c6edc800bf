import { describe, expect, it } from 'vitest';
import { contentHashOf, type Sha256 } from './hash';
import { sha256 } from './test-support/sha256';

// Each implementation is tested where it lives: src/lib/node-sha256.test.ts, src/lib/hash-wasm.test.ts.
describe('the content hash', () => {
  it('prefixes the digest of the SHA-256 it is given', () => {
    expect(contentHashOf(sha256, 'abc')).toBe(
      'sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('hashes through the implementation it is given and no other', () => {
    const fake: Sha256 = {
      hex: (text) => `fake:${text}`,
      hexOfBytes: (bytes) => `fake bytes:${bytes.length}`,
      digest: () => sha256.digest(),
    };
    expect(contentHashOf(fake, 'abc')).toBe('sha256:fake:abc');
    expect(contentHashOf(sha256, 'abc')).not.toBe('sha256:fake:abc');
  });
});
