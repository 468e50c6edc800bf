import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { elementsNamed, parseXml } from '../../core/test-support/xml';
import { EXIT } from '../command';
import { main } from '../main';

async function run(args: readonly string[], cwd: string, untilStopped?: () => Promise<void>) {
  let stdout = '';
  let stderr = '';
  const code = await main(['test', ...args], {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    cwd,
    ...(untilStopped ? { untilStopped } : {}),
  });
  return { code, stdout, stderr };
}

function suiteFolder(cases: unknown): string {
  const folder = mkdtempSync(join(tmpdir(), 'cc-focus-'));
  writeFileSync(
    join(folder, 'mine.expect.json'),
    `${JSON.stringify({ suite: 'mine', inputs: { scenario: 'retry-policy' }, cases }, null, 2)}\n`,
  );
  return folder;
}

const PACKET = { outcome: 'packet' };
const SUPERSEDED = {
  name: 'superseded decision',
  controls: ['superseded-decision'],
  expect: { records: { 'ADR-0234': { decision: 'selected' } } },
};
const PROVENANCE = {
  name: 'no provenance',
  controls: ['remove-provenance'],
  expect: { outcome: 'fail_closed', failure: { code: 'REQUIRED_MISSING_PROVENANCE' } },
};

describe('test: quiet output, globs, skip and only', () => {
  it('prints failures and totals by default, every case with -v', async () => {
    const folder = suiteFolder([
      { name: 'passes', expect: PACKET },
      { name: 'fails', expect: { outcome: 'fail_closed' } },
    ]);
    const quiet = await run(['.'], folder);
    expect(quiet.code).toBe(EXIT.expectationsFailed);
    expect(quiet.stdout).not.toContain('passes');
    expect(quiet.stdout).toContain('FAIL mine › fails');
    expect(quiet.stdout).toMatch(/^1 passed, 1 failed \(1 suite\)$/m);
    expect((await run(['.', '-v'], folder)).stdout).toContain('ok   mine › passes');
  });

  it('filters by glob on names, and by control and record', async () => {
    const folder = suiteFolder([{ name: 'plain', expect: PACKET }, SUPERSEDED, PROVENANCE]);
    const names = async (...filters: string[]) => {
      const ran = await run(['.', '--json', ...filters.flatMap((filter) => ['--filter', filter])], folder);
      return (JSON.parse(ran.stdout) as { suites: { cases: { name: string }[] }[] }).suites.flatMap((suite) =>
        suite.cases.map((entry) => entry.name),
      );
    };
    expect(await names('*decision')).toEqual(['superseded decision']);
    expect(await names('control:remove-*')).toEqual(['no provenance']);
    expect(await names('record:ADR-02??')).toEqual(['superseded decision']);
    expect(await names('suite:m?ne')).toEqual(['plain', 'superseded decision', 'no provenance']);
    expect(await names('case:PLAIN', 'control:superseded-decision')).toEqual(['plain', 'superseded decision']);
  });

  it('reports skip and only as skipped, in the totals and in JUnit', async () => {
    const folder = suiteFolder([
      { name: 'skipped', skip: 'waiting on ADR-0300', expect: { outcome: 'fail_closed' } },
      { name: 'focused', only: true, expect: PACKET },
      { name: 'other', expect: { outcome: 'fail_closed' } },
    ]);
    const ran = await run(['.', '-v', '--junit', 'junit.xml'], folder);
    expect(ran.code).toBe(EXIT.ok);
    expect(ran.stdout).toContain('skip mine › skipped (waiting on ADR-0300)');
    expect(ran.stdout).toContain('skip mine › other (another case of the suite is marked only)');
    expect(ran.stdout).toMatch(/^1 passed, 0 failed, 2 skipped \(1 suite\)$/m);
    const junit = parseXml(readFileSync(join(folder, 'junit.xml'), 'utf8'));
    expect(elementsNamed(junit, 'skipped')).toHaveLength(2);
    expect(elementsNamed(junit, 'testsuite')[0]?.attributes.skipped).toBe('2');
  });
});

describe('test --coverage', () => {
  it('says which codes, gates and switches the cases reached, and which never', async () => {
    const folder = suiteFolder([{ name: 'plain', expect: PACKET }, PROVENANCE]);
    const ran = await run(['.', '--coverage', '--json'], folder);
    const { coverage } = JSON.parse(ran.stdout) as {
      coverage: Record<string, { reached: string[]; missed: string[]; percent: number }>;
    };
    expect(coverage.codes?.reached).toEqual(
      expect.arrayContaining(['SELECTED_REQUIRED', 'REQUIRED_MISSING_PROVENANCE']),
    );
    expect(coverage.controls?.reached).toEqual(['remove-provenance']);
    expect(coverage.controls?.missed).toContain('superseded-decision');
    expect(coverage.lateChanges?.missed).toEqual(['promote-run-0880']);
    const text = await run(['.', '--coverage'], folder);
    expect(text.stdout).toMatch(/controls\s+14%\s+1 of 7; never reached: .*superseded-decision/);
  });

  it('fails with exit 4 under --min-coverage, naming the lowest, and the shipped suites reach every control', async () => {
    const folder = suiteFolder([{ name: 'plain', expect: PACKET }]);
    const under = await run(['.', '--min-coverage', '50'], folder);
    expect(under.code).toBe(EXIT.expectationsFailed);
    expect(under.stderr).toMatch(/coverage of \w+ is \d+%, under --min-coverage 50%/);
    const shipped = await run(['--coverage', '--json'], folder);
    const coverage = (JSON.parse(shipped.stdout) as { coverage: Record<string, { missed: string[] }> }).coverage;
    expect(coverage.controls?.missed).toEqual([]);
    expect(coverage.lateChanges?.missed).toEqual([]);
  });
});

describe('test --watch', () => {
  it('runs again when a suite file changes, until stopped', async () => {
    const folder = suiteFolder([{ name: 'first', expect: PACKET }]);
    let stop = () => {};
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const watching = run(['.', '--watch', '-v'], folder, () => stopped);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    writeFileSync(
      join(folder, 'mine.expect.json'),
      JSON.stringify({
        suite: 'mine',
        inputs: { scenario: 'retry-policy' },
        cases: [{ name: 'second', expect: { outcome: 'fail_closed' } }],
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 2500));
    stop();
    const ran = await watching;
    expect(ran.stdout).toContain('ok   mine › first');
    expect(ran.stderr).toContain('running again');
    expect(ran.stdout).toContain('FAIL mine › second');
    expect(ran.code).toBe(EXIT.expectationsFailed);
  });
});
