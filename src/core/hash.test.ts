import { describe, expect, it, vi } from 'vitest';
import { contentHashOf, installedSha256, installSha256, sha256Hex, sha256HexOfBytes } from './hash';
import { reference } from './test-support/sha256-battery';

// Each implementation is tested where it lives: src/lib/node-sha256.test.ts, src/lib/hash-wasm.test.ts.
describe('the SHA-256 the core uses', () => {
  it('is none until an entry point installs one, and hashing before then says so', async () => {
    vi.resetModules();
    const fresh = await import('./hash');
    expect(() => fresh.sha256Hex('abc')).toThrow('no SHA-256 installed');
    expect(() => fresh.createDigest()).toThrow('no SHA-256 installed');
    expect(() => fresh.installedSha256()).toThrow('no SHA-256 installed');
    fresh.installSha256(installedSha256());
    expect(fresh.contentHashOf('abc')).toBe(contentHashOf('abc'));
  });

  it('is the one installed last, for every later hash', () => {
    const installed = installedSha256();
    installSha256({
      hex: (text) => `fake:${text}`,
      hexOfBytes: (bytes) => `fake bytes:${bytes.length}`,
      digest: () => installed.digest(),
    });
    try {
      expect(contentHashOf('abc')).toBe('sha256:fake:abc');
      expect(sha256HexOfBytes(new Uint8Array(3))).toBe('fake bytes:3');
    } finally {
      installSha256(installed);
    }
    expect(sha256Hex('abc')).toBe(reference('abc'));
  });

  it('prefixes the content hash', () => {
    expect(contentHashOf('abc')).toBe('sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
