import type { MessageWords } from '../../core/messages';

/** Longest reason kept: a thrown message can repeat a whole input. */
const MAX_REASON = 300;

/**
 * Why a call to the worker failed, as the catalogue's code and arguments: the message's first line only (comlink
 * copies the worker's stack onto the error; no stack reaches the user), shortened, with the common engine limits
 * named by their own codes.
 */
export function failureWords(error: unknown): MessageWords {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  // Emscripten's advice to rebuild with assertions is for SQLite's developers, not for the user.
  const line = (message.split('\n', 1)[0] ?? '').replace(/\s*Build with -sASSERTIONS for more info\.?/, '').trim();
  if (line === '') return { code: 'NO_REASON_GIVEN', args: {} };
  const reason = line.length > MAX_REASON ? `${line.slice(0, MAX_REASON)}…` : line;
  if (/maximum call stack/i.test(reason)) return { code: 'RAN_OUT_OF_STACK', args: { reason } };
  if (/out of memory|allocation failed/i.test(reason)) return { code: 'RAN_OUT_OF_MEMORY', args: { reason } };
  if (/\.wasm\b/i.test(reason) && /fail|abort|network|fetch/i.test(reason))
    return { code: 'SQLITE_NOT_LOADED', args: { reason } };
  return { code: 'CALL_FAILED', args: { reason } };
}
