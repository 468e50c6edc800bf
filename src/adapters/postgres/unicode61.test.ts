import { describe, expect, it } from 'vitest';
import { probeCodePoints } from '../../../scripts/generate-unicode61';
import { createPrng } from '../../shared/prng';
import { openInMemoryDatabase } from '../../sqlite/load-sqlite';
import { createFts5Tokeniser } from './test-support/fts5-tokeniser';
import { createUnicodeTokeniser } from './unicode61';

const tokeniser = createUnicodeTokeniser();
const sorted = (positions: ReadonlyMap<string, readonly number[]>) =>
  [...positions].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

describe('the JavaScript unicode61 tokenizer', () => {
  it('treats every code point of the Basic Multilingual Plane and every 61st beyond it as FTS5 does', async () => {
    const codePoints = [
      ...Array.from({ length: 0xffff }, (_, index) => index + 1),
      ...Array.from({ length: Math.ceil((0x10ffff - 0xffff) / 61) }, (_, index) => 0x1_0000 + index * 61),
    ];
    const fts5 = probeCodePoints(await openInMemoryDatabase(), codePoints);
    const differing: string[] = [];
    for (const [codePoint, expected] of fts5) {
      const [found] = tokeniser.records([['', `x${String.fromCodePoint(codePoint)}x`]]);
      const terms = sorted(found?.text ?? new Map());
      const actual =
        terms.length === 1 && terms[0]?.[1].length === 2
          ? 'separator'
          : terms[0]?.[0] === 'xx'
            ? 'dropped'
            : [...(terms[0]?.[0] ?? '')][1]?.codePointAt(0);
      if (actual !== expected)
        differing.push(`U+${codePoint.toString(16)}: FTS5 ${String(expected)}, here ${String(actual)}`);
    }
    expect(fts5.size).toBeGreaterThan(80_000);
    expect(differing.slice(0, 10)).toEqual([]);
  }, 60_000);

  it('gives the tokens, positions and counts FTS5 gives for random texts of every kind of character', async () => {
    const fts5 = createFts5Tokeniser(await openInMemoryDatabase());
    const prng = createPrng(61);
    const character = () => {
      const draw = prng.next();
      if (draw < 0.25) return ' ';
      if (draw < 0.5) return String.fromCharCode(97 + Math.floor(prng.next() * 26));
      if (draw < 0.6) return String.fromCharCode(0x300 + Math.floor(prng.next() * 0x70)); // combining marks
      if (draw < 0.65) return String.fromCharCode(0xd800 + Math.floor(prng.next() * 0x800)); // a lone surrogate
      const codePoint = draw < 0.85 ? Math.floor(prng.next() * 0x3000) : Math.floor(prng.next() * 0x10ffff);
      return codePoint >= 0xd800 && codePoint <= 0xdfff ? 'é' : String.fromCodePoint(codePoint);
    };
    // Tokens over FTS5's 32,768 bytes, one cut inside a three-byte character.
    const long: [string, string][] = [
      ['', `${'a'.repeat(40_000)} b ${'é'.repeat(20_000)}`],
      ['', `x${'東'.repeat(11_000)} ${'ж'.repeat(16_385)}`],
    ];
    const texts = [
      ...long,
      ...Array.from({ length: 3_000 }, (): [string, string] => [
        Array.from({ length: 12 }, character).join(''),
        Array.from({ length: 80 }, character).join(''),
      ]),
    ];
    const expected = fts5.records(texts);
    const actual = tokeniser.records(texts);
    texts.forEach((text, index) => {
      const [want, got] = [expected[index], actual[index]];
      expect(
        {
          title: sorted(got?.title ?? new Map()),
          text: sorted(got?.text ?? new Map()),
          titleTokens: got?.titleTokens,
          textTokens: got?.textTokens,
        },
        JSON.stringify(text),
      ).toEqual({
        title: sorted(want?.title ?? new Map()),
        text: sorted(want?.text ?? new Map()),
        titleTokens: want?.titleTokens,
        textTokens: want?.textTokens,
      });
    });
    for (const term of ['Refund', 'e-mail', 'café', 'cafe\u0301', 'ﬁle', '東京', 'İstanbul', 'x1'])
      expect(tokeniser.phrase(term), term).toEqual(fts5.phrase(term));
  }, 60_000);
});
