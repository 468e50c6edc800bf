import { createSHA256, type IHasher } from 'hash-wasm';
import { readOnce, type Digest, type Sha256 } from '../core/fingerprints';

/**
 * SHA-256 in WebAssembly (hash-wasm's build), the browser's workers' one: Web Crypto's digest is asynchronous, and the
 * core hashes synchronously. Making it is asynchronous (the module is compiled), so a worker makes it once at start and
 * passes it to everything that hashes; it gives the same digests as Node's, and the tests hold it to @noble/hashes and
 * the FIPS vectors.
 */
export async function loadSha256InWasm(): Promise<Sha256> {
  return sha256ThroughHasher(await createSHA256());
}

/** Bytes encoded per call into the hasher: its own input window is 16 KiB, and it copies in pieces of that. */
const ENCODE_BYTES = 1 << 16;

/** Whose running state the hasher holds; a digest not holding it keeps its state saved. */
interface Holder {
  saved: Uint8Array | null;
}

/**
 * Every digest shares one hasher (one wasm instance), since a second would take another asynchronous
 * start: the holder's state is in it, and a digest that is updated while another holds it saves that
 * one's state and loads its own. A tree digest interleaves only its root and one chunk, so this is rare.
 */
function sha256ThroughHasher(hasher: IHasher): Sha256 {
  const encoder = new TextEncoder();
  const buffer = new Uint8Array(ENCODE_BYTES);
  let holder: Holder | null = null;

  const take = (taker: Holder) => {
    if (holder === taker) return;
    if (holder !== null) holder.saved = hasher.save();
    if (taker.saved === null) hasher.init();
    else hasher.load(taker.saved);
    holder = taker;
  };
  // encodeInto writes whole code points only, so a pair is never split between two rounds; a lone
  // surrogate becomes U+FFFD, as TextEncoder writes it everywhere else.
  const feed = (text: string) => {
    let rest = text;
    for (;;) {
      const { read, written } = encoder.encodeInto(rest, buffer);
      hasher.update(buffer.subarray(0, written));
      if (read >= rest.length) return;
      rest = rest.slice(read);
    }
  };
  const finish = (taker: Holder) => {
    take(taker);
    holder = null;
    return hasher.digest('hex');
  };

  /** A one-shot hash: a holder of its own, what `write` puts in, the digest. */
  const oneShot = (write: () => void) => {
    const taker: Holder = { saved: null };
    take(taker);
    write();
    return finish(taker);
  };

  return {
    hex: (text) => oneShot(() => feed(text)),
    hexOfBytes: (bytes) => oneShot(() => hasher.update(bytes)),
    digest(): Digest {
      const taker: Holder = { saved: null };
      return readOnce(
        (text) => {
          take(taker);
          feed(text);
        },
        () => finish(taker),
      );
    },
  };
}
