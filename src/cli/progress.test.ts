import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from './command';
import { main } from './main';

const fixtures = new URL('../../fixtures/retry-policy/', import.meta.url);
const cwd = mkdtempSync(join(tmpdir(), 'cc-progress-'));
writeFileSync(join(cwd, 'records.jsonl'), readFileSync(new URL('records.jsonl', fixtures)));
writeFileSync(
  join(cwd, 'contract.json'),
  JSON.stringify(
    (JSON.parse(readFileSync(new URL('scenario.json', fixtures), 'utf8')) as { contract: object }).contract,
  ),
);

async function compile(progress: ((text: string | null) => void) | undefined, ...extra: string[]) {
  let stderr = '';
  const code = await main(['compile', '--records', 'records.jsonl', '--contract', 'contract.json', ...extra], {
    stdout: () => {},
    stderr: (text) => (stderr += text),
    cwd,
    ...(progress ? { progress } : {}),
  });
  return { code, stderr };
}

describe('the progress line', () => {
  it('reports reading and compiling on the one status line, and clears it before the result', async () => {
    const shown: (string | null)[] = [];
    const result = await compile((text) => shown.push(text));
    expect(result).toEqual({ code: EXIT.ok, stderr: '' });
    expect(shown).toContain('reading records.jsonl: 100%');
    expect(shown).toContain('compiling 13 records');
    expect(shown.at(-1)).toBeNull();
  });

  it('is silent with --quiet, and where stderr is no terminal (no progress given) prints nothing instead', async () => {
    const shown: (string | null)[] = [];
    expect(await compile((text) => shown.push(text), '--quiet')).toEqual({ code: EXIT.ok, stderr: '' });
    expect(shown).toEqual([]);
    expect(await compile(undefined)).toEqual({ code: EXIT.ok, stderr: '' });
  });
});
