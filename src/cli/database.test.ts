import { sha256InNode } from '../lib/node-sha256';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Connection } from '../adapters/postgres/connect';
import { POSTGRES_URL } from '../adapters/postgres/test-server';
import { namingAdapterOf } from '../adapters/conformance/conformance-suite';
import { receiptIdOf, serialiseReceipt } from '../core/phases/7-attest/attest';
import type { Receipt } from '../core/result';
import { EXIT } from './command';

import { runMain } from './test-support/run-main';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const schema = `cc_cli_${process.pid}`;

const run = (cwd: string, ...args: string[]) => runMain(args, cwd);

describe.skipIf(POSTGRES_URL === undefined)('load and compile --database', () => {
  const url = POSTGRES_URL ?? '';
  let cwd: string;
  let database: Connection;
  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'cc-cli-db-'));
    const scenario = JSON.parse(readFileSync(join(repoRoot, 'fixtures/retry-policy/scenario.json'), 'utf8')) as {
      contract: unknown;
    };
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

    const inDatabase = await run(
      cwd,
      'compile',
      '--database',
      url,
      '--schema',
      schema,
      '--contract',
      'contract.json',
      '--receipt-out',
      'db.json',
    );
    // The database store attests candidates by default; the file compiled so attests the same receipt.
    const builtin = await run(
      cwd,
      'compile',
      '--records',
      'records.jsonl',
      '--contract',
      'contract.json',
      '--attest',
      'candidates',
      '--receipt-out',
      'file.json',
    );
    expect(inDatabase.code, inDatabase.stderr).toBe(builtin.code);
    const databaseReceipt = JSON.parse(readFileSync(join(cwd, 'db.json'), 'utf8')) as Receipt;
    const fileReceipt = JSON.parse(readFileSync(join(cwd, 'file.json'), 'utf8')) as Receipt;
    expect(databaseReceipt.attestation).toBe('candidates');
    expect(databaseReceipt.executedBy).toEqual({
      adapter: 'postgresql',
      adapterVersion: '1',
      planDigest: fileReceipt.executedBy.planDigest,
    });
    expect(serialiseReceipt(namingAdapterOf(databaseReceipt, fileReceipt))).toBe(serialiseReceipt(fileReceipt));
    await run(
      cwd,
      'compile',
      '--database',
      url,
      '--schema',
      schema,
      '--contract',
      'contract.json',
      '--attest',
      'full',
      '--receipt-out',
      'db-full.json',
    );
    await run(
      cwd,
      'compile',
      '--records',
      'records.jsonl',
      '--contract',
      'contract.json',
      '--receipt-out',
      'file-full.json',
    );
    const read = (file: string) => JSON.parse(readFileSync(join(cwd, file), 'utf8')) as Receipt;
    expect(serialiseReceipt(namingAdapterOf(read('db-full.json'), read('file-full.json')))).toBe(
      serialiseReceipt(read('file-full.json')),
    );
    expect(inDatabase.stdout).toMatch(
      /admitted by the postgresql adapter 1 \(PostgreSQL 1\d.*echoed plan sha256:[0-9a-f]{64}/,
    );
    const withoutIds = (stdout: string, id: string) =>
      stdout.replaceAll(id, 'RECEIPT').replaceAll(id.slice(0, 12), 'RECEIPT');
    // No baselines (they need a whole-corpus index, and a candidates compile reads no corpus), and a line of what was
    // counted instead of listed.
    const packetOf = (stdout: string) => stdout.slice(stdout.indexOf('=== CONTEXT PACKET ==='));
    expect(withoutIds(packetOf(inDatabase.stdout), databaseReceipt.receiptId)).toBe(
      withoutIds(packetOf(builtin.stdout), fileReceipt.receiptId),
    );
    expect(inDatabase.stdout).not.toContain('naive top-k');
    const counted = Object.entries(databaseReceipt.omitted?.rows ?? {}).map(([code, count]) => `${code} ${count}`);
    expect(inDatabase.stdout).toContain(`13 records, `);
    expect(inDatabase.stdout).toContain(
      `${databaseReceipt.trace.length} with a row in the receipt; the others counted: ${counted.join(', ')}\n`,
    );

    // --trace-out writes the trace a row a line: the candidates' rows, or every record's with --attest full.
    await run(
      cwd,
      'compile',
      '--database',
      url,
      '--schema',
      schema,
      '--contract',
      'contract.json',
      '--trace-out',
      'trace.jsonl',
    );
    await run(
      cwd,
      'compile',
      '--database',
      url,
      '--schema',
      schema,
      '--contract',
      'contract.json',
      '--attest',
      'full',
      '--trace-out',
      'trace-full.jsonl',
    );
    const rowsOf = (file: string) =>
      readFileSync(join(cwd, file), 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { id: string });
    expect(rowsOf('trace.jsonl')).toEqual(databaseReceipt.trace);
    expect(rowsOf('trace-full.jsonl')).toEqual(read('db-full.json').trace);
    expect(rowsOf('trace-full.jsonl')).toHaveLength(13);
  });

  it('prints the counts per reason of the records a compile did not list in the diagnostic view only', async () => {
    const compile = (view: string) =>
      run(cwd, 'compile', '--database', url, '--schema', schema, '--contract', 'contract.json', '--view', view);
    const diagnostic = await compile('diagnostic');
    expect(diagnostic.stdout).toContain('the others counted: ');
    expect(diagnostic.stdout).toContain('EXCLUDE_DENY_LABEL 1');
    // The user view states no count of a reason that withholds a record, nor a total that includes them.
    const user = await compile('user');
    expect(user.code, user.stderr).toBe(diagnostic.code);
    expect(user.stdout).toContain('admitted by the postgresql adapter');
    expect(user.stdout).not.toContain('the others counted');
    expect(user.stdout).not.toMatch(/EXCLUDE_(DENY_LABEL|NOT_AUTHORISED)/);
    expect(user.stdout).not.toContain('13 records');
    // It counts the withheld records the receipt has no row for, as the user view of the records file does.
    const fromFile = await run(
      cwd,
      'compile',
      '--records',
      'records.jsonl',
      '--contract',
      'contract.json',
      '--view',
      'user',
    );
    const withheld = /· withheld (\d+) ·/.exec(fromFile.stdout)?.[1];
    expect(Number(withheld)).toBeGreaterThan(0);
    expect(user.stdout).toContain(`· withheld ${withheld} ·`);
    expect(user.stdout).toContain(`${withheld} records are outside the authorised scope.`);
    // And the records it may see that were excluded without a row, as the file's user view counts them.
    const counted = /selected \d+ · excluded \d+ · withheld \d+/.exec(fromFile.stdout)?.[0];
    expect(counted).toBeDefined();
    expect(user.stdout).toContain(counted);
  });

  it('names the file, line and field of a bad line, and writes nothing', async () => {
    const lines = readFileSync(join(repoRoot, 'fixtures/refund-desk/records.jsonl'), 'utf8').trimEnd().split('\n');
    const broken = JSON.parse(lines[2] as string) as Record<string, unknown>;
    broken.knownAt = 'last tuesday';
    lines[2] = JSON.stringify(broken);
    writeFileSync(join(cwd, 'bad.jsonl'), `${lines.join('\n')}\n`);
    const before = await database.query<{ ids: string[] }>(
      `SELECT array_agg(id ORDER BY id) AS ids FROM ${database.schema}.records`,
    );
    const bad = await run(cwd, 'load', '--database', url, '--schema', schema, '--records', 'bad.jsonl');
    expect(bad.code).toBe(EXIT.invalid);
    expect(bad.stderr).toContain('bad.jsonl:3');
    expect(bad.stderr).toContain('knownAt');
    expect(bad.stderr).not.toMatch(/\n\s+at /);
    const after = await database.query<{ ids: string[] }>(
      `SELECT array_agg(id ORDER BY id) AS ids FROM ${database.schema}.records`,
    );
    expect(after.rows).toEqual(before.rows);
  });

  it('says the database holds nothing yet instead of compiling an empty corpus, and takes --contract alone', async () => {
    const empty = await run(
      cwd,
      'compile',
      '--database',
      url,
      '--schema',
      `${schema}_never_loaded`,
      '--contract',
      'contract.json',
    );
    expect(empty.code).toBe(EXIT.invalid);
    expect(empty.stderr).toContain('context-compiler load');
    const mixed = await run(
      cwd,
      'compile',
      '--database',
      url,
      '--records',
      'records.jsonl',
      '--contract',
      'contract.json',
    );
    expect(mixed.code).toBe(EXIT.invalid);
    expect(mixed.stderr).toContain('--contract alone');
  });

  it('reports a server it cannot reach in one line, without the password', async () => {
    const refused = await run(
      cwd,
      'load',
      '--database',
      'postgresql://someone:hunter2@127.0.0.1:1/nothing',
      '--records',
      'records.jsonl',
    );
    expect(refused.code).toBe(EXIT.databaseUnreachable);
    expect(refused.stderr).toContain('DATABASE_UNREACHABLE');
    expect(refused.stderr).toContain('cannot connect to postgresql://someone:***@127.0.0.1:1/nothing');
    expect(refused.stderr).not.toContain('hunter2');
    const keyValues = await run(
      cwd,
      'compile',
      '--database',
      "host=127.0.0.1 port=1 dbname=nothing user=someone password='hunter 2'",
      '--contract',
      'contract.json',
    );
    expect(keyValues.code).toBe(EXIT.databaseUnreachable);
    expect(keyValues.stderr).toContain(
      'cannot connect to host=127.0.0.1 port=1 dbname=nothing user=someone password=***',
    );
    expect(keyValues.stderr).not.toContain('hunter');
  });

  it("drill --database: a receipt compiled there is current; once a record changes it is stale, with the built-in drill's verdict but for the adapter it names", async () => {
    const loaded = await run(cwd, 'load', '--database', url, '--schema', schema, '--records', 'records.jsonl');
    expect(loaded.code, loaded.stderr).toBe(EXIT.ok);
    const database = ['--database', url, '--schema', schema, '--contract', 'contract.json'];
    await run(cwd, 'compile', ...database, '--receipt-out', 'frozen-db.json');
    await run(
      cwd,
      'compile',
      '--records',
      'records.jsonl',
      '--contract',
      'contract.json',
      '--attest',
      'candidates',
      '--receipt-out',
      'frozen-file.json',
    );
    const ids = (file: string) => (JSON.parse(readFileSync(join(cwd, file), 'utf8')) as Receipt).receiptId;
    const builtinDrill = async (folder: string) =>
      run(cwd, 'drill', '--scenario', join(folder, 'scenario.json'), '--receipt', 'frozen-file.json', '--json');
    /** A database verdict with the built-in receipts' ids in place of the database receipts'. */
    const asBuiltin = (stdout: string, swaps: readonly (readonly [string, string])[]) =>
      swaps.reduce((text, [from, to]) => text.replaceAll(from, to), stdout);

    const current = await run(cwd, 'drill', ...database, '--receipt', 'frozen-db.json', '--json');
    expect(current.code, current.stderr).toBe(EXIT.ok);
    expect(JSON.parse(current.stdout)).toMatchObject({
      action: 'continue',
      code: 'RECEIPT_CURRENT',
      reperformed: true,
    });
    const currentBuiltin = await builtinDrill(join(repoRoot, 'fixtures/retry-policy'));
    expect(asBuiltin(current.stdout, [[ids('frozen-db.json'), ids('frozen-file.json')]])).toBe(currentBuiltin.stdout);

    // One record's text changed, in the database and in a scenario folder the built-in drill reads.
    const changed = join(cwd, 'changed');
    mkdirSync(changed, { recursive: true });
    const lines = readFileSync(join(cwd, 'records.jsonl'), 'utf8').trimEnd().split('\n');
    const edited = JSON.parse(lines[1] as string) as { tokens: number };
    edited.tokens += 1;
    lines[1] = JSON.stringify(edited);
    writeFileSync(join(changed, 'records.jsonl'), `${lines.join('\n')}\n`);
    writeFileSync(join(changed, 'scenario.json'), readFileSync(join(repoRoot, 'fixtures/retry-policy/scenario.json')));
    await run(cwd, 'load', '--database', url, '--schema', schema, '--records', join(changed, 'records.jsonl'));
    await run(cwd, 'compile', ...database, '--receipt-out', 'now-db.json');
    await run(
      cwd,
      'compile',
      '--records',
      join(changed, 'records.jsonl'),
      '--contract',
      'contract.json',
      '--attest',
      'candidates',
      '--receipt-out',
      'now-file.json',
    );
    const stale = await run(cwd, 'drill', ...database, '--receipt', 'frozen-db.json', '--json');
    expect(stale.code, stale.stderr).toBe(EXIT.recompileRequired);
    expect(JSON.parse(stale.stdout)).toMatchObject({
      action: 'recompile_required',
      currentReceiptId: ids('now-db.json'),
    });
    const staleBuiltin = await builtinDrill(changed);
    expect(staleBuiltin.code).toBe(EXIT.recompileRequired);
    expect(
      asBuiltin(stale.stdout, [
        [ids('frozen-db.json'), ids('frozen-file.json')],
        [ids('now-db.json'), ids('now-file.json')],
      ]),
    ).toBe(staleBuiltin.stdout);

    // A copy with one trace row edited and its id recomputed: the database reperforms it and refuses it.
    const { receiptId: _id, ...body } = JSON.parse(readFileSync(join(cwd, 'now-db.json'), 'utf8')) as Receipt;
    const forged = {
      ...body,
      trace: body.trace.map((row, index) =>
        index === 0
          ? { ...row, decision: row.decision === 'selected' ? ('excluded' as const) : ('selected' as const) }
          : row,
      ),
    };
    writeFileSync(
      join(cwd, 'forged.json'),
      JSON.stringify({ receiptId: receiptIdOf(sha256InNode, forged), ...forged }),
    );
    const refused = await run(cwd, 'drill', ...database, '--receipt', 'forged.json', '--json');
    expect(refused.code).toBe(EXIT.failClosed);
    expect(JSON.parse(refused.stdout)).toMatchObject({ code: 'RECEIPT_MISMATCH', reperformed: false });

    const mixed = await run(
      cwd,
      'drill',
      '--database',
      url,
      '--receipt',
      'now-db.json',
      '--scenario',
      'retry-policy',
      '--contract',
      'contract.json',
    );
    expect(mixed.code).toBe(EXIT.invalid);
    expect(mixed.stderr).toContain('--receipt and --contract alone');
  });

  it('drill --database judges a receipt the built-in store made on its claims, and names both stores', async () => {
    const loaded = await run(cwd, 'load', '--database', url, '--schema', schema, '--records', 'records.jsonl');
    expect(loaded.code, loaded.stderr).toBe(EXIT.ok);
    await run(
      cwd,
      'compile',
      '--records',
      'records.jsonl',
      '--contract',
      'contract.json',
      '--receipt-out',
      'made-by-sqlite.json',
    );
    const judged = await run(
      cwd,
      'drill',
      '--database',
      url,
      '--schema',
      schema,
      '--contract',
      'contract.json',
      '--receipt',
      'made-by-sqlite.json',
    );
    expect(judged.code, judged.stdout).toBe(EXIT.ok);
    expect(judged.stdout).toMatch(/^CURRENT — MAY CONTINUE \(RECEIPT_CURRENT\)/);
    expect(judged.stdout).toMatch(/made by the sqlite adapter \d+ and reperformed by the postgresql adapter \d+/);
    expect(judged.stdout).not.toContain('Do not continue');
  });

  it("check --database: every built-in scenario's checks pass with every compile and drill in the database, in a scratch schema it drops", async () => {
    const scratch = `${schema}_check`;
    const checked = await run(cwd, 'check', '--database', url, '--schema', scratch);
    expect(checked.code, checked.stdout).toBe(EXIT.ok);
    expect(checked.stdout).toMatch(
      /ok {3}retry-policy\/default: in the database, the built-in receipt but for the adapter it names/,
    );
    expect(checked.stdout).toMatch(
      /ok {3}refund-desk: fire drill with \S+ in the database: frozen receipt → \w+; recompiled → RECEIPT_CURRENT/,
    );
    expect(checked.stdout).toMatch(/^\d+ passed, 0 failed$/m);
    const left = await database.query<{ present: boolean }>('SELECT to_regnamespace($1) IS NOT NULL AS present', [
      scratch,
    ]);
    expect(left.rows[0]?.present).toBe(false);
    const refused = await run(cwd, 'check', '--database', url, '--schema', 'context_compiler');
    expect(refused.code).toBe(EXIT.invalid);
    expect(refused.stderr).toContain('give a scratch schema');
  });
});
