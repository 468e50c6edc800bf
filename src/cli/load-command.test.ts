import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Connection } from '../adapters/postgres/connect';
import { POSTGRES_URL } from '../adapters/postgres/test-server';
import { EXIT } from './command';
import { main } from './main';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const schema = `cc_load_command_${process.pid}`;

async function run(cwd: string, args: readonly string[], progress?: (text: string | null) => void) {
  let stdout = '';
  let stderr = '';
  const code = await main([...args], {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    cwd,
    ...(progress ? { progress } : {}),
  });
  return { code, stdout, stderr };
}

describe.skipIf(POSTGRES_URL === undefined)('load --upsert and load --delete', () => {
  const url = POSTGRES_URL ?? '';
  const target = ['--database', url, '--schema', schema];
  let cwd: string;
  let database: Connection;
  let lines: string[];
  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'cc-load-command-'));
    lines = readFileSync(join(repoRoot, 'fixtures/retry-policy/records.jsonl'), 'utf8').trimEnd().split('\n');
    writeFileSync(join(cwd, 'records.jsonl'), `${lines.join('\n')}\n`);
    const opened = await connect(url, schema);
    if (!opened.ok) throw new Error(opened.error.message);
    database = opened.value;
  });
  afterAll(async () => {
    await database.query(`DROP SCHEMA IF EXISTS ${database.schema} CASCADE`);
    await database.end();
  });
  const ids = async () =>
    (await database.query<{ id: string }>(`SELECT id FROM ${database.schema}.records ORDER BY id`)).rows.map(
      (row) => row.id,
    );

  it('touch only the records named, each counting the snapshot up, with the progress on one status line', async () => {
    const shown: (string | null)[] = [];
    const loaded = await run(cwd, ['load', ...target, '--records', 'records.jsonl'], (text) => shown.push(text));
    expect(loaded.code, loaded.stderr).toBe(EXIT.ok);
    expect(
      shown.some((text) => text?.startsWith('loading records.jsonl: 100% (13 lines read, 13 records written)')),
    ).toBe(true);
    expect(shown.at(-1)).toBeNull();
    const snapshot = Number(/snapshot (\d+)/.exec(loaded.stdout)?.[1]);
    const all = await ids();

    const [first = '', second = ''] = lines;
    const changed = { ...(JSON.parse(first) as { id: string; title: string }), title: 'Retitled by an upsert' };
    const added = { ...(JSON.parse(second) as { id: string }), id: 'added-by-an-upsert' };
    writeFileSync(join(cwd, 'two.jsonl'), `${JSON.stringify(changed)}\n${JSON.stringify(added)}\n`);
    const upserted = await run(cwd, ['load', ...target, '--upsert', 'two.jsonl']);
    expect(upserted.code, upserted.stderr).toBe(EXIT.ok);
    expect(upserted.stdout).toContain(`upserted two.jsonl into`);
    expect(upserted.stdout).toContain(`: 1 inserted, 1 updated, 0 unchanged; snapshot ${snapshot + 1}\n`);
    expect(await ids()).toEqual([...all, added.id].sort());
    const { rows } = await database.query<{ title: string }>(
      `SELECT document::json->>'title' AS title FROM ${database.schema}.documents WHERE id = $1`,
      [changed.id],
    );
    expect(rows[0]?.title).toBe(changed.title);

    const deleted = await run(cwd, ['load', ...target, '--delete', added.id, changed.id, 'no-such-id']);
    expect(deleted.code, deleted.stderr).toBe(EXIT.ok);
    expect(deleted.stdout).toContain(`deleted 2 records from`);
    expect(deleted.stdout).toContain(`; not found: no-such-id; snapshot ${snapshot + 2}\n`);
    expect(await ids()).toEqual(all.filter((id) => id !== changed.id));

    const again = await run(cwd, ['load', ...target, '--delete', 'no-such-id']);
    expect(again.stdout).toContain(`deleted 0 records from`);
    expect(again.stdout).toContain(`snapshot ${snapshot + 2}\n`);
  });

  it('refuses a command line that names no source or two, and ids without --delete', async () => {
    for (const args of [
      ['load', ...target],
      ['load', ...target, '--records', 'records.jsonl', '--upsert', 'records.jsonl'],
      ['load', ...target, '--records', 'records.jsonl', '--delete', 'x'],
      ['load', ...target, '--delete'],
      ['load', ...target, '--records', 'records.jsonl', 'stray'],
    ]) {
      const refused = await run(cwd, args);
      expect(refused.code, args.join(' ')).toBe(EXIT.invalid);
      expect(refused.stderr).toContain('usage: context-compiler load');
    }
  });
});
