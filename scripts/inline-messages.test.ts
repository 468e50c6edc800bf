import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Every message is a code and its arguments, worded by the catalogue (src/core/messages.ts, issues.ts, reasons.ts):
// a message, reason or fatal line, or a usage error, given as a string or template literal with words in it (a space: a
// one-word literal is a tag such as `reason: 'failed'`) anywhere else is a sentence written beside the catalogue.
// Wording from outside it (zod's, the JSON parser's, a thrown error's) arrives as a value, never a literal, so it
// needs no exception.
const ROOT = join(import.meta.dirname, '..');
const INLINE_MESSAGE = /\b(?:(?:message|reason|fatal)\s*[:=]|usageError\()\s*(['"`])(?:(?!\1).)*\s/;

function sourceFiles(): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'src'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file));
}

describe('messages', () => {
  const files = sourceFiles();
  const inline = files.filter((file) => INLINE_MESSAGE.test(readFileSync(join(ROOT, file), 'utf8')));

  it('are worded by the catalogue, not written inline', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(inline).toEqual([]);
  });
});
