/**
 * SHA-256 (FIPS 180-4) of text as UTF-8, synchronous and byte-identical wherever the core runs: through
 * Node's own crypto (OpenSSL) when the core runs in Node, in plain JavaScript everywhere else, unless a
 * worker has installed the WebAssembly one (`useSha256`, `hash-wasm.ts`; Web Crypto only offers an
 * asynchronous digest). Reading a large record file hashes every record's text, and a receipt hashes every
 * trace row, so the platform's native digest is used where there is one (figures: docs/PERFORMANCE.md). The
 * tests check each against @noble/hashes and the FIPS vectors, and against each other.
 *
 * The JavaScript implementation is written out here rather than taken from @noble/hashes because it is
 * what a worker uses until the WebAssembly one is made, and what the core uses where WebAssembly cannot
 * start: one reused buffer that text is UTF-8 encoded straight into, no per-call hasher object or byte
 * array, and a compression loop that reads bytes instead of going through a DataView.
 */

export interface Sha256 {
  /** SHA-256 of the UTF-8 bytes of `text` (a lone surrogate becomes U+FFFD), as lowercase hex. */
  hex(text: string): string;
  /** SHA-256 of these bytes, as lowercase hex (for a value written straight into bytes: `CanonicalBytes`). */
  hexOfBytes(bytes: Uint8Array): string;
  /**
   * The SHA-256 of each of `count` messages, in order: `message(index)` gives one as text (UTF-8, as `hex`) or
   * as bytes, which are read before the next is asked for (a reused buffer will do). Many short messages at
   * once are what the four-lane WebAssembly one hashes side by side (`hash-lanes.ts`); the others hash them
   * one by one.
   */
  hexEach(count: number, message: (index: number) => string | Uint8Array): string[];
  /**
   * How many messages `hexEach` hashes side by side: 1 means one after another, so a caller gains nothing
   * by gathering messages first (and loses the cache: a record checked as soon as it is read is checked
   * faster than one checked after a batch of others).
   */
  readonly lanes: number;
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

// prettier-ignore
const K = Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
// prettier-ignore
const INITIAL_STATE = Int32Array.from([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
/** SHA-256's constants, for the four-lane module's generator (scripts/generate-sha256-lanes.ts). */
export { K as SHA256_ROUND_CONSTANTS, INITIAL_STATE as SHA256_INITIAL_STATE };
/** The message schedule, shared: compression never re-enters itself. */
const W = new Int32Array(64);
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** Bytes buffered before they are hashed (a multiple of the 64-byte block). */
const BUFFER_BYTES = 1 << 16;
/** An incremental digest's own buffer: smaller, since a tree digest holds one per chunk it is hashing. */
const DIGEST_BUFFER_BYTES = 1 << 14;

/** Compresses the whole 64-byte blocks of `bytes[0, end)` into `state`; `end` is a multiple of 64. */
function compress(state: Int32Array, bytes: Uint8Array, end: number): void {
  let h0 = state[0]!;
  let h1 = state[1]!;
  let h2 = state[2]!;
  let h3 = state[3]!;
  let h4 = state[4]!;
  let h5 = state[5]!;
  let h6 = state[6]!;
  let h7 = state[7]!;
  for (let offset = 0; offset < end; offset += 64) {
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    let f = h5;
    let g = h6;
    let h = h7;
    // The message schedule is extended inside the rounds, one word per round.
    for (let index = 0; index < 64; index += 1) {
      let word: number;
      if (index < 16) {
        const at = offset + index * 4;
        word = (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
      } else {
        const w15 = W[index - 15]!;
        const w2 = W[index - 2]!;
        const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
        const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
        word = (s1 + W[index - 7]! + s0 + W[index - 16]!) | 0;
      }
      W[index] = word;
      const sigma1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      // Ch(e, f, g) and Maj(a, b, c) in their shorter equivalent forms.
      const t1 = (h + sigma1 + (g ^ (e & (f ^ g))) + K[index]! + word) | 0;
      const sigma0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (sigma0 + ((a & b) | (c & (a | b)))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  state[0] = h0;
  state[1] = h1;
  state[2] = h2;
  state[3] = h3;
  state[4] = h4;
  state[5] = h5;
  state[6] = h6;
  state[7] = h7;
}

/**
 * Pads the last `used` (< 64) bytes at the start of `buffer` (which has room for a block) for a message of
 * `total` bytes, compresses them and returns the digest as lowercase hex.
 */
function finish(state: Int32Array, buffer: Uint8Array, used: number, total: number): string {
  buffer[used++] = 0x80;
  if (used > 56) {
    buffer.fill(0, used, 64);
    compress(state, buffer, 64);
    used = 0;
  }
  buffer.fill(0, used, 56);
  // The length in bits, big-endian over 8 bytes; `total * 8` stays exact in a double.
  const high = Math.floor(total / 0x20000000);
  const low = (total * 8) % 0x100000000;
  buffer[56] = high >>> 24;
  buffer[57] = high >>> 16;
  buffer[58] = high >>> 8;
  buffer[59] = high;
  buffer[60] = low >>> 24;
  buffer[61] = low >>> 16;
  buffer[62] = low >>> 8;
  buffer[63] = low;
  compress(state, buffer, 64);
  let hex = '';
  for (let index = 0; index < 8; index += 1) {
    const word = state[index]!;
    hex += HEX[(word >>> 24) & 0xff]! + HEX[(word >>> 16) & 0xff]! + HEX[(word >>> 8) & 0xff]! + HEX[word & 0xff]!;
  }
  return hex;
}

const encoder = new TextEncoder();
/** One buffer and state for every one-shot hash: hashing is synchronous and never re-entered. */
const shared = { state: new Int32Array(8), buffer: new Uint8Array(BUFFER_BYTES) };

/**
 * UTF-8 encodes `text` after the `used` bytes already in `buffer` and compresses every whole block,
 * keeping the partial one at the start; returns the bytes left in the buffer and the bytes taken in.
 * TextEncoder turns a lone surrogate into U+FFFD, as it does everywhere else.
 */
function absorb(state: Int32Array, buffer: Uint8Array, used: number, text: string): { used: number; written: number } {
  let total = 0;
  let rest = text;
  for (;;) {
    // encodeInto writes whole code points only, so a pair is never split between two rounds; at most
    // 63 bytes stay buffered, so there is always room for the next one.
    const { read, written } = encoder.encodeInto(rest, used === 0 ? buffer : buffer.subarray(used));
    used += written;
    total += written;
    const whole = used & ~63;
    compress(state, buffer, whole);
    buffer.copyWithin(0, whole, used);
    used -= whole;
    if (read >= rest.length) return { used, written: total };
    rest = rest.slice(read);
  }
}

const oneShotInJavaScript: Pick<Sha256, 'hex' | 'hexOfBytes'> = {
  hex(text) {
    const { state, buffer } = shared;
    state.set(INITIAL_STATE);
    const { used, written } = absorb(state, buffer, 0, text);
    return finish(state, buffer, used, written);
  },
  hexOfBytes(bytes) {
    const { state, buffer } = shared;
    state.set(INITIAL_STATE);
    const whole = bytes.length & ~63;
    compress(state, bytes, whole);
    buffer.set(bytes.subarray(whole));
    return finish(state, buffer, bytes.length - whole, bytes.length);
  },
};

/** SHA-256 in plain JavaScript, UTF-8 as TextEncoder writes it. */
export const sha256InJavaScript: Sha256 = {
  ...oneShotInJavaScript,
  hexEach: hexEachOneByOne(oneShotInJavaScript),
  lanes: 1,
  digest() {
    const state = Int32Array.from(INITIAL_STATE);
    const buffer = new Uint8Array(DIGEST_BUFFER_BYTES);
    let used = 0;
    let total = 0;
    return readOnce(
      (text) => {
        const absorbed = absorb(state, buffer, used, text);
        used = absorbed.used;
        total += absorbed.written;
      },
      () => finish(state, buffer, used, total),
    );
  },
};

/** `Sha256.hexEach` as one call of `hex` or `hexOfBytes` per message. */
export function hexEachOneByOne(hashing: Pick<Sha256, 'hex' | 'hexOfBytes'>): Sha256['hexEach'] {
  return (count, message) => {
    const hexes = new Array<string>(count);
    for (let index = 0; index < count; index += 1) {
      const next = message(index);
      hexes[index] = typeof next === 'string' ? hashing.hex(next) : hashing.hexOfBytes(next);
    }
    return hexes;
  };
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

/** The two functions of node:crypto used here (Node 20.12 and later have both). */
interface NodeCrypto {
  hash(algorithm: 'sha256', data: string | Uint8Array, outputEncoding: 'hex'): string;
  createHash(algorithm: 'sha256'): { update(data: string, inputEncoding: 'utf8'): unknown; digest(encoding: 'hex'): string };
}

function sha256ThroughNode(crypto: NodeCrypto): Sha256 {
  const oneShot: Pick<Sha256, 'hex' | 'hexOfBytes'> = {
    hex: (text) => crypto.hash('sha256', text, 'hex'),
    hexOfBytes: (bytes) => crypto.hash('sha256', bytes, 'hex'),
  };
  return {
    ...oneShot,
    hexEach: hexEachOneByOne(oneShot),
    lanes: 1,
    digest() {
      const hash = crypto.createHash('sha256');
      return readOnce(
        (text) => hash.update(text, 'utf8'),
        () => hash.digest('hex'),
      );
    },
  };
}

/**
 * Node's SHA-256, or null outside Node. Found through `process.getBuiltinModule` rather than imported, so
 * that the browser bundle has no import of node:crypto to resolve.
 */
function nodeCrypto(): NodeCrypto | null {
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const crypto = process?.getBuiltinModule?.('node:crypto') as Partial<NodeCrypto> | undefined;
  return typeof crypto?.hash === 'function' && typeof crypto.createHash === 'function' ? (crypto as NodeCrypto) : null;
}

const found = nodeCrypto();
/** Node's SHA-256 when the core runs in Node (null elsewhere): the tests hold it to the JavaScript one. */
export const sha256InNode: Sha256 | null = found && sha256ThroughNode(found);
let sha256: Sha256 = sha256InNode ?? sha256InJavaScript;

/**
 * Makes every later hash go through `implementation`: a worker installs one it had to make asynchronously
 * (`loadSha256InWasm`). Each implementation gives the same digests (the tests hold them to each other), so
 * what is hashed before and after is the same.
 */
export function useSha256(implementation: Sha256): void {
  sha256 = implementation;
}

/** SHA-256 of the UTF-8 bytes of `text` (a lone surrogate becomes U+FFFD), as lowercase hex. */
export function sha256Hex(text: string): string {
  return sha256.hex(text);
}

/** SHA-256 of these bytes, as lowercase hex. */
export function sha256HexOfBytes(bytes: Uint8Array): string {
  return sha256.hexOfBytes(bytes);
}

/** See `Sha256.hexEach`. */
export function sha256HexEach(count: number, message: (index: number) => string | Uint8Array): string[] {
  return sha256.hexEach(count, message);
}

export function contentHashOf(text: string): string {
  return `sha256:${sha256Hex(text)}`;
}

/** See `Sha256.lanes`. */
export function sha256Lanes(): number {
  return sha256.lanes;
}

/** `contentHashOf` each of these texts, hashed together (see `Sha256.hexEach`). */
export function contentHashesOf(texts: readonly string[]): string[] {
  return sha256HexEach(texts.length, (index) => texts[index]!).map((hex) => `sha256:${hex}`);
}

/** See `Sha256.digest`. */
export function createDigest(): Digest {
  return sha256.digest();
}
