/**
 * Resolves in a task of its own, so the worker answers the calls that arrived meanwhile (comlink messages are
 * tasks) between two slices of work: a message to itself is queued behind the messages already posted to it.
 *
 * Not `setTimeout(resolve, 0)`: HTML clamps a timeout nested five deep or more to at least 4 ms, and a sliced loop
 * nests each timeout in the one before, so every slice would wait for nothing (docs/DECISIONS.md).
 */
export function nextTask(): Promise<void> {
  const channel = (selfChannel ??= openChannel());
  return new Promise<void>((resolve) => {
    channel.waiting.push(resolve);
    channel.send.postMessage(null);
  });
}

/** What a nested `setTimeout(0)` gave these loops before `nextTask`, kept for the background ones. */
const BACKGROUND_PAUSE_MS = 4;

/**
 * For work nobody waits for (storing records, saving the image): a pause of BACKGROUND_PAUSE_MS between two
 * slices, so that what the user does meanwhile is not slowed by it: with the slices back to back (through
 * `nextTask`, or at the Prioritized Task Scheduling API's `background` priority) a toggle and its save of the
 * workspace waited several times as long (docs/DECISIONS.md).
 */
export function backgroundTask(): Promise<void> {
  return new Promise<void>((resolve) => setTimeout(resolve, BACKGROUND_PAUSE_MS));
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
