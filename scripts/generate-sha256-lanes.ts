import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import wabt from 'wabt';

/** SHA-256's round constants and initial state (FIPS 180-4, 4.2.2 and 5.3.3), rendered into the module. */
// prettier-ignore
const SHA256_ROUND_CONSTANTS = Int32Array.from([
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
const SHA256_INITIAL_STATE = Int32Array.from([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);

/**
 * Writes the WebAssembly module that hashes four messages at once, one per lane of WebAssembly's 128-bit
 * SIMD (`src/core/hash-lanes.ts` drives it), as base64 in a TypeScript module.
 *
 * The module is rendered here as WebAssembly text and assembled by wabt (the WebAssembly Binary Toolkit's
 * own JavaScript build), so what runs is never hand-edited bytes: a drift test assembles this text again and
 * fails when the committed module differs.
 *
 * What the module does, with the caller's memory layout:
 * - bytes 0–255 hold SHA-256's 64 round constants (the data segment), 1024–2047 the message schedule of
 *   four lanes (64 words of 16 bytes);
 * - `hashEach(jobs, count, out, hex)` reads `count` jobs at `jobs`, each a little-endian (offset, blocks)
 *   pair naming a message the caller has already padded to whole 64-byte blocks, and writes each message's
 *   32-byte digest, big-endian as SHA-256 prints it, at `out + 32 × job`, then all of them as lowercase
 *   hex ASCII at `hex + 64 × job` (the caller reads them as one string: writing hex in JavaScript, two
 *   characters at a time, had cost about as much as the hashing);
 * - each lane takes the next job as soon as its message ends, so messages of any lengths keep the four
 *   lanes busy until fewer than four are left; an idle lane compresses the constants and is ignored.
 */

export const SHA256_LANES_FILE = fileURLToPath(new URL('../src/core/sha256-lanes.generated.ts', import.meta.url));

const LANES = [0, 1, 2, 3] as const;
/** Where the message schedule starts: the caller's tables begin after it, at 2048. */
const SCHEDULE = 1024;

/** The state's eight words: `$sa`…`$sh` carry them from block to block, `$a`…`$h` work through one block. */
const WORDS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'] as const;

/** Reverses the bytes of each 32-bit lane: messages and digests are big-endian, WebAssembly's memory is not. */
const BYTE_SWAP = '(v128.const i8x16 3 2 1 0 7 6 5 4 11 10 9 8 15 14 13 12)';

const get = (name: string) => `(local.get $${name})`;
const rotateRight = (value: string, bits: number) => `(v128.or (i32x4.shr_u ${value} (i32.const ${bits})) (i32x4.shl ${value} (i32.const ${32 - bits})))`;
const xor3 = (a: string, b: string, c: string) => `(v128.xor (v128.xor ${a} ${b}) ${c})`;
const add = (...terms: string[]) => terms.reduce((sum, term) => `(i32x4.add ${sum} ${term})`);
const scheduleWord = (index: string) => `(v128.load offset=${SCHEDULE} (i32.shl ${index} (i32.const 4)))`;
const scheduleWordBefore = (back: number) => scheduleWord(`(i32.sub ${get('t')} (i32.const ${back}))`);
/** The hex digit of each nibble, for `i8x16.swizzle`. */
const HEX_DIGITS = `(v128.const i8x16 ${Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0)).join(' ')})`;
const INTERLEAVE_LOW = Array.from({ length: 8 }, (_, index) => `${index} ${index + 16}`).join(' ');
const INTERLEAVE_HIGH = Array.from({ length: 8 }, (_, index) => `${index + 8} ${index + 24}`).join(' ');
const hexByte = (byte: number) => `\\${byte.toString(16).padStart(2, '0')}`;
const littleEndian = (word: number) => [0, 8, 16, 24].map((shift) => hexByte((word >>> shift) & 0xff)).join('');

/** Lane `lane` takes job `$next`: its message, its block count, and the initial state in its lane. */
function takeNextJob(lane: number): string {
  const entry = `(i32.add ${get('jobs')} (i32.shl ${get('next')} (i32.const 3)))`;
  return `
      (if (i32.and (i32.eqz ${get(`left${lane}`)}) (i32.lt_u ${get('next')} ${get('count')}))
        (then
          (local.set $job${lane} ${get('next')})
          (local.set $at${lane} (i32.load offset=0 ${entry}))
          (local.set $left${lane} (i32.load offset=4 ${entry}))
          (local.set $next (i32.add ${get('next')} (i32.const 1)))
          ${WORDS.map((word, index) => `(local.set $s${word} (i32x4.replace_lane ${lane} ${get(`s${word}`)} (i32.const ${SHA256_INITIAL_STATE[index]!})))`).join('\n          ')}))`;
}

/** Word `index` of every lane's current block, byte-swapped into the schedule. */
function loadWord(index: number): string {
  const lanes = LANES.reduce((vector, lane) => `(i32x4.replace_lane ${lane} ${vector} (i32.load offset=${index * 4} ${get(`at${lane}`)}))`, '(v128.const i32x4 0 0 0 0)');
  return `(v128.store offset=${SCHEDULE + index * 16} (i32.const 0) (i8x16.swizzle ${lanes} ${BYTE_SWAP}))`;
}

/**
 * After a block, lane `lane` moves to its next block; when its message is done, its digest is written out
 * and the lane points at the constants until it takes another job, so an idle lane never reads past the
 * messages.
 */
function advanceLane(lane: number): string {
  const digestAt = `(i32.add ${get('out')} (i32.shl ${get(`job${lane}`)} (i32.const 5)))`;
  return `
      (if ${get(`left${lane}`)}
        (then
          (local.set $at${lane} (i32.add ${get(`at${lane}`)} (i32.const 64)))
          (local.set $left${lane} (i32.sub ${get(`left${lane}`)} (i32.const 1)))
          (if (i32.eqz ${get(`left${lane}`)})
            (then
              ${WORDS.map((word, index) => `(i32.store offset=${index * 4} ${digestAt} (i32x4.extract_lane ${lane} (i8x16.swizzle ${get(`s${word}`)} ${BYTE_SWAP})))`).join('\n              ')}
              (local.set $at${lane} (i32.const 0))))))`;
}

/** The module as WebAssembly text. */
export function renderSha256LanesWat(): string {
  const laneLocals = LANES.map((lane) => `(local $job${lane} i32) (local $at${lane} i32) (local $left${lane} i32)`).join(' ');
  const stateLocals = WORDS.map((word) => `(local $s${word} v128) (local $${word} v128)`).join(' ');
  const anyLeft = `(i32.or (i32.or ${get('left0')} ${get('left1')}) (i32.or ${get('left2')} ${get('left3')}))`;
  return `(module
  (memory (export "memory") 1)
  (data (i32.const 0) "${Array.from(SHA256_ROUND_CONSTANTS, littleEndian).join('')}")
  (func (export "hashEach") (param $jobs i32) (param $count i32) (param $out i32) (param $hex i32)
    ${stateLocals}
    (local $t1 v128) (local $t2 v128) (local $x v128) (local $y v128) (local $t i32) (local $next i32)
    ${laneLocals}
    (block $done
      (loop $block
        ${LANES.map(takeNextJob).join('')}
        (br_if $done (i32.eqz ${anyLeft}))
        ${Array.from({ length: 16 }, (_, index) => loadWord(index)).join('\n        ')}
        (local.set $t (i32.const 16))
        (loop $extend
          (local.set $x ${scheduleWordBefore(15)})
          (local.set $y ${scheduleWordBefore(2)})
          (v128.store offset=${SCHEDULE} (i32.shl ${get('t')} (i32.const 4))
            ${add(
              xor3(rotateRight(get('y'), 17), rotateRight(get('y'), 19), `(i32x4.shr_u ${get('y')} (i32.const 10))`),
              scheduleWordBefore(7),
              xor3(rotateRight(get('x'), 7), rotateRight(get('x'), 18), `(i32x4.shr_u ${get('x')} (i32.const 3))`),
              scheduleWordBefore(16),
            )})
          (local.set $t (i32.add ${get('t')} (i32.const 1)))
          (br_if $extend (i32.lt_u ${get('t')} (i32.const 64))))
        ${WORDS.map((word) => `(local.set $${word} ${get(`s${word}`)})`).join(' ')}
        (local.set $t (i32.const 0))
        (loop $round
          (local.set $t1 ${add(
            get('h'),
            xor3(rotateRight(get('e'), 6), rotateRight(get('e'), 11), rotateRight(get('e'), 25)),
            `(v128.bitselect ${get('f')} ${get('g')} ${get('e')})`,
            `(v128.load32_splat (i32.shl ${get('t')} (i32.const 2)))`,
            scheduleWord(get('t')),
          )})
          (local.set $t2 ${add(xor3(rotateRight(get('a'), 2), rotateRight(get('a'), 13), rotateRight(get('a'), 22)), `(v128.bitselect ${get('c')} ${get('a')} (v128.xor ${get('a')} ${get('b')}))`)})
          (local.set $h ${get('g')}) (local.set $g ${get('f')}) (local.set $f ${get('e')})
          (local.set $e (i32x4.add ${get('d')} ${get('t1')}))
          (local.set $d ${get('c')}) (local.set $c ${get('b')}) (local.set $b ${get('a')})
          (local.set $a (i32x4.add ${get('t1')} ${get('t2')}))
          (local.set $t (i32.add ${get('t')} (i32.const 1)))
          (br_if $round (i32.lt_u ${get('t')} (i32.const 64))))
        ${WORDS.map((word) => `(local.set $s${word} (i32x4.add ${get(`s${word}`)} ${get(word)}))`).join('\n        ')}
        ${LANES.map(advanceLane).join('')}
        (br $block)))
    ;; Each 16 digest bytes become 32 hex digits: the high nibbles' digits interleaved with the low ones'.
    (local.set $t (i32.const 0))
    (block $written
      (loop $digits
        (br_if $written (i32.ge_u ${get('t')} (i32.shl ${get('count')} (i32.const 1))))
        (local.set $x (v128.load (i32.add ${get('out')} (i32.shl ${get('t')} (i32.const 4)))))
        (local.set $y (i8x16.swizzle ${HEX_DIGITS} (i8x16.shr_u ${get('x')} (i32.const 4))))
        (local.set $x (i8x16.swizzle ${HEX_DIGITS} (v128.and ${get('x')} (v128.const i8x16 ${Array(16).fill(15).join(' ')}))))
        (v128.store offset=0 (i32.add ${get('hex')} (i32.shl ${get('t')} (i32.const 5))) (i8x16.shuffle ${INTERLEAVE_LOW} ${get('y')} ${get('x')}))
        (v128.store offset=16 (i32.add ${get('hex')} (i32.shl ${get('t')} (i32.const 5))) (i8x16.shuffle ${INTERLEAVE_HIGH} ${get('y')} ${get('x')}))
        (local.set $t (i32.add ${get('t')} (i32.const 1)))
        (br $digits)))))
`;
}

/** The module's bytes, as wabt assembles the text. */
export async function assembleSha256Lanes(): Promise<Uint8Array> {
  const toolkit = await wabt();
  const parsed = toolkit.parseWat('sha256-lanes.wat', renderSha256LanesWat(), { simd: true });
  try {
    parsed.validate();
    return parsed.toBinary({}).buffer;
  } finally {
    parsed.destroy();
  }
}

/** The generated module's text. */
export async function renderSha256LanesModule(): Promise<string> {
  const base64 = Buffer.from(await assembleSha256Lanes()).toString('base64');
  return [
    '// Generated by `npx tsx scripts/generate-sha256-lanes.ts`, which renders the WebAssembly text and assembles',
    '// it with wabt; do not edit. A test fails when this differs from what the script renders.',
    '',
    '/** The four-lane SHA-256 module (see scripts/generate-sha256-lanes.ts), as base64. */',
    `export const SHA256_LANES_WASM = '${base64}';`,
    '',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(SHA256_LANES_FILE, await renderSha256LanesModule());
  console.log(`wrote ${SHA256_LANES_FILE}`);
}
