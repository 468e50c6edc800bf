import { execFileSync } from 'node:child_process';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';

// A file's name says what it does where it is: two different things under one name (three `drill.ts`) send a reader
// searching by path. The core's own names are its pipeline's words and are held by its layout, so only a file
// outside src/core is checked against every other source file.
const ROOT = join(import.meta.dirname, '..');

describe('source file names', () => {
  it('outside the core, are not shared with another source file', () => {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'src'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file));
    expect(files.length).toBeGreaterThan(100);
    const byName = new Map<string, string[]>();
    for (const file of files) byName.set(basename(file), [...(byName.get(basename(file)) ?? []), file]);
    const shared = [...byName.values()].filter(
      (same) => same.length > 1 && same.some((file) => !file.startsWith('src/core/')),
    );
    expect(shared).toEqual([]);
  });
});
