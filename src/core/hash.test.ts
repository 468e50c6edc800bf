import { describe, expect, it } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { createPrng } from '../shared/prng';
import { createDigest, sha256Hex } from './hash';

const random = createPrng(11);
const pieces = ['a', 'Z', '"', '\u0000', '\u007f', '\u0080', 'é', '\u07ff', '\u0800', '≠', '日本', '\uffff', '😀', '\ud83d', '\ude00', '\udbff\udfff', '\ud800\ud800'];

function randomText(length: number): string {
  let text = '';
  while (text.length < length) text += random.pick(pieces);
  return text;
}

describe('createDigest', () => {
  it('hashes the UTF-8 bytes TextEncoder writes, lone surrogates included, across buffer boundaries', () => {
    for (const length of [0, 1, 7, 1_000, 70_000, 300_000]) {
      const parts = Array.from({ length: 1 + random.int(0, 5) }, () => randomText(random.int(0, length)));
      const digest = createDigest();
      for (const part of parts) digest.update(part);
      const bytes = parts.map((part) => utf8ToBytes(part));
      const joined = new Uint8Array(bytes.reduce((sum, part) => sum + part.length, 0));
      let at = 0;
      for (const part of bytes) {
        joined.set(part, at);
        at += part.length;
      }
      // Each update encodes on its own, as utf8ToBytes per update did: a pair split across two updates is two U+FFFD.
      expect(digest.hex()).toBe(bytesToHex(sha256(joined)));
    }
  });

  it('equals sha256Hex of the whole text when fed in pieces', () => {
    const text = randomText(200_000).replace(/[\ud800-\udfff]/g, 'x');
    const digest = createDigest();
    for (let offset = 0; offset < text.length; offset += 9_973) digest.update(text.slice(offset, offset + 9_973));
    expect(digest.hex()).toBe(sha256Hex(text));
  });
});
