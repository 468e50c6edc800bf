import { describe, expect, it } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { createPrng } from '../../shared/prng';
import type { Sha256 } from '../fingerprints';

const random = createPrng(11);
const pieces = [
  'a',
  'Z',
  '"',
  '\u0000',
  '\u007f',
  '\u0080',
  'é',
  '\u07ff',
  '\u0800',
  '≠',
  '日本',
  '\uffff',
  '😀',
  '\ud83d',
  '\ude00',
  '\udbff\udfff',
  '\ud800\ud800',
];

export function randomText(length: number): string {
  let text = '';
  while (text.length < length) text += random.pick(pieces);
  return text;
}

export const reference = (text: string) => bytesToHex(sha256(utf8ToBytes(text)));

/** Each update encodes on its own, as utf8ToBytes per update does: a pair split across two updates is two U+FFFD. */
export function referenceOfUpdates(parts: readonly string[]): string {
  const bytes = parts.map((part) => utf8ToBytes(part));
  const joined = new Uint8Array(bytes.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of bytes) {
    joined.set(part, at);
    at += part.length;
  }
  return bytesToHex(sha256(joined));
}

/**
 * The tests every SHA-256 implementation passes (Node's, the workers' WebAssembly one): the FIPS 180-4
 * vectors, and @noble/hashes on any text, bytes, pieces and batches.
 */
export function describeSha256(name: string, implementation: Sha256): void {
  describe(`SHA-256 ${name}`, () => {
    const sha256Hex = (text: string) => implementation.hex(text);
    const createDigest = () => implementation.digest();

    it('matches the FIPS 180-4 example vectors', () => {
      expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
      expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
      expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
        '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
      );
      expect(sha256Hex('a'.repeat(1_000_000))).toBe('cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
    });

    it('equals @noble/hashes on the UTF-8 bytes at every padding boundary', () => {
      for (let length = 0; length <= 200; length += 1) {
        const text = 'x'.repeat(length);
        expect(sha256Hex(text)).toBe(reference(text));
      }
    });

    it('equals @noble/hashes for any text, lone surrogates and texts longer than its buffer included', () => {
      for (const length of [0, 1, 5, 60, 1_000, 21_845, 21_846, 65_536, 70_000, 300_000]) {
        for (let round = 0; round < 3; round += 1) {
          const text = randomText(random.int(Math.max(0, length - 3), length));
          expect(sha256Hex(text)).toBe(reference(text));
        }
      }
      // Multi-byte code points straddling the 64 KiB buffer, and a pair whose halves fall on either side.
      for (const filler of [65_533, 65_534, 65_535, 21_844]) {
        for (const tail of ['é', '≠', '😀', '\ud83d', '\ude00x']) {
          const text = `${'a'.repeat(filler)}${tail}${'日'.repeat(30_000)}`;
          expect(sha256Hex(text)).toBe(reference(text));
        }
      }
    });

    it('hashes the UTF-8 bytes TextEncoder writes, lone surrogates included, across buffer boundaries', () => {
      for (const length of [0, 1, 7, 1_000, 70_000, 300_000]) {
        const parts = Array.from({ length: 1 + random.int(0, 5) }, () => randomText(random.int(0, length)));
        const digest = createDigest();
        for (const part of parts) digest.update(part);
        expect(digest.hex()).toBe(referenceOfUpdates(parts));
      }
    });

    it('equals sha256Hex of the whole text when fed in pieces', () => {
      const text = randomText(200_000).replace(/[\ud800-\udfff]/g, 'x');
      const digest = createDigest();
      for (let offset = 0; offset < text.length; offset += 9_973) digest.update(text.slice(offset, offset + 9_973));
      expect(digest.hex()).toBe(sha256Hex(text));
    });

    it('keeps each of several open digests apart, with one-shot hashes between their updates', () => {
      const texts = Array.from({ length: 4 }, () => Array.from({ length: 6 }, () => randomText(random.int(0, 40_000))));
      const digests = texts.map(() => createDigest());
      for (let round = 0; round < 6; round += 1) {
        texts.forEach((parts, index) => {
          digests[index]!.update(parts[round]!);
          expect(sha256Hex(parts[round]!)).toBe(reference(parts[round]!));
        });
      }
      texts.forEach((parts, index) => expect(digests[index]!.hex()).toBe(referenceOfUpdates(parts)));
    });

    it('hashes bytes as @noble/hashes does, at every padding boundary and beyond the buffer, and equal to the text they encode', () => {
      const hexOfBytes = (bytes: Uint8Array) => implementation.hexOfBytes(bytes);
      for (let length = 0; length <= 200; length += 1) {
        const bytes = Uint8Array.from({ length }, () => random.int(0, 255));
        expect(hexOfBytes(bytes)).toBe(bytesToHex(sha256(bytes)));
      }
      for (const length of [1_000, 65_535, 65_536, 65_600, 300_000]) {
        const text = randomText(length);
        expect(hexOfBytes(utf8ToBytes(text))).toBe(sha256Hex(text));
      }
      // A view into a larger buffer hashes only its own bytes.
      const larger = utf8ToBytes(`..${'abc'}..`);
      expect(hexOfBytes(larger.subarray(2, 5))).toBe(sha256Hex('abc'));
    });

    it('can be read once', () => {
      const digest = createDigest();
      digest.update('a');
      expect(digest.hex()).toBe(sha256Hex('a'));
      expect(() => digest.update('b')).toThrow();
      expect(() => digest.hex()).toThrow();
    });
  });
}
