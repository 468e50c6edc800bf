/**
 * SHA-256 (FIPS 180-4) of text as UTF-8, synchronous and byte-identical wherever the core runs. The core looks up
 * no platform: every function that hashes is given the implementation, as a store is given its SQL driver, and each
 * entry point passes its platform's (Node's crypto in the CLI, tests and scripts, `src/lib/node-sha256.ts`;
 * hash-wasm in the browser's workers, `src/lib/hash-wasm.ts`). Web Crypto only offers an asynchronous digest, so a
 * worker loads the WebAssembly one when it starts and hashes nothing before. Reading a large record file hashes
 * every record's text, and a receipt hashes every trace row, hence a native digest on each platform; every
 * implementation gives the same digests (the tests hold each to @noble/hashes and the FIPS vectors).
 */

export interface Sha256 {
  /** SHA-256 of the UTF-8 bytes of `text` (a lone surrogate becomes U+FFFD), as lowercase hex. */
  hex(text: string): string;
  /** SHA-256 of these bytes, as lowercase hex (for a value written straight into bytes: `CanonicalBytes`). */
  hexOfBytes(bytes: Uint8Array): string;
  /**
   * An incremental digest for long sequences (the record-set digest, the receipt trace) without building
   * one giant string. Each update is UTF-8 encoded on its own (a lone surrogate, or half of a pair split
   * between two updates, becomes U+FFFD). It can be read once.
   */
  digest(): Digest;
}

export interface Digest {
  update(text: string): void;
  hex(): string;
}

/** A digest of its two steps that refuses to be used once read. */
export function readOnce(update: (text: string) => void, hex: () => string): Digest {
  let done = false;
  return {
    update(text) {
      if (done) throw new Error('digest already finished');
      update(text);
    },
    hex() {
      if (done) throw new Error('digest already finished');
      done = true;
      return hex();
    },
  };
}

/** The content hash a record's provenance declares for its text: `sha256:` and the hex digest. */
export function contentHashOf(sha256: Sha256, text: string): string {
  return `sha256:${sha256.hex(text)}`;
}
