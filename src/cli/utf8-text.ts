import { isAscii } from 'node:buffer';

/**
 * How many bytes at the end of `bytes` begin a UTF-8 sequence the next chunk completes: 0 when the chunk ends on a
 * character boundary. A lead byte whose sequence runs past the end is the cut; anything else decodes here (an invalid
 * byte becomes U+FFFD, as the string decoder makes it).
 */
function incompleteTail(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back] as number;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? back : 0;
  }
  return 0;
}

/**
 * A file's chunks of bytes as text, decoded as UTF-8. A chunk of ASCII alone is decoded as Latin-1, which gives the
 * same string several times faster than Node's UTF-8 decoder (a records file is mostly ASCII); a character cut between
 * two chunks is decoded with the next.
 */
export async function* utf8Text(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  let carried: Buffer = Buffer.alloc(0);
  for await (const chunk of chunks) {
    // A view of the chunk, not a copy (Buffer.from(chunk) copies a Uint8Array byte by byte).
    const bytes =
      carried.length === 0
        ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
        : Buffer.concat([carried, chunk]);
    if (isAscii(bytes)) {
      carried = Buffer.alloc(0);
      yield bytes.toString('latin1');
      continue;
    }
    const cut = bytes.length - incompleteTail(bytes);
    // Copied: at most three bytes, kept past this chunk, whose memory the reader may use again.
    carried = Buffer.from(bytes.subarray(cut));
    if (cut > 0) yield bytes.toString('utf8', 0, cut);
  }
  if (carried.length > 0) yield carried.toString('utf8');
}
