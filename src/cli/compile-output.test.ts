import { describe, expect, it } from 'vitest';
import { EXIT } from './command';

import { runMain } from './test-support/run-main';

const run = (...args: string[]) => runMain(['compile', ...args], process.cwd());

const traceRows = (stdout: string) =>
  stdout.split('\n').filter((line) => /^\S+\s+(selected|excluded)\s+[A-Z_]+/.test(line));

describe('compile prints a summary and the packet; the per-record table when asked', () => {
  it('prints the summary and the packet by default, no row per record', async () => {
    const result = await run();
    expect(result.code).toBe(EXIT.ok);
    expect(result.stdout).toContain('PACKET EMITTED: 4 records');
    expect(result.stdout).toContain('=== CONTEXT PACKET ===');
    expect(traceRows(result.stdout)).toEqual([]);
  });

  it('prints every row with --trace, the first N with --limit N and says how many more', async () => {
    expect(traceRows((await run('--trace')).stdout)).toHaveLength(13);
    const limited = await run('--limit', '2');
    expect(traceRows(limited.stdout)).toHaveLength(2);
    expect(limited.stdout).toContain('… 11 more rows (--trace for all, --limit N for the first N)');
  });

  it('refuses a --limit that is not a number of rows', async () => {
    const refused = await run('--limit', 'all');
    expect(refused.code).toBe(EXIT.invalid);
    expect(refused.stderr).toContain('--limit must be a whole number of rows, not all');
  });
});
