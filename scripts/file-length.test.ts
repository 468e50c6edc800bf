import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// A file a reviewer cannot hold in mind is split by what it does; measured on the formatted source, so a line
// cannot be widened to stay under the limit.
const ROOT = join(import.meta.dirname, '..');
const LIMIT = 450;

describe('source files', () => {
  it(`stay within ${LIMIT} lines`, () => {
    const files = execFileSync('git', ['ls-files', '*.ts', '*.tsx', '*.mjs', '*.js'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    expect(files.length).toBeGreaterThan(100);
    const over = files
      .map((file) => ({ file, lines: readFileSync(join(ROOT, file), 'utf8').trimEnd().split('\n').length }))
      .filter(({ lines }) => lines > LIMIT);
    expect(over).toEqual([]);
  });
});
