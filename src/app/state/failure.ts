/** Longest reason shown: a thrown message can repeat a whole input. */
const MAX_REASON = 300;

/**
 * The reason a call to the worker failed, in plain words: the message's first line only (comlink
 * copies the worker's stack onto the error; no stack reaches the user), shortened, with the common
 * engine limits explained.
 */
export function describeFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  // Emscripten's advice to rebuild with assertions is for SQLite's developers, not for the user.
  const line = (message.split('\n', 1)[0] ?? '').replace(/\s*Build with -sASSERTIONS for more info\.?/, '').trim();
  const short = line === '' ? 'no reason was given' : line.length > MAX_REASON ? `${line.slice(0, MAX_REASON)}…` : line;
  if (/maximum call stack/i.test(short))
    return `It ran out of stack space (${short}), which usually means an input list is longer than it can handle.`;
  if (/out of memory|allocation failed/i.test(short)) return `It ran out of memory (${short}).`;
  if (/\.wasm\b/i.test(short) && /fail|abort|network|fetch/i.test(short))
    return `SQLite's WebAssembly file could not be loaded (${short.replace(/\.$/, '')}). Check the connection, or reload once the app has been visited online.`;
  return `${short.charAt(0).toUpperCase()}${short.slice(1)}${/[.!?…]$/.test(short) ? '' : '.'}`;
}
