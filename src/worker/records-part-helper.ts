import { workerBootstrapUrl } from '../shared/worker-bootstrap';
import type { PartReader, PartReply, PartRequest } from './records-in-parts';
import partWorkerUrl from './records-part.worker.ts?worker&url';

/**
 * Reads one part of a records file in a helper worker of its own, started for this part and ended with it (so
 * the helper's heap, which held the part's text, is freed at once). Rejects when the helper cannot start, fails
 * or is stopped; the caller then reads the part itself.
 */
export const readPartInHelper: PartReader = (part, name, onBytes, signal) =>
  new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new Error('stopped'));
      return;
    }
    const start = performance.now();
    const bootstrap = workerBootstrapUrl(new URL(partWorkerUrl, import.meta.url).href);
    const worker = new Worker(bootstrap, { type: 'module', name: 'records-part' });
    const end = () => {
      signal.removeEventListener('abort', stopped);
      URL.revokeObjectURL(bootstrap);
      worker.terminate();
    };
    const fail = (reason: string) => {
      end();
      reject(new Error(reason));
    };
    const stopped = () => fail('stopped');
    signal.addEventListener('abort', stopped);
    worker.addEventListener('message', ({ data }: MessageEvent<PartReply>) => {
      if (data.kind === 'progress') {
        onBytes(data.done);
        return;
      }
      if (data.kind === 'failed') {
        fail(data.reason);
        return;
      }
      end();
      // A worker-side marker: the browser tests assert that a large file's second half was read here.
      performance.measure('cc:read-in-helper', { start, end: performance.now() });
      resolve(data.kind === 'part' ? data.part : null);
    });
    worker.addEventListener('error', (event) => {
      // Handled: the part is read again in the compiler worker, so this is not an uncaught error.
      event.preventDefault();
      fail(event.message || 'the helper could not start');
    });
    worker.addEventListener('messageerror', () => fail('a message from the helper could not be read'));
    worker.postMessage({ blob: part, name } satisfies PartRequest);
  });
