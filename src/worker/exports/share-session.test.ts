import { sha256 } from '../../core/test-support/sha256';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../../adapters/sqlite/compiler';
import { sharedDriver } from '../../core/test-support/node-driver';
import { buildRecord } from '../../core/test-support/builders';
import { readBuiltinScenarios } from '../workspace/builtin-sources';
import { createSession } from '../session';
import { encodeShareFragment, MAX_SHARE_FRAGMENT_CHARS, type SharedWorkspace } from './share-link';
import type { WorkspaceStorage } from '../workspace/workspace-storage';
import { memoryStorage } from '../test-support/memory-storage';

// One compiler per database, as in the worker: the record index owns the database's tables.
let compiler: SqliteCompiler;

async function newSession(storage: WorkspaceStorage = memoryStorage()) {
  const session = createSession({ compiler, storage, builtins: readBuiltinScenarios(sha256) });
  return { session, snapshot: await session.start() };
}

const file = (name: string, text: string) => ({ name, blob: new Blob([text]) });
const noProgress = () => undefined;

describe('share links', () => {
  beforeAll(async () => {
    compiler = createSqliteCompiler(sha256, await sharedDriver());
  });

  const fixture = (name: string) =>
    readFileSync(new URL(`../../../e2e/fixtures-data/${name}`, import.meta.url), 'utf8');

  it('carry edits, toggles and late changes to a fresh browser, which compiles the same receipt', async () => {
    const { session } = await newSession();
    const contract = session.current().loaded.scenario.contract;
    await session.updateContract({ value: { ...contract, query: 'retry timeouts failover' } });
    await session.select({
      scenarioKey: 'retry-policy',
      controls: ['future-reveal', 'generated-draft'],
      lateChanges: ['promote-run-0880'],
    });
    const sent = await session.compile('diagnostic');
    if (!sent.ok) throw new Error(sent.error.message);
    const link = await session.createShareLink();
    if (!link.ok) throw new Error(link.message);
    expect(link.fragment.startsWith('share=1.')).toBe(true);
    expect(link).toMatchObject({ files: 0, edits: 1 });

    const storage = memoryStorage();
    const { session: other } = await newSession(storage);
    expect(await other.checkShareLink(link.fragment)).toEqual({
      ok: true,
      files: 0,
      edits: 1,
      scenarioKey: 'retry-policy',
    });
    const opened = await other.openShareLink(link.fragment);
    if (!opened.ok) throw new Error(JSON.stringify(opened.issues));
    expect(opened.snapshot.selection).toEqual({
      scenarioKey: 'retry-policy',
      controls: ['future-reveal', 'generated-draft'],
      lateChanges: ['promote-run-0880'],
    });
    const received = await other.compile('diagnostic');
    if (!received.ok) throw new Error(received.error.message);
    expect(received.view.receiptId).toBe(sent.view.receiptId);
    // Saved like any workspace, so it survives a reload.
    expect(storage.saved()).toMatchObject({ selection: { scenarioKey: 'retry-policy' } });
  });

  it('carry loaded files (a scenario and its records file) and reproduce their receipt', async () => {
    const { session } = await newSession();
    const loaded = await session.loadFiles(
      [
        file('gateway-files.scenario.json', fixture('gateway-files.scenario.json')),
        file('gateway-files.records.jsonl', fixture('gateway-files.records.jsonl')),
      ],
      noProgress,
    );
    expect(loaded.status).toBe('loaded');
    const sent = await session.compile('diagnostic');
    if (!sent.ok) throw new Error(sent.error.message);
    const link = await session.createShareLink();
    if (!link.ok) throw new Error(link.message);
    expect(link).toMatchObject({ files: 2 });

    const { session: other } = await newSession();
    const opened = await other.openShareLink(link.fragment);
    if (!opened.ok) throw new Error(JSON.stringify(opened.issues));
    expect(opened.snapshot.selection.scenarioKey).toBe('loaded:gateway-files');
    const received = await other.compile('diagnostic');
    if (!received.ok) throw new Error(received.error.message);
    expect(received.view.receiptId).toBe(sent.view.receiptId);
  });

  it('refuse to carry loaded files over the stated size, saying what to do instead', async () => {
    const { session } = await newSession();
    const records = Array.from({ length: 900 }, (_, index) =>
      JSON.stringify(buildRecord({ id: `BIG-${index}`, text: 'x'.repeat(300) })),
    ).join('\n');
    const loaded = await session.loadFiles([file('big.jsonl', records)], noProgress);
    expect(loaded.status).toBe('loaded');
    const link = await session.createShareLink();
    expect(link).toEqual({
      ok: false,
      message: expect.stringMatching(
        /^No link was made: the loaded files are [\d,]+ KB; a share link carries at most 256 KB of files\. Use "Export scenario"/,
      ),
    });
  });

  it('that throws while its files are read (a worker limit) leaves the workspace as it was', async () => {
    const { session } = await newSession();
    const loaded = await session.loadFiles(
      [
        file('gateway-files.scenario.json', fixture('gateway-files.scenario.json')),
        file('gateway-files.records.jsonl', fixture('gateway-files.records.jsonl')),
      ],
      noProgress,
    );
    expect(loaded.status).toBe('loaded');
    const link = await session.createShareLink();
    if (!link.ok) throw new Error(link.message);
    const before = await session.compile('diagnostic');
    if (!before.ok) throw new Error(before.error.message);

    const { session: other } = await newSession();
    await other.updateContract({ value: { ...other.current().loaded.scenario.contract, tokenBudget: 80 } });
    const receiptBefore = await other.compile('diagnostic');
    const text = vi.spyOn(Blob.prototype, 'text').mockRejectedValue(new RangeError('Invalid string length'));
    try {
      await expect(other.openShareLink(link.fragment)).rejects.toThrow('Invalid string length');
    } finally {
      text.mockRestore();
    }
    expect(other.current().selection.scenarioKey).toBe('retry-policy');
    const after = await other.compile('diagnostic');
    if (!receiptBefore.ok || !after.ok) throw new Error('compile failed');
    expect(after.view.receiptId).toBe(receiptBefore.view.receiptId);
    expect(after.view.tokenBudget).toBe(80);
  });

  it('refuse a damaged, oversized, foreign or inconsistent link whole, and change nothing', async () => {
    const { session } = await newSession();
    const contract = session.current().loaded.scenario.contract;
    await session.updateContract({ value: { ...contract, tokenBudget: 80 } });
    const link = await session.createShareLink();
    if (!link.ok) throw new Error(link.message);
    const before = await session.compile('diagnostic');

    const refusals = [
      [link.fragment.slice(0, -12), /damaged/],
      [`share=1.${'A'.repeat(MAX_SHARE_FRAGMENT_CHARS)}`, /share links are limited to 200,000/],
      ['share=2.AAAA', /not a share link of this version/],
      [
        await encodeShareFragment({
          version: 1,
          loads: [],
          contractEdits: {},
          selection: { scenarioKey: 'retry-policy', controls: ['no-such-control'], lateChanges: [] },
        }),
        /switches on no-such-control, which scenario "retry-policy" does not declare/,
      ],
      [
        await encodeShareFragment({
          version: 1,
          loads: [],
          contractEdits: { 'retry-policy': { task: '' } },
          selection: { scenarioKey: 'retry-policy', controls: [], lateChanges: [] },
        }),
        /./,
      ],
    ] as const;
    for (const [fragment, message] of refusals) {
      const opened = await session.openShareLink(fragment);
      expect(opened.ok, fragment.slice(0, 40)).toBe(false);
      if (opened.ok) continue;
      expect(opened.issues[0]?.file).toMatch(/share link/);
      expect(opened.issues.map((problem) => problem.message).join(' ')).toMatch(message);
    }
    // A field the format does not know is named like any file's.
    const foreign = await encodeShareFragment({
      version: 1,
      loads: [],
      contractEdits: {},
      selection: { scenarioKey: 'retry-policy', controls: [], lateChanges: [] },
      extra: true,
    } as SharedWorkspace);
    expect(await session.openShareLink(foreign)).toEqual({
      ok: false,
      issues: [
        {
          file: 'share link',
          path: '(root)',
          code: 'FORMAT_RULE',
          args: { problem: 'Unrecognized key: "extra"' },
          message: expect.stringContaining('extra'),
        },
      ],
    });

    const after = await session.compile('diagnostic');
    if (!before.ok || !after.ok) throw new Error('compile failed');
    expect(after.view.receiptId).toBe(before.view.receiptId);
    expect(after.view.tokenBudget).toBe(80);
  });
});
