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
  for (let index = 0; index < count; index += 1)
    out.write(
      `${JSON.stringify({ ...base, id: `memory-${index}`, provenance: { ...base.provenance, origin: `${PADDING}${index}` } })}\n`,
    );
  out.end();
  await finished(out);
  return path;
}

/** Heap the load may use: enough for a streaming load, far too little for one that holds a 30 MB file's record set. */
const HEAP_CAP_MB = 64;

/**
 * A `load` of the file in a Node process of its own whose old-generation heap is capped: it fails if the load outgrows
 * it.
 */
async function loadUnderCap(path: string, into: string): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      `--max-old-space-size=${HEAP_CAP_MB}`,
      '--import',
      'tsx',
      'src/cli/entry.ts',
      'load',
      '--database',
      POSTGRES_URL ?? '',
      '--schema',
      into,
      '--records',
      path,
      '--quiet',
    ],
    { cwd: repoRoot },
  );
  return stdout;
}

describe.skipIf(POSTGRES_URL === undefined)('the memory of load', () => {
  afterAll(async () => {
    const opened = await connect(POSTGRES_URL ?? '', schema);
    if (!opened.ok) return;
    for (const each of [`${schema}_capped`]) await opened.value.query(`DROP SCHEMA IF EXISTS "${each}" CASCADE`);
    await opened.value.end();
  });

  it('holds no record set: 6,000 records (30 MB) load within a 64 MB heap, where a load that holds them runs out', async () => {
    // Peak memory compared across two sizes moved by tens of megabytes from run to run; a cap either holds or not.
    expect(await loadUnderCap(await writeRecords(6_000), `${schema}_capped`)).toContain('6000 inserted');
  }, 60_000);
});
