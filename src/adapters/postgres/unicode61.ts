import type { RecordTokens, TermPositions, Tokeniser } from './tokens';
import { DROPPED, FOLDS, SEPARATORS } from './unicode61-table.generated';

/**
 * What a code point is in the table: between tokens, dropped from a token; any other value is the code point it folds
 * to.
 */
const SEPARATOR = 0xffff_fffe;
const DROP = 0xffff_ffff;
const REPLACEMENT = 0xfffd;

/**
 * One entry per code point, built once per tokeniser: a look-up per character is what makes tokenising cheap.
 */
function buildTable(): Uint32Array {
  const table = new Uint32Array(0x11_0000);
  for (let codePoint = 0; codePoint < table.length; codePoint += 1) table[codePoint] = codePoint;
  // SQLite reads text as UTF-8, in which NUL ends nothing but no token holds it.
  table[0] = SEPARATOR;
  const fill = (ranges: readonly number[], value: number) => {
    for (let index = 0; index < ranges.length; index += 2)
      table.fill(value, ranges[index], (ranges[index + 1] ?? 0) + 1);
  };
  fill(SEPARATORS, SEPARATOR);
  fill(DROPPED, DROP);
  for (let index = 0; index < FOLDS.length; index += 2) table[FOLDS[index] ?? 0] = FOLDS[index + 1] ?? 0;
  return table;
}

/**
 * FTS5's `unicode61 remove_diacritics 2` tokenizer, in JavaScript: the same tokens at the same positions as
 * the SQLite path ranks with (a test compares the two over every code point of the Basic Multilingual Plane,
 * a sample of the others and random texts), at a fraction of the cost of indexing each text in SQLite and
 * reading it back. A lone surrogate is read as U+FFFD, as text is encoded for SQLite.
 */
export function createUnicodeTokeniser(): Tokeniser {
  const table = buildTable();

  /** Adds each token's position to `positions`; returns how many tokens the text holds. */
  const tokenise = (text: string, positions: Map<string, number[]>): number => {
    let count = 0;
    let start = -1;
    let folded: string | null = null;
    const end = (at: number) => {
      const term = atMostTokenBytes(folded ?? text.slice(start, at));
      start = -1;
      folded = null;
      // A token of diacritics alone is no token, and takes no position.
      if (term === '') return;
      const found = positions.get(term);
      if (found === undefined) positions.set(term, [count]);
      else found.push(count);
      count += 1;
    };
    for (let index = 0; index < text.length; index += 1) {
      let codePoint = text.charCodeAt(index);
      let width = 1;
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) {
        const low = text.charCodeAt(index + 1);
        if (codePoint <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
          codePoint = ((codePoint - 0xd800) << 10) + (low - 0xdc00) + 0x1_0000;
          width = 2;
        } else codePoint = REPLACEMENT;
      }
      const mapped = table[codePoint] ?? SEPARATOR;
      if (mapped === SEPARATOR) {
        if (start >= 0) end(index);
      } else {
        if (start < 0) start = index;
        // Most tokens are their own text: they are sliced from it at their end, and built only once a character
        // changes.
        const same = mapped === codePoint && codePoint !== REPLACEMENT;
        if (!same || folded !== null) {
          folded ??= text.slice(start, index);
          if (mapped !== DROP) folded += String.fromCodePoint(mapped);
        }
      }
      index += width - 1;
    }
    if (start >= 0) end(text.length);
    return count;
  };

  return {
    records(texts) {
      return texts.map(([title, text]): RecordTokens => {
        const titlePositions = new Map<string, number[]>();
        const textPositions = new Map<string, number[]>();
        return {
          title: titlePositions,
          text: textPositions,
          titleTokens: tokenise(title, titlePositions),
          textTokens: tokenise(text, textPositions),
        };
      });
    },
    phrase(term) {
      const positions = new Map<string, number[]>();
      tokenise(term, positions);
      return inOrder(positions);
    },
  };
}

/**
 * FTS5 keeps the first 32,768 bytes of a token's UTF-8 (FTS5_MAX_TOKEN_SIZE); a character cut there reads as U+FFFD.
 */
const MAX_TOKEN_BYTES = 32_768;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
function atMostTokenBytes(term: string): string {
  // A UTF-16 code unit is at most three bytes of UTF-8: shorter terms are never cut.
  if (term.length * 3 <= MAX_TOKEN_BYTES) return term;
  const bytes = encoder.encode(term);
  return bytes.length <= MAX_TOKEN_BYTES ? term : decoder.decode(bytes.subarray(0, MAX_TOKEN_BYTES));
}

/** The tokens of a text in their order. */
function inOrder(positions: TermPositions): string[] {
  const ordered: [number, string][] = [];
  for (const [word, at] of positions) for (const position of at) ordered.push([position, word]);
  return ordered.sort((a, b) => a[0] - b[0]).map(([, word]) => word);
}
