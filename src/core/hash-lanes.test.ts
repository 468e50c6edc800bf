import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderSha256LanesModule } from '../../scripts/generate-sha256-lanes';
import { loadSha256Lanes } from './hash-lanes';
import generatedSource from './sha256-lanes.generated.ts?raw';
import { propertyParameters } from './test-support/arbitraries';

const reference = (message: string | Uint8Array) => bytesToHex(sha256(typeof message === 'string' ? utf8ToBytes(message) : message));

const hexEach = await loadSha256Lanes();

describe('SHA-256 in four SIMD lanes', () => {
  it('is what scripts/generate-sha256-lanes.ts renders and wabt assembles', async () => {
    expect(generatedSource, 'src/core/sha256-lanes.generated.ts is out of date: run npx tsx scripts/generate-sha256-lanes.ts').toBe(await renderSha256LanesModule());
  });

  it('starts in Node, whose WebAssembly has SIMD', () => {
    expect(hexEach).not.toBeNull();
  });

  if (hexEach === null) return;

  it('gives every message its own digest however many share the lanes, at every padding boundary', () => {
    for (let count = 1; count <= 9; count += 1) {
      const messages = Array.from({ length: count }, (_, index) => 'y'.repeat(index * 29));
      expect(hexEach(count, (index) => messages[index]!)).toEqual(messages.map(reference));
    }
    const boundaries = Array.from({ length: 260 }, (_, length) => 'x'.repeat(length));
    expect(hexEach(boundaries.length, (index) => boundaries[index]!)).toEqual(boundaries.map(reference));
  });

  it('hashes a message longer than a run, between short ones', () => {
    const messages = ['a', 'é'.repeat(2_500_000), '', 'b'.repeat(5_000_000), 'c'];
    expect(hexEach(messages.length, (index) => messages[index]!)).toEqual(messages.map(reference));
  });

  it('equals @noble/hashes for any batch of texts and bytes, lone surrogates included', () => {
    const message = fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.uint8Array({ maxLength: 300 }));
    fc.assert(
      fc.property(fc.array(message, { maxLength: 40 }), (messages) => {
        expect(hexEach(messages.length, (index) => messages[index]!)).toEqual(messages.map(reference));
      }),
      propertyParameters(300),
    );
  });

  it('refuses to be re-entered, and works again afterwards', () => {
    expect(() => hexEach(2, () => hexEach(1, () => 'inner')[0]!)).toThrow(/does not re-enter/);
    expect(hexEach(1, () => 'abc')).toEqual([reference('abc')]);
  });
});
