import { sha256InNode } from '../../lib/node-sha256';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentHashOf } from '../../core/fingerprints';
import { buildRecord } from '../../core/test-support/builders';
import { EXIT } from '../command';

import { runMain } from '../test-support/run-main';

const run = (cwd: string, ...args: string[]) => runMain(args, cwd);

const right = buildRecord({ id: 'right', text: 'refund policy' });
const wrong = {
  ...buildRecord({ id: 'wrong', text: 'refund policy, revised' }),
  provenance: { origin: 'crm/wrong', contentHash: contentHashOf(sha256InNode, 'refund policy') },
};
const unhashed = { ...buildRecord({ id: 'unhashed' }), provenance: { origin: 'crm/unhashed' } };
const orphan = { ...buildRecord({ id: 'orphan' }), provenance: null };

function folderWith(lineEnd: string): string {
  const cwd = mkdtempSync(join(tmpdir(), 'cc-provenance-'));
  // The first line keeps its own spacing: a line that needs nothing is not rewritten.
  writeFileSync(
    join(cwd, 'mine.jsonl'),
    [
      JSON.stringify(right, null, 1).replaceAll('\n', ''),
      JSON.stringify(wrong),
      JSON.stringify(unhashed),
      JSON.stringify(orphan),
      '',
    ].join(lineEnd),
  );
  return cwd;
}

describe('provenance: an authoring helper for provenance.contentHash', () => {
  it('checks by default: names each missing or wrong hash with the one the text has, and the record it cannot vouch for', async () => {
    const cwd = folderWith('\n');
    const before = readFileSync(join(cwd, 'mine.jsonl'), 'utf8');
    const checked = await run(cwd, 'provenance', 'mine.jsonl');
    expect(checked.code).toBe(EXIT.invalid);
    expect(checked.stdout).toContain(
      `mine.jsonl:2: provenance.contentHash: ${contentHashOf(sha256InNode, 'refund policy')} is not the hash of the record's text; its text hashes to ${contentHashOf(sha256InNode, wrong.text)}`,
    );
    expect(checked.stdout).toContain(
      `mine.jsonl:3: provenance.contentHash: missing; its text hashes to ${contentHashOf(sha256InNode, unhashed.text)}`,
    );
    expect(checked.stdout).toContain('mine.jsonl: 4 records; 1 hashes match, 2 missing or wrong, 1 cannot be checked');
    expect(checked.stderr).toContain('mine.jsonl:4: provenance.origin: no provenance origin');
    expect(readFileSync(join(cwd, 'mine.jsonl'), 'utf8')).toBe(before);
  });

  it('--write fills the hashes beside an origin, keeps every other line byte for byte, and the check then passes', async () => {
    const cwd = folderWith('\r\n');
    const before = readFileSync(join(cwd, 'mine.jsonl'), 'utf8').split('\r\n');
    const written = await run(cwd, 'provenance', 'mine.jsonl', '--write');
    expect(written.code).toBe(EXIT.invalid);
    expect(written.stdout).toBe('mine.jsonl: 4 records; filled 2 hashes, 1 already matched, 1 left alone\n');
    const after = readFileSync(join(cwd, 'mine.jsonl'), 'utf8').split('\r\n');
    expect([after[0], after[3], after[4]]).toEqual([before[0], before[3], before[4]]);
    expect(JSON.parse(after[1] ?? '')).toEqual({
      ...wrong,
      provenance: { origin: 'crm/wrong', contentHash: contentHashOf(sha256InNode, wrong.text) },
    });
    writeFileSync(join(cwd, 'mine.jsonl'), after.slice(0, 3).join('\n'));
    expect((await run(cwd, 'provenance', 'mine.jsonl', '--check')).code).toBe(EXIT.ok);
  });

  it('says in its help that a hash asserts provenance, so it is for records you wrote', async () => {
    const help = await run(mkdtempSync(join(tmpdir(), 'cc-provenance-')), 'provenance', '--help');
    expect(help.stdout).toContain('never to let a corpus you did not write');
    expect((await run('.', 'provenance', 'a.jsonl', '--check', '--write')).code).toBe(EXIT.invalid);
  });
});
