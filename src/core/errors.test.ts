import { describe, expect, it } from 'vitest';
import { compileError, formatIssue } from './errors';
import { inputIssue } from './issues';
import { wordMessage, wordsText } from './messages';

describe('compileError', () => {
  it("carries the catalogue's code and arguments, and its message is their wording", () => {
    const error = compileError({ pass: 'admit', code: 'LOWERING_UNSUPPORTED' }, 'LOWERING_TOO_MANY_VALUES', {
      needed: 40_000,
      allowed: 32_766,
    });
    expect(error.words).toEqual({ code: 'LOWERING_TOO_MANY_VALUES', args: { needed: 40_000, allowed: 32_766 } });
    expect(error.message).toBe(wordMessage('LOWERING_TOO_MANY_VALUES', { needed: 40_000, allowed: 32_766 }));
    expect(error.message).toBe(
      'The contract needs 40000 bound values; this SQLite build allows 32766. Refusing rather than dropping a gate.',
    );
  });

  it('gives a message that takes no arguments empty arguments, and its words survive JSON', () => {
    const error = compileError({ pass: 'validate', code: 'INVALID_INPUT' }, 'RECORDS_WITH_CONTRACT');
    expect(error.words).toEqual({ code: 'RECORDS_WITH_CONTRACT', args: {} });
    const copied = JSON.parse(JSON.stringify(error)) as typeof error;
    expect(copied.words && wordsText(copied.words)).toBe(error.message);
  });

  it('rewords an error as a whole: a new message never keeps the old words', () => {
    const first = compileError({ pass: 'admit', code: 'ADAPTER_INCOMPLETE' }, 'DATABASE_FAILED', {
      database: 'db',
      reason: 'gone',
    });
    const again = compileError({ ...first }, 'LOAD_ROLLED_BACK', { problem: first.message });
    expect(again.words).toEqual({ code: 'LOAD_ROLLED_BACK', args: { problem: first.message } });
    expect(again.message).toBe('the database db failed: gone; the load was rolled back, nothing was written');
    expect(again).toMatchObject({ pass: 'admit', code: 'ADAPTER_INCOMPLETE' });
  });
});

describe('formatIssue', () => {
  it('words an issue with its place, field and problem', () => {
    const issue = inputIssue({ file: 'my.jsonl', line: 3, path: 'id' }, 'NUL_IN_TEXT');
    expect(formatIssue(issue)).toBe(`my.jsonl:3: id: ${issue.message}`);
  });
});
