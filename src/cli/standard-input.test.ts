import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EXIT } from './command';

const root = fileURLToPath(new URL('../../', import.meta.url));
const fixtures = join(root, 'fixtures/retry-policy');
const records = readFileSync(join(fixtures, 'records.jsonl'), 'utf8');
const contract = JSON.stringify(
  (JSON.parse(readFileSync(join(fixtures, 'scenario.json'), 'utf8')) as { contract: object }).contract,
);

/** The CLI as a process, its standard input given: main() in a test has no stdin of its own. */
function cli(args: readonly string[], input: string) {
  const cwd = mkdtempSync(join(tmpdir(), 'cc-stdin-'));
  writeFileSync(join(cwd, 'contract.json'), contract);
  writeFileSync(join(cwd, 'records.jsonl'), records);
  return spawnSync(
    process.execPath,
    ['--import', join(root, 'node_modules/tsx/dist/esm/index.mjs'), join(root, 'src/cli/entry.ts'), ...args],
    { cwd, input, encoding: 'utf8', timeout: 120_000 },
  );
}

describe('- reads standard input', () => {
  it('compiles records piped in, as from the file', () => {
    const piped = cli(['compile', '--records', '-', '--contract', 'contract.json', '--json'], records);
    const fromFile = cli(['compile', '--records', 'records.jsonl', '--contract', 'contract.json', '--json'], '');
    expect(piped.status, piped.stderr).toBe(EXIT.ok);
    const receiptId = (text: string) => (JSON.parse(text) as { receipt: { receiptId: string } }).receipt.receiptId;
    expect(receiptId(piped.stdout)).toBe(receiptId(fromFile.stdout));
  });

  it('reads a contract piped in, and names standard input with the line of a bad record', () => {
    expect(cli(['compile', '--records', 'records.jsonl', '--contract', '-'], contract).status).toBe(EXIT.ok);
    // A line that is not a record is left out (EXCLUDE_UNREADABLE) and listed with where it is.
    const bad = cli(['compile', '--records', '-', '--contract', 'contract.json'], `${records}{"id": 1}\n`);
    expect(bad.status).toBe(EXIT.ok);
    expect(bad.stderr).toContain(`standard input:${records.trim().split('\n').length + 1}`);
  });

  it('refuses - for two inputs', () => {
    const both = cli(['compile', '--records', '-', '--contract', '-'], '');
    expect(both.status).toBe(EXIT.invalid);
    expect(both.stderr).toContain('standard input (-) can be read for one input only');
  });
});
