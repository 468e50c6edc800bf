import type { ImageFiles } from '../workspace/database-image';

/**
 * Image files in a Map, for tests in Node where there is no OPFS: like the pool, a file gets its name only once every
 * chunk is written.
 */
export function memoryImageFiles(): ImageFiles & { readonly put: (name: string, bytes: Uint8Array) => void } {
  const files = new Map<string, Uint8Array>();
  return {
    names: () => [...files.keys()],
    read(name) {
      const bytes = files.get(name);
      if (bytes === undefined) throw new Error(`no file ${name}`);
      return bytes;
    },
    async write(name, nextChunk) {
      const chunks: Uint8Array[] = [];
      for (let chunk = await nextChunk(); chunk !== undefined; chunk = await nextChunk()) chunks.push(chunk.slice());
      const whole = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
      let offset = 0;
      for (const chunk of chunks) {
        whole.set(chunk, offset);
        offset += chunk.byteLength;
      }
      files.set(name, whole);
    },
    unlink(name) {
      files.delete(name);
    },
    put(name, bytes) {
      files.set(name, bytes);
    },
  };
}
