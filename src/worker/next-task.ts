/**
 * Resolves in a task of its own, so the worker answers the calls that arrived meanwhile (comlink messages are
 * tasks) between two slices of work: a message to itself is queued behind the messages already posted to it.
 *
 * Not `setTimeout(resolve, 0)`: HTML clamps a timeout nested five deep or more to at least 4 ms, and a sliced loop
 * nests each timeout in the one before. In a Chromium worker 200 nested `setTimeout(0)` took 806–820 ms and 200
 * messages through a MessageChannel 2–3 ms, so 100 slices of indexing waited 0.4 s for nothing.
 */
export function nextTask(): Promise<void> {
  const channel = (selfChannel ??= openChannel());
  return new Promise<void>((resolve) => {
    channel.waiting.push(resolve);
    channel.send.postMessage(null);
  });
}

interface SelfChannel {
  readonly send: MessagePort;
  readonly waiting: (() => void)[];
}

let selfChannel: SelfChannel | null = null;

function openChannel(): SelfChannel {
  const { port1, port2 } = new MessageChannel();
  const waiting: (() => void)[] = [];
  // One message per waiter, delivered in the order they were posted.
  port1.onmessage = () => waiting.shift()?.();
  // In Node (the tests) an open port would keep the process alive after the last test.
  for (const port of [port1, port2]) (port as MessagePort & { unref?: () => void }).unref?.();
  return { send: port2, waiting };
}
