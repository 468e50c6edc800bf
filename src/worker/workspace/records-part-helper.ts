import { wordMessage } from '../../core/messages';
import { workerBootstrapUrl } from '../../shared/worker-bootstrap';
import {
  partFromJson,
  type PartHelper,
  type PartReply,
  type PartRequest,
  type StartPartHelper,
} from './records-in-parts';
import partWorkerUrl from './records-part.worker.ts?worker&url';

/**
 * A helper worker of its own for one records file, started at once (its script loads while this worker
 * reads) and ended with the file, so its heap, which held the text of its pieces, is freed at once. It reads
 * one piece at a time. Once it fails or is ended, every read rejects; the caller then reads the pieces itself.
 */
export const startPartHelper: StartPartHelper = (name) => {
  const start = performance.now();
  const bootstrap = workerBootstrapUrl(new URL(partWorkerUrl, import.meta.url).href);
  const worker = new Worker(bootstrap, { type: 'module', name: 'records-part' });
  let stopped: string | null = null;
  let piecesRead = 0;
  let waiting: {
    resolve: (part: PartReply & { kind: 'part' | 'refused' }) => void;
    reject: (reason: Error) => void;
    onBytes: (done: number) => void;
  } | null = null;

  const stop = (reason: string) => {
    if (stopped !== null) return;
    stopped = reason;
    URL.revokeObjectURL(bootstrap);
    worker.terminate();
    // A worker-side marker: the browser tests assert that a large file was read partly here.
    if (piecesRead > 0) performance.measure('cc:read-in-helper', { start, end: performance.now() });
    waiting?.reject(new Error(reason));
    waiting = null;
  };
  worker.addEventListener('message', ({ data }: MessageEvent<PartReply>) => {
    if (waiting === null) return;
    if (data.kind === 'progress') waiting.onBytes(data.done);
    else if (data.kind === 'failed') stop(data.reason);
    else {
      piecesRead += 1;
      waiting.resolve(data);
      waiting = null;
    }
  });
  worker.addEventListener('error', (event) => {
    // Handled: the pieces are read again in the compiler worker, so this is not an uncaught error.
    event.preventDefault();
    stop(event.message || wordMessage('PART_HELPER_NOT_STARTED'));
  });
  worker.addEventListener('messageerror', () => stop(wordMessage('PART_HELPER_MESSAGE_UNREADABLE')));

  const helper: PartHelper = {
    read: (part, onBytes) =>
      new Promise((resolve, reject) => {
        if (stopped !== null) {
          reject(new Error(stopped));
          return;
        }
        waiting = {
          resolve: (reply) => resolve(reply.kind === 'part' ? partFromJson(reply.partJson) : null),
          reject,
          onBytes,
        };
        worker.postMessage({ blob: part, name } satisfies PartRequest);
      }),
    end: () => stop('ended'),
  };
  return helper;
};
