import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');
const READER = 'core/as-of.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Calls that read an instant out of a string, whose argument names an `asOf`. */
function asOfReadings(text: string): string[] {
  return [...text.matchAll(/\b(?:parseInstant|Date\.parse|new Date)\(([^()]*)\)/g)]
    .filter((match) => /\basOf\b/.test(match[1] ?? ''))
    .map((match) => match[0]);
}

describe('the contract as-of in the source', () => {
  it('is read from its text in one module only', () => {
    const readings = sourceFiles(SRC).flatMap((path) => {
      const name = relative(SRC, path).split('\\').join('/');
      return name === READER ? [] : asOfReadings(readFileSync(path, 'utf8')).map((call) => `${name}: ${call}`);
    });
    expect(readings).toEqual([]);
    expect(asOfReadings(readFileSync(join(SRC, READER), 'utf8'))).toEqual(['parseInstant(contract.asOf)']);
  });

  it('is turned into an instant once in the pipeline, by resolve, and passed on to the phases after it', () => {
    const PHASES = join(SRC, 'core', 'phases');
    const readers = sourceFiles(PHASES)
      .filter((path) => /\basOfInstant\(/.test(readFileSync(path, 'utf8')))
      .map((path) => relative(SRC, path).split('\\').join('/'));
    expect(readers).toEqual(['core/phases/2-resolve/resolve.ts']);
  });
});
