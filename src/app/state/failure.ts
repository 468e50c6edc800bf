/** Longest reason shown: a thrown message can repeat a whole input. */
const MAX_REASON = 300;

/**
 * The reason a call to the worker failed, in plain words: the message's first line only (comlink
 * copies the worker's stack onto the error; no stack reaches the user), shortened, with the common
 * engine limits explained.
 */
export function describeFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const line = message.split('\n', 1)[0]?.trim() ?? '';
  const short = line === '' ? 'no reason was given' : line.length > MAX_REASON ? `${line.slice(0, MAX_REASON)}…` : line;
  if (/maximum call stack/i.test(short)) return `It ran out of stack space (${short}), which usually means an input list is longer than it can handle.`;
  if (/out of memory|allocation failed/i.test(short)) return `It ran out of memory (${short}).`;
  return `${short.charAt(0).toUpperCase()}${short.slice(1)}${/[.!?…]$/.test(short) ? '' : '.'}`;
}
