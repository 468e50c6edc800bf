import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const CORE = join(ROOT, 'src', 'core');

/** Module-level state: a variable, or a scratch buffer reused from one call to the next. */
function moduleStateIn(text: string): string[] {
  return text
    .split('\n')
    .filter(
      (line) =>
        /^(export )?(let|var) /.test(line) ||
        /^(export )?const \w+(: [^=]+)? = new (Uint8Array|Int32Array|Float64Array|ArrayBuffer|CanonicalBytes)\b/.test(
          line,
        ),
    );
}

describe('a core without module-level state', () => {
  it('finds what it looks for', () => {
    expect(
      moduleStateIn('let chunkBuffer = new Uint8Array(1 << 16);\nconst form = new CanonicalBytes();'),
    ).toHaveLength(2);
    expect(moduleStateIn('const encoder = new TextEncoder();\n  let local = 0;')).toEqual([]);
  });

  it('keeps no variable or scratch buffer between calls outside its tests', () => {
    const found = readdirSync(CORE, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name))
      .map((entry) => join(entry.parentPath, entry.name))
      .map((path) => relative(ROOT, path).split('\\').join('/'))
      .filter((path) => !path.startsWith('src/core/test-support/'))
      .flatMap((path) => moduleStateIn(readFileSync(join(ROOT, path), 'utf8')).map((line) => `${path}: ${line}`));
    expect(found).toEqual([]);
  });
});
