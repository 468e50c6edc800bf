import '../../shared/jitless-zod';
import { hashInWasm } from '../../lib/hash-wasm';
import { answerPartRequest, type PartReply, type PartRequest } from './records-in-parts';

/**
 * The helper that reads pieces from the back of a large records file (src/worker/workspace/records-in-parts.ts), once
 * its SHA-256 has started.
 */
const hashing = hashInWasm();
addEventListener(
  'message',
  (event: MessageEvent<PartRequest>) =>
    void hashing.then(() => answerPartRequest(event.data, (message: PartReply) => postMessage(message))),
);
