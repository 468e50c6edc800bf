import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** SHA-256 in pure JavaScript: synchronous and byte-identical in Node and in a browser worker. */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

export function contentHashOf(text: string): string {
  return `sha256:${sha256Hex(text)}`;
}

/** An incremental digest for long sequences (the record-set digest) without building one giant string. */
export function createDigest(): { update(text: string): void; hex(): string } {
  const hasher = sha256.create();
  return {
    update(text: string) {
      hasher.update(utf8ToBytes(text));
    },
    hex: () => bytesToHex(hasher.digest()),
  };
}
