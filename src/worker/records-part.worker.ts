import '../shared/jitless-zod';
import { answerPartRequest, type PartReply, type PartRequest } from './records-in-parts';

/** The helper that reads the second half of a large records file (src/worker/records-in-parts.ts). */
addEventListener('message', (event: MessageEvent<PartRequest>) => void answerPartRequest(event.data, (message: PartReply) => postMessage(message)));
