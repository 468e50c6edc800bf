import { describe, expect, it } from 'vitest';
import { StringDecoder } from 'node:string_decoder';
import { utf8Text } from './utf8-text';

async function* fromChunks(chunks: readonly Uint8Array[]) {
  yield* chunks;
}

async function decoded(chunks: readonly Uint8Array[]): Promise<string> {
  let text = '';
  for await (const piece of utf8Text(fromChunks(chunks))) text += piece;
  return text;
}

/** What Node's string decoder, which the reading used before, makes of the same chunks. */
function reference(chunks: readonly Uint8Array[]): string {
  const decoder = new StringDecoder('utf8');
  return chunks.map((chunk) => decoder.write(Buffer.from(chunk))).join('') + decoder.end();
}

/** The bytes cut into chunks at every `size` bytes. */
const cutEvery = (bytes: Buffer, size: number) =>
  Array.from({ length: Math.ceil(bytes.length / size) }, (_, index) =>
    bytes.subarray(index * size, (index + 1) * size),
  );

describe('a file read as UTF-8 text a chunk at a time', () => {
  const text = '{"id":"a","title":"Zürich – 東京 🙂 café"}\n{"id":"b","title":"plain"}\n\uFEFF€';
  const bytes = Buffer.from(text, 'utf8');

  it('gives the text whatever byte a chunk ends on, ASCII chunks and characters of two, three and four bytes alike', async () => {
    for (const size of [1, 2, 3, 4, 5, 7, 64, bytes.length]) expect(await decoded(cutEvery(bytes, size))).toBe(text);
  });

  it('replaces invalid bytes as the string decoder does, at the end of a chunk and of the file too', async () => {
    const invalid = [
      Buffer.from([0x41, 0xe2, 0x82]),
      Buffer.from([0x41, 0x42]),
      Buffer.from([0xff, 0x43, 0xf0, 0x9f]),
      Buffer.from([0x98]),
      Buffer.from([0xc3]),
    ];
    for (let end = 1; end <= invalid.length; end += 1) {
      const chunks = invalid.slice(0, end);
      expect(await decoded(chunks)).toBe(reference(chunks));
    }
    for (const size of [1, 2, 3]) {
      const chunks = cutEvery(Buffer.concat(invalid), size);
      expect(await decoded(chunks)).toBe(reference(chunks));
    }
  });

  it('keeps a character cut between chunks when the reader fills the same memory again for the next chunk', async () => {
    // A reader may hand over one buffer again and again, refilled: the cut bytes must not be read back from it.
    async function* oneBufferRefilled(size: number) {
      const memory = Buffer.alloc(size);
      for (let at = 0; at < bytes.length; at += size) {
        const length = bytes.copy(memory, 0, at, at + size);
        yield memory.subarray(0, length);
        memory.fill(0x7a);
      }
    }
    for (const size of [1, 2, 3, 5, 7]) {
      let decodedText = '';
      for await (const piece of utf8Text(oneBufferRefilled(size))) decodedText += piece;
      expect(decodedText).toBe(text);
    }
  });
});
