import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Connection } from '../adapters/postgres/connect';
import { POSTGRES_URL } from '../adapters/postgres/test-server';
import { EXIT } from './command';
import { main } from './main';
import { runMain } from './test-support/run-main';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const schema = `cc_watch_${process.pid}`;
const recordLines = readFileSync(join(repoRoot, 'fixtures/retry-policy/records.jsonl'), 'utf8').trim().split('\n');

/** The fixture's record with this id, changed as given, as one line of JSONL. */
function changedLine(id: string, change: Record<string, unknown>): string {
  const line = recordLines.find((text) => (JSON.parse(text) as { id: string }).id === id);
  if (line === undefined) throw new Error(`no record ${id}`);
  return `${JSON.stringify({ ...(JSON.parse(line) as object), ...change })}\n`;
}

/** Settles once `holds` does, checking every 20 ms, or fails after `ms`. */
async function until(holds: () => boolean, what: string, ms = 20_000): Promise<void> {
  const started = Date.now();
  while (!holds()) {
    if (Date.now() - started > ms) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(POSTGRES_URL === undefined)('compile --database --watch', () => {
  const url = POSTGRES_URL ?? '';
  let cwd: string;
  let database: Connection;
  const run = (...args: string[]) => runMain(args, cwd);
  const inSchema = ['--database', url, '--schema', schema];

  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'cc-cli-watch-'));
    const scenario = JSON.parse(readFileSync(join(repoRoot, 'fixtures/retry-policy/scenario.json'), 'utf8')) as {
      contract: unknown;
    };
    writeFileSync(join(cwd, 'contract.json'), JSON.stringify(scenario.contract));
    writeFileSync(join(cwd, 'records.jsonl'), `${recordLines.join('\n')}\n`);
    const opened = await connect(url, schema);
    if (!opened.ok) throw new Error(opened.error.message);
    database = opened.value;
    const loaded = await run('load', ...inSchema, '--records', 'records.jsonl');
    expect(loaded.code, loaded.stderr).toBe(EXIT.ok);
  });
  afterAll(async () => {
    await database.query(`DROP SCHEMA IF EXISTS ${database.schema} CASCADE`);
    await database.end();
  });

  /** The receipt a fresh compile writes now. */
  const freshReceipt = async () => {
    const fresh = await run('compile', ...inSchema, '--contract', 'contract.json', '--receipt-out', 'fresh.json');
    expect(fresh.code, fresh.stderr).toBe(EXIT.ok);
    return readFileSync(join(cwd, 'fresh.json'), 'utf8');
  };

  it('compiles again after each load, using the last answer when no admitted record changed, as a fresh compile would', async () => {
    let stdout = '';
    let stderr = '';
    let stop = () => undefined as void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const watching = main(
      ['compile', ...inSchema, '--contract', 'contract.json', '--watch', '--receipt-out', 'w.json'],
      {
        stdout: (text) => (stdout += text),
        stderr: (text) => (stderr += text),
        cwd,
        untilStopped: () => stopped,
      },
    );
    const watched = () => readFileSync(join(cwd, 'w.json'), 'utf8');
    await until(() => stderr.includes('watching'), 'the first compile');
    expect(stdout).toContain('admitted by the postgresql adapter');
    expect(watched()).toBe(await freshReceipt());

    // ADR-0231 is of another project: refused before and after its text changes.
    writeFileSync(join(cwd, 'refused.jsonl'), changedLine('ADR-0231', { text: 'A payouts note, rewritten.' }));
    const refusedLoad = await run('load', ...inSchema, '--upsert', 'refused.jsonl');
    expect(refusedLoad.code, refusedLoad.stderr).toBe(EXIT.ok);
    await until(() => stderr.includes('compiled again'), 'a compile after the first load');
    expect(stderr).toContain('the last answer used again');
    expect(watched()).toBe(await freshReceipt());

    // RUN-0871 is admitted: its new text changes the admitted set, so the answer is new.
    const runbook = JSON.parse(changedLine('RUN-0871', {})) as { text: string };
    writeFileSync(join(cwd, 'admitted.jsonl'), changedLine('RUN-0871', { text: `${runbook.text} Reviewed.` }));
    const admittedLoad = await run('load', ...inSchema, '--upsert', 'admitted.jsonl');
    expect(admittedLoad.code, admittedLoad.stderr).toBe(EXIT.ok);
    await until(() => stderr.includes('answered in full'), 'a compile after the second load');
    expect(watched()).toBe(await freshReceipt());

    // A load that changes nothing moves no snapshot: no compile follows it.
    const compiles = stdout.split('admitted by the postgresql adapter').length - 1;
    expect(compiles).toBe(3);
    const unchanged = await run('load', ...inSchema, '--upsert', 'admitted.jsonl');
    expect(unchanged.stdout).toContain('1 unchanged');
    stop();
    expect(await watching).toBe(EXIT.ok);
    expect(stdout.split('admitted by the postgresql adapter').length - 1).toBe(3);
  });

  it('in the user view, prints again only when what that view shows changed', async () => {
    let stdout = '';
    let stderr = '';
    let stop = () => undefined as void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const args = ['compile', ...inSchema, '--contract', 'contract.json', '--watch', '--view', 'user'];
    const watching = main(args, {
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
      cwd,
      untilStopped: () => stopped,
    });
    await until(() => stderr.includes('watching'), 'the first compile');
    const printed = () => stdout.split('user view ').length - 1;
    const first = printed();
    expect(first).toBeGreaterThan(0);

    // A record of another project changes: nothing this view shows changes, so nothing is printed again.
    writeFileSync(join(cwd, 'refused.jsonl'), changedLine('ADR-0231', { text: 'A payouts note, rewritten again.' }));
    expect((await run('load', ...inSchema, '--upsert', 'refused.jsonl')).code).toBe(EXIT.ok);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(printed()).toBe(first);
    expect(stderr).not.toContain('compiled again');

    // The required record's text changes: the packet it was in is refused now, which this view shows.
    writeFileSync(join(cwd, 'required.jsonl'), changedLine('ADR-0234', { text: 'Reattempts: at most three.' }));
    expect((await run('load', ...inSchema, '--upsert', 'required.jsonl')).code).toBe(EXIT.ok);
    await until(() => stderr.includes('a load changed what this view shows: compiled again'), 'a second print');
    await until(() => printed() === 2 * first, 'the second user view');
    stop();
    expect(await watching).toBe(EXIT.failClosed);
  });

  it('needs --database', async () => {
    const refused = await run('compile', '--contract', 'contract.json', '--records', 'records.jsonl', '--watch');
    expect(refused.code).toBe(EXIT.invalid);
    expect(refused.stderr).toContain('--watch compiles again after each load: it needs --database');
  });
});
