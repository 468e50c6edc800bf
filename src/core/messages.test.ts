import { describe, expect, it } from 'vitest';
import { APP_MESSAGES } from './messages-app';
import { CLI_MESSAGES } from './messages-cli';
import { COMPILE_MESSAGES } from './messages-compile';
import { INPUT_MESSAGES } from './messages-inputs';
import { MESSAGES, wordMessage, wordsText } from './messages';

describe('the message catalogue', () => {
  it('words every code in exactly one of its files', () => {
    const parts = [INPUT_MESSAGES, COMPILE_MESSAGES, CLI_MESSAGES, APP_MESSAGES];
    const codes = parts.flatMap((part) => Object.keys(part));
    // A code written in two files would be worded by whichever the spread reads last.
    expect(new Set(codes).size).toBe(codes.length);
    expect(Object.keys(MESSAGES).sort()).toEqual([...codes].sort());
  });

  it('words a code from any of its files through the one lookup', () => {
    expect(wordMessage('FILE_PROBLEM', { file: 'records.jsonl', problem: 'line 3: bad' })).toBe(
      'records.jsonl: line 3: bad',
    );
    expect(wordMessage('SERVING', { url: 'http://127.0.0.1:8080', app: true })).toBe(
      'serving the app and the API at http://127.0.0.1:8080  (Ctrl+C stops)',
    );
    expect(wordMessage('REQUIRED_OVER_BUDGET_STOP', { tokens: 900, budget: 800 })).toBe(
      'The required records need 900 tokens but the budget is 800: no packet is emitted.',
    );
    expect(wordsText({ code: 'COMPILER_FAILED_WHILE', args: { during: 'COMPILING' } })).toBe(
      'NOT COMPILED — the compiler failed while compiling',
    );
  });

  it("words why the compiler's worker or a part helper ended as the page showed it", () => {
    expect(wordMessage('WORKER_ERROR', { problem: 'Uncaught Error: injected fault' })).toBe(
      'it hit an unexpected error (Uncaught Error: injected fault)',
    );
    expect(wordMessage('WORKER_SCRIPT_NOT_LOADED')).toBe('its script could not be loaded');
    expect(wordMessage('WORKER_MESSAGE_UNREADABLE')).toBe('one of its messages could not be read');
    expect(wordMessage('WORKER_DID_NOT_START', { seconds: 30 })).toBe('it did not start within 30 seconds');
    expect(wordMessage('WORKER_ENDED')).toBe('it was ended by the browser or crashed');
    expect(wordMessage('WORKER_RESTARTED')).toBe('it was restarted');
    expect(wordMessage('PART_HELPER_NOT_STARTED')).toBe('the helper could not start');
    expect(wordMessage('PART_HELPER_MESSAGE_UNREADABLE')).toBe('a message from the helper could not be read');
  });
});
