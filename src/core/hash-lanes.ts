import type { Sha256 } from './hash';
import { SHA256_LANES_WASM } from './sha256-lanes.generated';

/**
 * SHA-256 of many messages at once, four side by side in WebAssembly's 128-bit SIMD lanes (the module is
 * rendered and assembled by `scripts/generate-sha256-lanes.ts`). Reading a records file hashes two short
 * messages per record, its text and its fingerprint form; one message at a time, SHA-256 cannot use the
 * lanes, since each block depends on the one before.
 *
 * The module's memory, after its constants and message schedule (0–2047): a table of jobs, their digests,
 * the digests in hex, then the messages, each padded here to whole 64-byte blocks as SHA-256 pads.
 * Messages are gathered until the table or the run's bytes are full, then hashed in one call.
 */

type HashEach = (jobs: number, count: number, out: number, hex: number) => void;

const JOBS_PER_RUN = 256;
const JOB_TABLE = 2048;
const DIGESTS = JOB_TABLE + JOBS_PER_RUN * 8;
const HEXES = DIGESTS + JOBS_PER_RUN * 32;
const MESSAGES = HEXES + JOBS_PER_RUN * 64;
/**
 * Message bytes gathered before a run, unless a single message is longer (the memory grows for it). A
 * receipt's digest chunks are a few hundred kilobytes each: a run holds a dozen, so the lanes are seldom
 * idle while the last few finish.
 */
const RUN_BYTES = 1 << 22;
const PAGE_BYTES = 1 << 16;

/** Messages the module hashes side by side. */
export const SHA256_LANES = 4;

/**
 * Makes the four-lane `hexEach`, or null where WebAssembly's SIMD is not available (it gives the same
 * digests as every other SHA-256 here; the tests hold it to @noble/hashes).
 */
export async function loadSha256Lanes(): Promise<Sha256['hexEach'] | null> {
  const bytes = Uint8Array.from(atob(SHA256_LANES_WASM), (char) => char.charCodeAt(0));
  if (!WebAssembly.validate(bytes)) return null;
  const { instance } = await WebAssembly.instantiate(bytes);
  return hexEachInLanes(instance.exports.memory as WebAssembly.Memory, instance.exports.hashEach as HashEach);
}

function hexEachInLanes(memory: WebAssembly.Memory, hashEach: HashEach): Sha256['hexEach'] {
  const encoder = new TextEncoder();
  // The digits are ASCII, which every single-byte decoding reads alike.
  const digits = new TextDecoder('latin1');
  let heap = new Uint8Array(memory.buffer);
  let view = new DataView(memory.buffer);
  let busy = false;

  /** Grows the memory to hold `end` bytes; growing detaches the old views. */
  const reach = (end: number) => {
    if (end <= heap.length) return;
    memory.grow(Math.ceil((end - heap.length) / PAGE_BYTES));
    heap = new Uint8Array(memory.buffer);
    view = new DataView(memory.buffer);
  };
  reach(MESSAGES + RUN_BYTES);

  /** Pads the `length` bytes at `at` as SHA-256 does (0x80, zeros, the bit length); returns the blocks. */
  const pad = (at: number, length: number) => {
    const blocks = Math.floor((length + 8) / 64) + 1;
    const end = at + blocks * 64;
    heap[at + length] = 0x80;
    heap.fill(0, at + length + 1, end - 8);
    // The bit length, big-endian over 8 bytes; `length * 8` stays exact in a double.
    view.setUint32(end - 8, Math.floor(length / 0x20000000));
    view.setUint32(end - 4, (length * 8) % 0x100000000);
    return blocks;
  };

  return (count, message) => {
    if (busy) throw new Error('SHA-256 lanes asked for a digest while hashing: hexEach does not re-enter');
    busy = true;
    try {
      const hexes = new Array<string>(count);
      let first = 0;
      let jobs = 0;
      let end = MESSAGES;
      const run = () => {
        hashEach(JOB_TABLE, jobs, DIGESTS, HEXES);
        const hex = digits.decode(heap.subarray(HEXES, HEXES + jobs * 64));
        for (let job = 0; job < jobs; job += 1) hexes[first + job] = hex.slice(job * 64, job * 64 + 64);
        first += jobs;
        jobs = 0;
        end = MESSAGES;
      };
      for (let index = 0; index < count; index += 1) {
        const next = message(index);
        // UTF-8 takes at most three bytes per UTF-16 unit; padding at most 72 more.
        const most = (typeof next === 'string' ? next.length * 3 : next.length) + 72;
        if (jobs === JOBS_PER_RUN || (jobs > 0 && end + most > MESSAGES + RUN_BYTES)) run();
        reach(end + most);
        let length: number;
        if (typeof next === 'string') {
          length = encoder.encodeInto(next, heap.subarray(end)).written;
        } else {
          heap.set(next, end);
          length = next.length;
        }
        const blocks = pad(end, length);
        view.setUint32(JOB_TABLE + jobs * 8, end, true);
        view.setUint32(JOB_TABLE + jobs * 8 + 4, blocks, true);
        jobs += 1;
        end += blocks * 64;
      }
      if (jobs > 0) run();
      return hexes;
    } finally {
      busy = false;
    }
  };
}
