import { describe, expect, it } from 'vitest';
import { wordsText } from '../../core/messages';
import { failureWords } from './failure';

describe('failureWords', () => {
  it('keeps the first line of the message and never a stack', () => {
    const error = Object.assign(new Error('database disk image is malformed\n    at step (sqlite3.mjs:1:2)'), {
      stack: 'Error: x\n    at compile (compile.ts:10:3)',
    });
    expect(failureWords(error)).toEqual({ code: 'CALL_FAILED', args: { reason: 'database disk image is malformed' } });
    expect(wordsText(failureWords(error))).toBe('Database disk image is malformed.');
  });

  it('names a stack overflow and an out-of-memory error by their own codes', () => {
    const overflow = Object.assign(new Error('Maximum call stack size exceeded'), { name: 'RangeError' });
    expect(failureWords(overflow)).toEqual({
      code: 'RAN_OUT_OF_STACK',
      args: { reason: 'Maximum call stack size exceeded' },
    });
    expect(wordsText(failureWords(overflow))).toBe(
      'It ran out of stack space (Maximum call stack size exceeded), which usually means an input list is longer than it can handle.',
    );
    expect(wordsText(failureWords(new Error('Array buffer allocation failed')))).toBe(
      'It ran out of memory (Array buffer allocation failed).',
    );
  });

  it('says when SQLite could not be loaded, without the build advice meant for its developers', () => {
    const abort = new Error(
      "Aborted(NetworkError: Failed to execute 'send' on 'XMLHttpRequest': Failed to load 'http://localhost/assets/sqlite3-k2cTanUO.wasm'.). Build with -sASSERTIONS for more info.",
    );
    expect(failureWords(abort).code).toBe('SQLITE_NOT_LOADED');
    expect(wordsText(failureWords(abort))).toBe(
      "SQLite's WebAssembly file could not be loaded (Aborted(NetworkError: Failed to execute 'send' on 'XMLHttpRequest': Failed to load 'http://localhost/assets/sqlite3-k2cTanUO.wasm'.)). Check the connection, or reload once the app has been visited online.",
    );
  });

  it('shortens a message that repeats a long input, and names a missing reason', () => {
    const reason = wordsText(failureWords(new Error(`bad scope ${'x'.repeat(5_000)}`)));
    expect(reason.length).toBeLessThanOrEqual(302);
    expect(reason.endsWith('…')).toBe(true);
    expect(failureWords(undefined)).toEqual({ code: 'NO_REASON_GIVEN', args: {} });
    expect(wordsText(failureWords('worker gone'))).toBe('Worker gone.');
  });
});
