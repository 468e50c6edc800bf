import { sortedSet } from './canonical';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const HEX_DIGITS = [...'0123456789abcdef'].map((digit) => digit.charCodeAt(0));
/** The short escapes JSON.stringify writes for these control characters; the others are written `\u00XX`. */
const SHORT_ESCAPES = new Map([
  [0x08, 'b'],
  [0x09, 't'],
  [0x0a, 'n'],
  [0x0c, 'f'],
  [0x0d, 'r'],
]);

/**
 * Canonical JSON (`canonical.ts`: strings and numbers as JSON.stringify writes them) written straight into
 * UTF-8 bytes by a caller that lays a value out key by key, in sorted key order. It is for values that are
 * hashed and then dropped: a record's fingerprint form is built for every record a file holds, and as a
 * string it was a few dozen pieces joined, flattened and encoded again before the hash (PERFORMANCE.md,
 * run 17). What canonical JSON refuses, a lone surrogate, makes `finish` return null; the caller then takes
 * the generic path, which says why.
 */
export class CanonicalBytes {
  private buffer = new Uint8Array(1024);
  private length = 0;
  private refused = false;

  /** Starts a new value; the view `finish` returned before is overwritten. */
  reset(): void {
    this.length = 0;
    this.refused = false;
  }

  /** Writes ASCII text as it is: punctuation and key names the caller spells out. */
  ascii(text: string): void {
    this.reserve(text.length);
    const { buffer } = this;
    let at = this.length;
    for (let index = 0; index < text.length; index += 1) buffer[at++] = text.charCodeAt(index);
    this.length = at;
  }

  /** Writes `JSON.stringify(value)` as UTF-8. */
  string(value: string): void {
    // Six bytes is the longest any UTF-16 unit becomes (`\u001f`); a pair's four bytes are two units' room.
    this.reserve(value.length * 6 + 2);
    const { buffer } = this;
    let at = this.length;
    buffer[at++] = QUOTE;
    for (let index = 0; index < value.length; index += 1) {
      const unit = value.charCodeAt(index);
      if (unit < 0x80) {
        if (unit >= 0x20 && unit !== QUOTE && unit !== BACKSLASH) {
          buffer[at++] = unit;
          continue;
        }
        buffer[at++] = BACKSLASH;
        const short = SHORT_ESCAPES.get(unit);
        if (unit === QUOTE || unit === BACKSLASH) buffer[at++] = unit;
        else if (short !== undefined) buffer[at++] = short.charCodeAt(0);
        else {
          buffer.set([0x75, 0x30, 0x30, HEX_DIGITS[unit >> 4]!, HEX_DIGITS[unit & 0xf]!], at);
          at += 5;
        }
      } else if (unit < 0x800) {
        buffer[at++] = 0xc0 | (unit >> 6);
        buffer[at++] = 0x80 | (unit & 0x3f);
      } else if (unit < 0xd800 || unit > 0xdfff) {
        buffer[at++] = 0xe0 | (unit >> 12);
        buffer[at++] = 0x80 | ((unit >> 6) & 0x3f);
        buffer[at++] = 0x80 | (unit & 0x3f);
      } else {
        const low = value.charCodeAt(index + 1);
        if (unit > 0xdbff || !(low >= 0xdc00 && low <= 0xdfff)) {
          this.refused = true;
          return;
        }
        const point = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
        index += 1;
        buffer[at++] = 0xf0 | (point >> 18);
        buffer[at++] = 0x80 | ((point >> 12) & 0x3f);
        buffer[at++] = 0x80 | ((point >> 6) & 0x3f);
        buffer[at++] = 0x80 | (point & 0x3f);
      }
    }
    buffer[at++] = QUOTE;
    this.length = at;
  }

  /** `null`, or the string as `string` writes it. */
  stringOrNull(value: string | null): void {
    if (value === null) this.ascii('null');
    else this.string(value);
  }

  /** `JSON.stringify(value)` of a finite number or null: the caller has checked that it is finite. */
  numberOrNull(value: number | null): void {
    this.ascii(value === null ? 'null' : String(value));
  }

  /** `JSON.stringify(sortedSet(values))`; a list that is sorted already is written without a copy. */
  sortedSet(values: readonly string[]): void {
    let list = values;
    for (let index = 1; index < values.length; index += 1) {
      if (!((values[index - 1] as string) < (values[index] as string))) {
        list = sortedSet(values);
        break;
      }
    }
    this.ascii('[');
    for (let index = 0; index < list.length; index += 1) {
      if (index > 0) this.ascii(',');
      this.string(list[index] as string);
    }
    this.ascii(']');
  }

  /** The bytes written since `reset`, or null if a string held a lone surrogate. A view, valid until the next `reset`. */
  finish(): Uint8Array | null {
    return this.refused ? null : this.buffer.subarray(0, this.length);
  }

  private reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + bytes));
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
  }
}
