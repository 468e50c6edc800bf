import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const PASSES = join(ROOT, 'src', 'core', 'phases');
/** The one module that applies the memo (src/core/memo.ts) to the passes. */
const MEMO_OWNER = 'src/core/queries.ts';

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * What in a pass's source shows that it knows about caching: an import of the memo, or a `derive`, memo or
 * previous-result parameter.
 */
function cachingIn(text: string): string[] {
  const found: string[] = [];
  if (/from\s+['"][./]*(?:core\/)?memo(?:-\w+)?['"]/.test(text)) found.push('imports the memo');
  if (/\bDerive\b|\bcomputeAll\b/.test(text)) found.push('names the memo’s types');
  if (/[(,]\s*(?:derive|memo|last|previous|carried)\s*[?]?\s*:/.test(text))
    found.push('takes a memo or a previous result');
  return found;
}

/** Whether a module applies the memo: it creates one, or imports `createMemo`. */
const appliesMemo = (text: string) => /\bcreateMemo\b/.test(text);

describe('passes that know nothing of caching', () => {
  it('finds what it looks for', () => {
    expect(cachingIn("import { type Derive } from '../memo';")).toEqual(['imports the memo', 'names the memo’s types']);
    expect(cachingIn("import type { Key } from '../memo-keys';")).toEqual(['imports the memo']);
    expect(cachingIn('export function admit(resolution: Resolution, derive: Derive = computeAll) {}')).toHaveLength(2);
    expect(cachingIn('export function plan(resolution: Resolution, last?: Plan) {}')).toEqual([
      'takes a memo or a previous result',
    ]);
    expect(cachingIn('export function plan(resolution: Resolution, ranking: Ranking) {}')).toEqual([]);
  });

  it('no pass imports the memo or takes a memo, a derive or a previous result', () => {
    const offenders = sourceFiles(PASSES).flatMap((path) =>
      cachingIn(readFileSync(path, 'utf8')).map((what) => `${relative(ROOT, path)} ${what}`),
    );
    expect(offenders).toEqual([]);
  });

  it(`the memo is applied in one module: ${MEMO_OWNER}`, () => {
    const appliers = sourceFiles(join(ROOT, 'src'))
      .filter((path) => !path.endsWith(join('core', 'memo.ts')) && appliesMemo(readFileSync(path, 'utf8')))
      .map((path) => relative(ROOT, path).split('\\').join('/'));
    expect(appliers).toEqual([MEMO_OWNER]);
  });
});
