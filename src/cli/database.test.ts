import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Connection } from '../adapters/postgres/connect';
import { POSTGRES_URL } from '../adapters/postgres/test-server';
import { namingAdapterOf } from '../adapters/conformance/suite';
import { serialiseReceipt } from '../core/passes/attest';
import type { Receipt } from '../core/result';
import { EXIT } from './command';
import { main } from './main';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const schema = `cc_cli_${process.pid}`;

async function run(cwd: string, ...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), cwd });
  return { code, stdout, stderr };
}

describe.skipIf(POSTGRES_URL === undefined)('load and compile --database', () => {
  const url = POSTGRES_URL ?? '';
  let cwd: string;
  let database: Connection;
  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'cc-cli-db-'));
    const scenario = JSON.parse(readFileSync(join(repoRoot, 'fixtures/retry-policy/scenario.json'), 'utf8')) as { contract: unknown };
    writeFileSync(join(cwd, 'contract.json'), JSON.stringify(scenario.contract));
    writeFileSync(join(cwd, 'records.jsonl'), readFileSync(join(repoRoot, 'fixtures/retry-policy/records.jsonl')));
    const opened = await connect(url, schema);
    if (!opened.ok) throw new Error(opened.error.message);
    database = opened.value;
  });
  afterAll(async () => {
    await database.query(`DROP SCHEMA IF EXISTS ${database.schema} CASCADE`);
    await database.end();
  });

  it('loads, reloads without a change, and compiles to the receipt the records file compiles to', async () => {
    const first = await run(cwd, 'load', '--database', url, '--schema', schema, '--records', 'records.jsonl');
    expect(first.code, first.stderr).toBe(EXIT.ok);
    expect(first.stdout).toContain('13 inserted, 0 updated, 0 deleted, 0 unchanged');
    const again = await run(cwd, 'load', '--database', url, '--schema', schema, '--records', 'records.jsonl');
    expect(again.stdout).toContain('0 inserted, 0 updated, 0 deleted, 13 unchanged');

    const inDatabase = await run(cwd, 'compile', '--database', url, '--schema', schema, '--contract', 'contract.json', '--receipt-out', 'db.json');
    const builtin = await run(cwd, 'compile', '--records', 'records.jsonl', '--contract', 'contract.json', '--receipt-out', 'file.json');
    expect(inDatabase.code, inDatabase.stderr).toBe(builtin.code);
    const databaseReceipt = JSON.parse(readFileSync(join(cwd, 'db.json'), 'utf8')) as Receipt;
    const fileReceipt = JSON.parse(readFileSync(join(cwd, 'file.json'), 'utf8')) as Receipt;
    expect(databaseReceipt.executedBy).toEqual({ adapter: 'postgresql', adapterVersion: '1', planDigest: fileReceipt.executedBy.planDigest });
    expect(serialiseReceipt(namingAdapterOf(databaseReceipt, fileReceipt))).toBe(serialiseReceipt(fileReceipt));
    expect(inDatabase.stdout).toMatch(/admitted by the postgresql adapter 1 \(PostgreSQL 1\d.*echoed plan sha256:[0-9a-f]{64}/);
    const withoutIds = (stdout: string, id: string) => stdout.replaceAll(id, 'RECEIPT').replaceAll(id.slice(0, 12), 'RECEIPT');
    expect(withoutIds(inDatabase.stdout.replace(/admitted by the postgresql adapter.*\n/, ''), databaseReceipt.receiptId)).toBe(withoutIds(builtin.stdout, fileReceipt.receiptId));
  });

  it('names the file, line and field of a bad line, and writes nothing', async () => {
    const lines = readFileSync(join(repoRoot, 'fixtures/refund-desk/records.jsonl'), 'utf8').trimEnd().split('\n');
    const broken = JSON.parse(lines[2] as string) as Record<string, unknown>;
    broken.knownAt = 'last tuesday';
    lines[2] = JSON.stringify(broken);
    writeFileSync(join(cwd, 'bad.jsonl'), `${lines.join('\n')}\n`);
    const before = await database.query<{ ids: string[] }>(`SELECT array_agg(id ORDER BY id) AS ids FROM ${database.schema}.records`);
    const bad = await run(cwd, 'load', '--database', url, '--schema', schema, '--records', 'bad.jsonl');
    expect(bad.code).toBe(EXIT.invalid);
    expect(bad.stderr).toContain('bad.jsonl:3');
    expect(bad.stderr).toContain('knownAt');
    expect(bad.stderr).not.toMatch(/\n\s+at /);
    const after = await database.query<{ ids: string[] }>(`SELECT array_agg(id ORDER BY id) AS ids FROM ${database.schema}.records`);
    expect(after.rows).toEqual(before.rows);
  });

  it('says the database holds nothing yet instead of compiling an empty corpus, and takes --contract alone', async () => {
    const empty = await run(cwd, 'compile', '--database', url, '--schema', `${schema}_never_loaded`, '--contract', 'contract.json');
    expect(empty.code).toBe(EXIT.invalid);
    expect(empty.stderr).toContain('context-compiler load');
    const mixed = await run(cwd, 'compile', '--database', url, '--records', 'records.jsonl', '--contract', 'contract.json');
    expect(mixed.code).toBe(EXIT.invalid);
    expect(mixed.stderr).toContain('--contract alone');
  });

  it('reports a server it cannot reach in one line, without the password', async () => {
    const refused = await run(cwd, 'load', '--database', 'postgresql://someone:hunter2@127.0.0.1:1/nothing', '--records', 'records.jsonl');
    expect(refused.code).toBe(EXIT.invalid);
    expect(refused.stderr).toContain('cannot connect to postgresql://someone:***@127.0.0.1:1/nothing');
    expect(refused.stderr).not.toContain('hunter2');
  });
});
