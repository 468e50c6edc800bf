import { asSortedSet } from './canonical';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Canonical JSON (`canonical.ts`: strings and numbers as JSON.stringify writes them) written straight into
 * UTF-8 bytes by a caller that lays a value out key by key, in sorted key order. It is for values that are
 * hashed and then dropped: a record's fingerprint form is built for every record a file holds, and as a
 * string it would be a few dozen pieces joined, flattened and encoded again before the hash. What canonical JSON
 * refuses, a lone surrogate, makes `finish` return null; the caller then takes
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
        // A quote, a backslash or a control character: escaped by JSON.stringify itself (`\n`, `\u001f`), all ASCII.
        const escaped = JSON.stringify(value[index]);
        for (let inner = 1; inner < escaped.length - 1; inner += 1) buffer[at++] = escaped.charCodeAt(inner);
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
    const list = asSortedSet(values);
    this.ascii('[');
    for (let index = 0; index < list.length; index += 1) {
      if (index > 0) this.ascii(',');
      this.string(list[index] as string);
    }
    this.ascii(']');
  }

  /**
   * The bytes written since `reset`, or null if a string held a lone surrogate. A view, valid until the next `reset`.
   */
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
