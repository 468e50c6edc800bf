import '../shared/jitless-zod';
import type { RecordsPart } from '../core/passes/validate';
import { readPart } from './records-in-parts';

/** The helper that reads the second half of a large records file (src/worker/records-in-parts.ts). */

export interface PartRequest {
  readonly blob: Blob;
  readonly name: string;
}

export type PartReply = { readonly kind: 'progress'; readonly done: number } | { readonly kind: 'part'; readonly part: RecordsPart } | { readonly kind: 'refused' };

const reply = (message: PartReply) => postMessage(message);
// Never cancelled from inside: the compiler worker stops a helper by terminating it.
const running = new AbortController().signal;

addEventListener('message', (event: MessageEvent<PartRequest>) => {
  const { blob, name } = event.data;
  void readPart(blob, name, (done) => reply({ kind: 'progress', done }), running).then((part) => reply(part.ok ? { kind: 'part', part: part.value } : { kind: 'refused' }));
});
