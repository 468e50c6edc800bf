/**
 * SHA-256 (FIPS 180-4) of text as UTF-8, synchronous and byte-identical wherever the core runs, through the
 * implementation its entry point installs (`installSha256`): the core itself looks up no platform. Web Crypto
 * only offers an asynchronous digest, so the browser's workers install hash-wasm's WebAssembly one once it has
 * started, and hash nothing before. Reading a large record file hashes every record's text, and a receipt
 * hashes every trace row, hence a native digest on each platform.
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

let sha256: Sha256 | null = null;

/**
 * Makes every later hash go through `implementation`. The core looks up no platform: each entry point
 * installs its platform's SHA-256 before anything is hashed (Node's crypto in the CLI, tests and scripts,
 * `src/lib/node-sha256.ts`; hash-wasm in the browser's workers, `src/lib/hash-wasm.ts`). Every
 * implementation gives the same digests (the tests hold each to @noble/hashes and the FIPS vectors).
 */
export function installSha256(implementation: Sha256): void {
  sha256 = implementation;
}

/** The SHA-256 installed now (a test that installs another for a while puts this one back). */
export function installedSha256(): Sha256 {
  if (sha256 === null)
    throw new Error('no SHA-256 installed: an entry point must call installSha256 before the core hashes');
  return sha256;
}

/** SHA-256 of the UTF-8 bytes of `text` (a lone surrogate becomes U+FFFD), as lowercase hex. */
export function sha256Hex(text: string): string {
  return installedSha256().hex(text);
}

/** SHA-256 of these bytes, as lowercase hex. */
export function sha256HexOfBytes(bytes: Uint8Array): string {
  return installedSha256().hexOfBytes(bytes);
}

export function contentHashOf(text: string): string {
  return `sha256:${sha256Hex(text)}`;
}

/** See `Sha256.digest`. */
export function createDigest(): Digest {
  return installedSha256().digest();
}
