import { formatPath } from '../errors';
import type { Mismatch } from './check';
import type { LoadedSuite } from './suite';

/** Where a mismatch's expectation is written, `file:line: path`, as every error names a place. */
export function mismatchPlace(loaded: LoadedSuite, mismatch: Mismatch): string {
  const line = loaded.locator.lineOf(mismatch.path);
  return `${line === undefined ? loaded.file : `${loaded.file}:${line}`}: ${formatPath(mismatch.path)}`;
}

/** A mismatch as the CLI and the JUnit report print it: the place and subject, then expected against actual. */
export function mismatchLines(loaded: LoadedSuite, mismatch: Mismatch): string[] {
  return [
    `${mismatchPlace(loaded, mismatch)}: ${mismatch.subject}`,
    `  expected: ${mismatch.expected}`,
    `  actual:   ${mismatch.actual}`,
  ];
}
