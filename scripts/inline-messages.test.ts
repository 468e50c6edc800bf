import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Every message is a code and its arguments, worded by the catalogue (src/core/messages*.ts, issues.ts, reasons.ts).
// A sentence written beside it is a string or template literal with words in it (a space: a one-word literal is a tag
// such as `status: 'idle'`) given as a message, reason or fatal line, a usage error, an app notice, status or "opened"
// line, a line on stderr (also behind a condition), a failure value (`err(...)`) or a note pushed for the user.
// Wording from outside the catalogue (zod's, the JSON parser's, a thrown error's) arrives as a value, never a literal,
// so it needs no exception.
const ROOT = join(import.meta.dirname, '..');
const MESSAGE_START = new RegExp(
  [
    String.raw`\b(?:(?:message|reason|fatal|\w*[nN]otice|status|opened)\s*[:=]`,
    String.raw`|(?:usageError|err|notes\.push)\(`,
    String.raw`|\.stderr(?:\.write)?\((?:[^'"\`;]*?\?)?)`,
    String.raw`\s*(['"\`])`,
  ].join(''),
  'g',
);

/** A literal's own text from just after its opening quote: a template's `${…}` parts are code, not its words. */
function literalWords(source: string, from: number, quote: string): string {
  let words = '';
  let depth = 0;
  for (let at = from; at < source.length; at += 1) {
    const char = source[at];
    if (depth > 0) {
      if (char === '{') depth += 1;
      else if (char === '}') depth -= 1;
    } else if (char === '\\') at += 1;
    else if (char === quote) return words;
    else if (quote === '`' && char === '$' && source[at + 1] === '{') {
      depth = 1;
      at += 1;
    } else words += char;
  }
  return words;
}

/** Each literal with words in it given where a message is made, as its lead and its words. */
function inlineMessages(source: string): string[] {
  const found: string[] = [];
  for (const start of source.matchAll(MESSAGE_START)) {
    const words = literalWords(source, start.index + start[0].length, start[1] ?? '');
    if (/\s/.test(words)) found.push(`${start[0].replace(/\s+/g, ' ')}${words}`);
  }
  return found;
}

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
  const inline = files.flatMap((file) =>
    inlineMessages(readFileSync(join(ROOT, file), 'utf8')).map((message) => `${file}: ${message}`),
  );

  it('are worded by the catalogue, not written inline', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(inline).toEqual([]);
  });
});
