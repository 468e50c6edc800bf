import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortedSet } from './canonical';
import { CanonicalBytes } from './canonical-bytes';

const utf8 = (text: string) => new TextEncoder().encode(text);

function written(write: (bytes: CanonicalBytes) => void): Uint8Array | null {
  const bytes = new CanonicalBytes();
  write(bytes);
  const view = bytes.finish();
  return view && view.slice();
}

describe('CanonicalBytes', () => {
  it('writes a string as the UTF-8 of JSON.stringify, for any code point', () => {
    const anyString = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'binary-ascii' }),
      fc.string({ unit: 'grapheme' }),
    );
    fc.assert(
      fc.property(anyString, (value) => {
        expect(written((bytes) => bytes.string(value))).toEqual(utf8(JSON.stringify(value)));
      }),
      { numRuns: 1_000 },
    );
  });

  it('escapes as JSON.stringify does: short escapes, \\u00XX for other controls, nothing else', () => {
    const value = '"\\/\b\f\n\r\t\u0000\u001f\u007f é ≠ 😀';
    expect(written((bytes) => bytes.string(value))).toEqual(utf8(JSON.stringify(value)));
  });

  it('refuses a lone surrogate wherever it is, as canonical JSON does', () => {
    for (const value of ['\ud83d', '\ude00', 'a\ud83db', '\ude00\ud83d', `x${'\ud800'}`]) {
      expect(written((bytes) => bytes.string(value))).toBeNull();
    }
    expect(written((bytes) => bytes.sortedSet(['a', '\udbff']))).toBeNull();
  });

  it('writes a sorted set as JSON.stringify(sortedSet(values)), sorted input or not', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 4 }), { maxLength: 6 }), (values) => {
        expect(written((bytes) => bytes.sortedSet(values))).toEqual(utf8(JSON.stringify(sortedSet(values))));
      }),
    );
  });

  it('writes numbers and nulls as JSON.stringify does', () => {
    fc.assert(
      fc.property(fc.option(fc.double({ noNaN: true, noDefaultInfinity: true })), (value) => {
        expect(written((bytes) => bytes.numberOrNull(value))).toEqual(utf8(JSON.stringify(value)));
      }),
    );
    expect(written((bytes) => bytes.stringOrNull(null))).toEqual(utf8('null'));
  });

  it('grows past its first buffer, and starts over at reset', () => {
    const bytes = new CanonicalBytes();
    const long = 'ü'.repeat(5_000);
    bytes.ascii('[');
    bytes.string(long);
    bytes.ascii(']');
    expect(bytes.finish()).toEqual(utf8(`[${JSON.stringify(long)}]`));
    bytes.reset();
    bytes.string('\ud83d');
    expect(bytes.finish()).toBeNull();
    bytes.reset();
    bytes.string('ok');
    expect(bytes.finish()).toEqual(utf8('"ok"'));
  });
});
