import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** SHA-256 in pure JavaScript: synchronous and byte-identical in Node and in a browser worker. */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

export function contentHashOf(text: string): string {
  return `sha256:${sha256Hex(text)}`;
}

/** Bytes buffered before they are hashed; one code unit never needs more than 3 of them. */
const BUFFER_BYTES = 1 << 16;

/**
 * An incremental digest for long sequences (the record-set digest, the receipt trace) without building
 * one giant string. Text is UTF-8 encoded into one reused buffer, the way TextEncoder encodes it (a lone
 * surrogate becomes U+FFFD), instead of allocating a byte array per update.
 */
export function createDigest(): { update(text: string): void; hex(): string } {
  const hasher = sha256.create();
  const buffer = new Uint8Array(BUFFER_BYTES);
  let used = 0;
  return {
    update(text: string) {
      const length = text.length;
      for (let index = 0; index < length; index += 1) {
        if (used > BUFFER_BYTES - 4) {
          hasher.update(buffer.subarray(0, used));
          used = 0;
        }
        let code = text.charCodeAt(index);
        if (code < 0x80) {
          buffer[used++] = code;
          continue;
        }
        if (code < 0x800) {
          buffer[used++] = 0xc0 | (code >> 6);
          buffer[used++] = 0x80 | (code & 0x3f);
          continue;
        }
        if (code >= 0xd800 && code <= 0xdfff) {
          const next = index + 1 < length ? text.charCodeAt(index + 1) : 0;
          if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
            index += 1;
            code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
            buffer[used++] = 0xf0 | (code >> 18);
            buffer[used++] = 0x80 | ((code >> 12) & 0x3f);
            buffer[used++] = 0x80 | ((code >> 6) & 0x3f);
            buffer[used++] = 0x80 | (code & 0x3f);
            continue;
          }
          code = 0xfffd;
        }
        buffer[used++] = 0xe0 | (code >> 12);
        buffer[used++] = 0x80 | ((code >> 6) & 0x3f);
        buffer[used++] = 0x80 | (code & 0x3f);
      }
    },
    hex: () => {
      hasher.update(buffer.subarray(0, used));
      used = 0;
      return bytesToHex(hasher.digest());
    },
  };
}
