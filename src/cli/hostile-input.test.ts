import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildContract, buildRecord } from '../core/test-support/builders';
import { EXIT } from './command';
import { main } from './main';
import { describeFileSystemError } from './read-file';
import { table } from './render';
import { escapeForTerminal } from './terminal';

/** The CLI on unlucky and hostile input: clear errors, never a stack trace, no raw control character printed. */
const STACK_FRAME = /^\s+at .+[:(]/m;
// Any control character but the newline that lays output out.
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function folder(files: Record<string, string | Uint8Array> = {}): string {
  const cwd = mkdtempSync(join(tmpdir(), 'cc-hostile-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(cwd, name), content);
  return cwd;
}

async function run(cwd: string, ...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), cwd });
  expect(stdout + stderr, 'a stack trace was printed').not.toMatch(STACK_FRAME);
  expect(stdout + stderr, 'a raw control character was printed').not.toMatch(RAW_CONTROL);
  return { code, stdout, stderr };
}

const jsonl = (...records: object[]) => `${records.map((record) => JSON.stringify(record)).join('\n')}\n`;
const contractText = JSON.stringify(buildContract({ requiredRecords: [] }));

describe('file-system errors', () => {
  it.each([
    ['--records', ['compile', '--records', 'dir', '--contract', 'c.json']],
    ['--contract', ['compile', '--records', 'r.jsonl', '--contract', 'dir']],
    ['--scenario', ['compile', '--scenario', 'dir']],
    ['--receipt', ['drill', '--receipt', 'dir']],
  ])('a directory given as %s is named as a directory', async (_flag, args) => {
    const cwd = folder({ 'r.jsonl': jsonl(buildRecord({ id: 'a' })), 'c.json': contractText });
    mkdirSync(join(cwd, 'dir'));
    const result = await run(cwd, ...args);
    expect(result.code).toBe(EXIT.invalid);
    expect(result.stderr).toMatch(/dir: is a directory; give a file/);
  });

  it('a missing file is named', async () => {
    const result = await run(
      folder({ 'c.json': contractText }),
      'compile',
      '--records',
      'nope.jsonl',
      '--contract',
      'c.json',
    );
    expect(result.code).toBe(EXIT.invalid);
    expect(result.stderr).toContain('nope.jsonl: no such file');
  });

  it('explains the other errors a file system gives', () => {
    expect(describeFileSystemError({ code: 'EACCES' })).toBe('permission denied: this user may not read it');
    expect(describeFileSystemError({ code: 'ENOTDIR' })).toBe('a folder named in the path is a file');
    expect(describeFileSystemError(new Error('odd'))).toBe('cannot be read (odd)');
  });

  it('a scenario that names a records file which is a directory says so', async () => {
    const cwd = folder({
      's.json': JSON.stringify({
        id: 's',
        title: 'S',
        contract: buildContract({ requiredRecords: [] }),
        records: 'r.jsonl',
      }),
    });
    mkdirSync(join(cwd, 'r.jsonl'));
    const result = await run(cwd, 'compile', '--scenario', 's.json');
    expect(result.code).toBe(EXIT.invalid);
    expect(result.stderr).toContain('r.jsonl: is a directory; give a file');
  });
});

describe('byte order marks', () => {
  it('are accepted on records, contract, scenario and receipt files', async () => {
    const bom = '\uFEFF';
    const cwd = folder({
      'r.jsonl': `${bom}${jsonl(buildRecord({ id: 'a' }))}`,
      'c.json': `${bom}${contractText}`,
      's.json': `${bom}${JSON.stringify({ id: 's', title: 'S', contract: buildContract({ requiredRecords: [] }), records: 'r.jsonl' })}`,
    });
    expect((await run(cwd, 'compile', '--records', 'r.jsonl', '--contract', 'c.json')).code).toBe(EXIT.ok);
    const compiled = await run(cwd, 'compile', '--scenario', 's.json', '--receipt-out', 'receipt.json');
    expect(compiled.code).toBe(EXIT.ok);
    const { readFileSync } = await import('node:fs');
    writeFileSync(join(cwd, 'receipt.json'), `${bom}${readFileSync(join(cwd, 'receipt.json'), 'utf8')}`);
    expect((await run(cwd, 'drill', '--scenario', 's.json', '--receipt', 'receipt.json')).code).toBe(EXIT.ok);
  });
});

describe('control characters', () => {
  it('in ids, field names and facts are printed escaped, on stdout and stderr', async () => {
    const evil = '\u001b]0;owned\u0007\u001b[2J';
    const cwd = folder({
      'r.jsonl': jsonl(buildRecord({ id: `A${evil}` }), buildRecord({ id: 'B', scope: `x${evil}` })),
      'c.json': contractText,
    });
    const compiled = await run(cwd, 'compile', '--records', 'r.jsonl', '--contract', 'c.json', '--trace');
    expect(compiled.code).toBe(EXIT.ok);
    expect(compiled.stdout).toContain('A\\u001b]0;owned\\u0007\\u001b[2J');
    const bad = folder({
      'r.jsonl': `${JSON.stringify({ ...buildRecord({ id: 'a' }), [`k${evil}`]: 1 })}\n`,
      'c.json': contractText,
    });
    // The line is not a record: inadmissible, and listed on stderr with its field name escaped.
    const listed = await run(bad, 'compile', '--records', 'r.jsonl', '--contract', 'c.json');
    expect(listed.stderr).toContain('EXCLUDE_UNREADABLE');
    expect(listed.stderr).toContain('unknown field "k\\u001b]0;owned\\u0007\\u001b[2J"');
    expect(listed.stderr).not.toContain(evil);
  });

  it('are escaped line by line, keeping the newlines that lay output out', () => {
    expect(escapeForTerminal('a\u001b[31m\nb\r\u009b\n')).toBe('a\\u001b[31m\nb\\r\\u009b\n');
  });
});

describe('table rendering', () => {
  it('lays out 213,046 rows (Math.max over a spread list overflowed past about 120,000)', () => {
    const rows = Array.from({ length: 213_046 }, (_, index) => [
      `R-${index}`,
      index % 2 === 0 ? 'selected' : 'excluded',
    ]);
    const text = table(['id', 'decision'], rows);
    const lines = text.split('\n');
    expect(lines).toHaveLength(213_048);
    expect(lines[213_047]).toBe('R-213045  excluded');
  });
});
