import '../../shared/jitless-zod';
import { loadSha256InWasm } from '../../lib/hash-wasm';
import { answerPartRequest, type PartReply, type PartRequest } from './records-in-parts';

/**
 * The helper that reads pieces from the back of a large records file (src/worker/workspace/records-in-parts.ts), once
 * its SHA-256 has started.
 */
const starting = loadSha256InWasm();
addEventListener(
  'message',
  (event: MessageEvent<PartRequest>) =>
    void starting.then((sha256) => answerPartRequest(sha256, event.data, (message: PartReply) => postMessage(message))),
);
