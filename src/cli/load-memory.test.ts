import { execFile } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '../adapters/postgres/connect';
import { POSTGRES_URL } from '../adapters/postgres/test-server';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'cc-load-memory-'));
const schema = `cc_load_memory_${process.pid}`;
/** Padding in a field no index reads: a file several times the size of a batch, at little cost to load. */
const PADDING = 'p'.repeat(4_000);

async function writeRecords(count: number): Promise<string> {
  const [line] = readFileSync(join(repoRoot, 'fixtures/retry-policy/records.jsonl'), 'utf8').split('\n');
  const base = JSON.parse(line ?? '{}') as { provenance: { origin: string; contentHash: string } };
  const path = join(folder, `records-${count}.jsonl`);
  const out = createWriteStream(path);
  for (let index = 0; index < count; index += 1) out.write(`${JSON.stringify({ ...base, id: `memory-${index}`, provenance: { ...base.provenance, origin: `${PADDING}${index}` } })}\n`);
  out.end();
  await finished(out);
  return path;
}

/** Peak resident memory of a `load` of the file, in a Node process of its own, in megabytes. */
async function peakOfLoad(path: string, into: string): Promise<number> {
  const report = 'data:text/javascript,process.on("exit",()=>process.stderr.write(`peak ${process.resourceUsage().maxRSS}\\n`))';
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--import', report, 'src/cli/entry.ts', 'load', '--database', POSTGRES_URL ?? '', '--schema', into, '--records', path, '--quiet'],
    { cwd: repoRoot },
  );
  expect(stdout).toContain('inserted');
  return Number(/peak (\d+)/.exec(stderr)?.[1]) / 1024;
}

describe.skipIf(POSTGRES_URL === undefined)('the memory of load', () => {
  afterAll(async () => {
    const opened = await connect(POSTGRES_URL ?? '', schema);
    if (!opened.ok) return;
    for (const each of [`${schema}_small`, `${schema}_large`]) await opened.value.query(`DROP SCHEMA IF EXISTS "${each}" CASCADE`);
    await opened.value.end();
  });

  it('does not grow with the file: four times the records, the same peak', async () => {
    const small = await peakOfLoad(await writeRecords(1_500), `${schema}_small`);
    const large = await peakOfLoad(await writeRecords(6_000), `${schema}_large`);
    // A load that holds the record set grows by some 50 MB here; a streaming one stays within a few.
    expect(large - small).toBeLessThan(20);
  }, 60_000);
});
