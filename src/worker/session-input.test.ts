import { sha256 } from '../core/test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../adapters/sqlite/compiler';
import { buildContract, buildRecord } from '../core/test-support/builders';
import { sharedDriver } from '../core/test-support/node-driver';
import { readBuiltinScenarios } from './workspace/builtin-sources';
import { createSession } from './session';
import type { WorkspaceStorage } from './workspace/workspace-storage';

/** The app's file intake on unlucky and hostile files: what it recognised, what is wrong, where. */
const storage: WorkspaceStorage = {
  read: async () => undefined,
  write: async () => undefined,
  clear: async () => undefined,
  watch: () => undefined,
};
let compiler: SqliteCompiler;

beforeAll(async () => {
  compiler = createSqliteCompiler(sha256, await sharedDriver());
});

async function newSession() {
  const session = createSession({ compiler, storage, builtins: readBuiltinScenarios(sha256) });
  await session.start();
  return session;
}

const file = (name: string, text: string | Uint8Array<ArrayBuffer>) => ({ name, blob: new Blob([text]) });
const noProgress = () => undefined;
const line = (overrides: Parameters<typeof buildRecord>[0] = {}) => JSON.stringify(buildRecord(overrides));

async function rejected(name: string, text: string) {
  const result = await (await newSession()).loadFiles([file(name, text)], noProgress);
  if (result.status !== 'rejected') throw new Error(`expected ${name} to be refused, got ${result.status}`);
  return result;
}

/** A records file loaded, and the lines of it the diagnostic view lists as not records. */
async function unreadableLines(name: string, text: string) {
  const session = await newSession();
  const result = await session.loadFiles([file(name, text)], noProgress);
  if (result.status !== 'loaded') throw new Error(`expected ${name} to load, got ${result.status}`);
  const compiled = await session.compile('diagnostic');
  if (!compiled.ok) throw new Error(`expected ${name} to compile: ${compiled.error.message}`);
  return compiled.view.unreadable;
}

describe('file intake in the worker session', () => {
  it('says a contract without a task was read as a contract, and names the missing field', async () => {
    const { task: _task, ...rest } = buildContract();
    const result = await rejected('contract.json', JSON.stringify(rest, null, 2));
    expect(result.summaries).toEqual([
      {
        file: 'contract.json',
        message: expect.stringMatching(
          /^read as a contract \(recognised by principals, .*\): not a valid contract: 1 problem$/,
        ),
      },
    ]);
    expect(result.issues).toEqual([
      {
        file: 'contract.json',
        line: 1,
        path: 'task',
        code: 'FIELD_MISSING',
        args: { expected: 'string' },
        message: 'required field missing (expected string)',
      },
    ]);
  });

  it('names the line of a truncated records file that has one line', async () => {
    const issues = await unreadableLines('cut.jsonl', line({ id: 'a' }).slice(0, 50));
    expect(issues[0]).toMatchObject({
      file: 'cut.jsonl',
      line: 1,
      path: '(root)',
      message: expect.stringMatching(/^not valid JSON: Unterminated string/),
    });
  });

  it('reads a records file whose first line is longer than the head it looks at', async () => {
    const long = line({ id: 'a', text: 'z'.repeat(600_000) });
    const session = await newSession();
    const ok = await session.loadFiles([file('long.jsonl', `${long}\n${line({ id: 'b' })}\n`)], noProgress);
    expect(ok.status).toBe('loaded');
    const issues = await unreadableLines('long.jsonl', `${long.slice(0, -2)}\n${line({ id: 'b' })}\n`);
    expect(issues[0]).toMatchObject({ line: 1, path: '(root)' });
    expect(issues[0]?.message.length).toBeLessThan(300);
  });

  it('accepts a byte order mark on every kind of file', async () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
    const withBom = (text: string) => new Uint8Array([...bom, ...new TextEncoder().encode(text)]);
    const session = await newSession();
    const records = await session.loadFiles([file('r.jsonl', withBom(`${line({ id: 'a' })}\n`))], noProgress);
    expect(records.status).toBe('loaded');
    const scenario = { id: 'bom', title: 'BOM', contract: buildContract(), records: [buildRecord({ id: 'a' })] };
    expect((await session.loadFiles([file('s.json', withBom(JSON.stringify(scenario)))], noProgress)).status).toBe(
      'loaded',
    );
    expect(
      (await session.loadFiles([file('c.json', withBom(JSON.stringify(buildContract())))], noProgress)).status,
    ).toBe('loaded');
    const receipt = session.receiptJson() ?? (await session.compile('diagnostic'), session.receiptJson());
    const checked = await session.loadFiles([file('receipt.json', withBom(receipt ?? ''))], noProgress);
    expect(checked.status === 'loaded' && checked.receiptChecks).toHaveLength(1);
  });

  it('names the key, line and path of a duplicate key in a records line (not a record) and refuses it in a receipt', async () => {
    const twice = line({ id: 'b', tokens: 30 }).replace('"tokens":30', '"tokens":30,"tokens":0');
    const records = await unreadableLines('dup.jsonl', `${line({ id: 'a' })}\n${twice}\n`);
    expect(records).toEqual([
      {
        file: 'dup.jsonl',
        line: 2,
        path: 'tokens',
        code: 'DUPLICATE_KEY',
        args: { key: '"tokens"', firstLine: null },
        message: 'duplicate key "tokens"; a key may appear once per object',
      },
    ]);
    const session = await newSession();
    await session.compile('diagnostic');
    const receipt = (session.receiptJson() ?? '').replace(
      '"outcome":"packet"',
      '"outcome":"packet","outcome":"fail_closed"',
    );
    const refused = await rejected('receipt.json', receipt);
    expect(refused.summaries[0]?.message).toMatch(/^read as a receipt/);
    expect(refused.issues[0]).toMatchObject({
      line: 1,
      path: 'outcome',
      message: expect.stringMatching(/^duplicate key "outcome"/),
    });
  });

  it('refuses a contract over the document limit without reading it whole', async () => {
    const head = new TextEncoder().encode(`{"task":"x","principals":[],"query":"${' '.repeat(1 << 20)}`);
    const pad = new Uint8Array(1 << 20).fill(0x20);
    const big = new Blob([head, ...Array.from({ length: 256 }, () => pad)]);
    const result = await (await newSession()).loadFiles([{ name: 'huge.json', blob: big }], noProgress);
    if (result.status !== 'rejected') throw new Error('expected a refusal');
    expect(result.summaries[0]?.message).toMatch(/^read as a contract .*: too large$/);
    expect(result.issues[0]?.message).toMatch(/^is 257 MB; a contract, scenario or receipt may be at most 256 MB/);
  });

  it('says what an unrecognised file starts with, escaped', async () => {
    const result = await rejected('notes.txt', '\u001b]0;owned\u0007 hello');
    expect(result.issues[0]?.message).toContain('\\u001b]0;owned\\u0007');
    expect(result.issues[0]?.message).not.toMatch(/\u001b/);
  });
});
