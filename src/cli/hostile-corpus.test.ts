import { describe, expect, it } from 'vitest';
import { HOSTILE_DIR, readManifest, type HostileCase } from '../../scripts/hostile-corpus/manifest';
import { main } from './main';

/**
 * Every file of fixtures/hostile/ through the CLI's code path: the expected exit, code and location, never a stack
 * trace or a raw control character.
 */
const manifest = readManifest();
const STACK_FRAME = /^\s+at .+[:(]/m;
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function argsFor(entry: HostileCase): string[] {
  const controls = entry.controls.flatMap((id) => ['--control', id]);
  switch (entry.kind) {
    case 'records':
      return ['compile', '--records', entry.file, '--contract', manifest.base.contract];
    case 'contract':
      return ['compile', '--records', manifest.base.records, '--contract', entry.file];
    case 'scenario':
      return ['compile', '--scenario', entry.file, ...controls];
    case 'receipt':
      return ['drill', '--scenario', manifest.base.scenario, '--receipt', entry.file];
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The place an issue line names, `file:line: path: `; any line (or none) when the manifest gives none. */
function issuePattern(at: NonNullable<HostileCase['expect']['at']>): RegExp {
  return new RegExp(
    `(^|\\s)${escapeRegExp(at.file)}${at.line === undefined ? '(:\\d+)?' : `:${at.line}`}: ${escapeRegExp(at.path)}: `,
    'm',
  );
}

async function check(entry: HostileCase) {
  let stdout = '';
  let stderr = '';
  const code = await main(argsFor(entry), {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    cwd: HOSTILE_DIR,
  });
  const output = stdout + stderr;
  expect(output, 'a stack trace').not.toMatch(STACK_FRAME);
  expect(output, 'a raw control character').not.toMatch(RAW_CONTROL);
  const { expect: wanted } = entry;
  expect({ exit: code, stderr: stderr.slice(0, 2_000) }).toMatchObject({ exit: wanted.exit });
  if (wanted.code !== null) expect(output).toContain(wanted.code);
  else expect(stdout).toMatch(/^PACKET EMITTED/);
  if (wanted.at) expect(stderr).toMatch(issuePattern(wanted.at));
  if (wanted.message) expect(output).toContain(wanted.message);
}

describe(`hostile corpus through the CLI (${manifest.cases.length} files)`, () => {
  for (const entry of manifest.cases) {
    const test = entry.knownBug === undefined ? it : it.fails;
    test(`${entry.file}: ${entry.about}`, () => check(entry), 60_000);
  }
});
