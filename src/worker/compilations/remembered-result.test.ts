import { sha256 } from '../../core/test-support/sha256';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../../adapters/sqlite/compiler';
import { sharedDriver } from '../../core/test-support/node-driver';
import { readBuiltinScenarios } from '../workspace/builtin-sources';
import { DEFAULT_TRACE_QUERY, TRACE_PAGE_SIZE } from '../../shared/trace-page';
import type { SavedWorkspace } from '../protocol';
import { inputsKeyOf, readRememberedResult } from './remembered-result';
import type { RememberedEntry, ResultMemory } from '../workspace/workspace-storage';
import { REMEMBER_AFTER_MS } from './remember-soon';
import { createSession } from '../session';
import type { WorkspaceStorage } from '../workspace/workspace-storage';

const BUILD = '/assets/compiler.worker-abc123.js';

function createMemoryStorage(): WorkspaceStorage & ResultMemory & { writes: RememberedEntry[] } {
  let workspace: unknown;
  let remembered: unknown;
  const writes: RememberedEntry[] = [];
  return {
    read: async () => (workspace === undefined ? undefined : { workspace, filesMissing: false }),
    write: async (value) => {
      workspace = value;
    },
    clear: async () => {
      workspace = undefined;
      remembered = undefined;
    },
    watch: () => undefined,
    readRemembered: async () => remembered,
    writeRemembered: async (entry) => {
      writes.push(entry);
      remembered = entry;
    },
    writes,
  };
}

const workspace = (change: Partial<SavedWorkspace> = {}): SavedWorkspace => ({
  version: 1,
  loads: [{ baseKey: 'retry-policy', files: [{ name: 'records.jsonl', blob: new Blob(['{}\n']) }], stored: 'load-1' }],
  contractEdits: {},
  selection: { scenarioKey: 'loaded:x', controls: ['deny-one-record'], lateChanges: [] },
  ...change,
});

describe('the key of a remembered result', () => {
  it('names the build, each load by its database id, file names and sizes, the edits and the selection', () => {
    const key = inputsKeyOf(sha256, BUILD, workspace());
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    // Blobs are compared by name and size only: the database id says which load they belong to.
    expect(inputsKeyOf(sha256, BUILD, workspace())).toBe(key);
    const others = [
      inputsKeyOf(sha256, '/assets/compiler.worker-def456.js', workspace()),
      inputsKeyOf(sha256, BUILD, workspace({ loads: [{ ...workspace().loads[0]!, stored: 'load-2' }] })),
      inputsKeyOf(
        sha256,
        BUILD,
        workspace({
          loads: [{ ...workspace().loads[0]!, files: [{ name: 'records.jsonl', blob: new Blob(['{}\n\n']) }] }],
        }),
      ),
      inputsKeyOf(sha256, BUILD, workspace({ contractEdits: { 'loaded:x': { tokenBudget: 10 } } })),
      inputsKeyOf(sha256, BUILD, workspace({ selection: { scenarioKey: 'loaded:x', controls: [], lateChanges: [] } })),
      inputsKeyOf(
        sha256,
        BUILD,
        workspace({ selection: { scenarioKey: 'loaded:x', controls: ['deny-one-record'], lateChanges: ['late'] } }),
      ),
    ];
    expect(new Set([key, ...others]).size).toBe(others.length + 1);
  });

  it('is null when a load has no database id: nothing would say its files are the ones compiled', () => {
    const { stored: _stored, ...withoutId } = workspace().loads[0]!;
    expect(inputsKeyOf(sha256, BUILD, workspace({ loads: [withoutId] }))).toBeNull();
    expect(inputsKeyOf(sha256, BUILD, workspace({ loads: [] }))).not.toBeNull();
  });
});

describe('a session remembering the result it showed', () => {
  let compiler: SqliteCompiler;
  beforeAll(async () => {
    compiler = createSqliteCompiler(sha256, await sharedDriver());
  });
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const startSession = async (storage: WorkspaceStorage & ResultMemory, saves = true) => {
    const session = createSession({
      compiler,
      storage,
      builtins: readBuiltinScenarios(sha256),
      database: saves ? undefined : { kind: 'memory', reason: 'other-tab', saves: false, message: 'another tab' },
      remember: { memory: storage, build: BUILD },
    });
    await session.start();
    return session;
  };

  const compiledView = async (
    session: Awaited<ReturnType<typeof startSession>>,
    audience: 'diagnostic' | 'user' = 'diagnostic',
  ) => {
    const compiled = await session.compile(audience);
    if (!compiled.ok) throw new Error(compiled.error.message);
    return compiled.view;
  };

  it('keeps the last result once results stop, which a reload reads back and a fresh compilation reproduces', async () => {
    const storage = createMemoryStorage();
    const session = await startSession(storage);
    await session.select({ scenarioKey: 'retry-policy', controls: ['future-reveal'], lateChanges: [] });
    await compiledView(session);
    await session.select({ scenarioKey: 'retry-policy', controls: [], lateChanges: [] });
    const shown = await compiledView(session, 'user');
    await vi.advanceTimersByTimeAsync(REMEMBER_AFTER_MS - 1);
    expect(storage.writes).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    // Two compilations in a burst: one write, of the last.
    expect(storage.writes).toHaveLength(1);

    const remembered = await readRememberedResult(sha256, storage, BUILD);
    expect(remembered?.view).toEqual({ ...shown, compilation: 0 });
    const page = session.queryTrace({ ...DEFAULT_TRACE_QUERY, audience: 'user', offset: 0, limit: TRACE_PAGE_SIZE });
    expect(page.rows.length).toBeGreaterThan(0);
    expect(remembered?.firstPage).toEqual(page);

    // What the next boot compiles from the same storage is what was remembered.
    const reloaded = await startSession(storage);
    expect((await compiledView(reloaded, 'user')).userViewId).toMatch(/^[0-9a-f]{64}$/);
    expect((await compiledView(reloaded, 'user')).userViewId).toBe(remembered?.view.userViewId);
    // Another build shows nothing remembered.
    expect(await readRememberedResult(sha256, storage, '/assets/compiler.worker-other.js')).toBeNull();
  });

  it('keeps nothing new while a saved change is not compiled yet, and a reload then shows nothing remembered', async () => {
    const storage = createMemoryStorage();
    const session = await startSession(storage);
    await session.select({ scenarioKey: 'retry-policy', controls: [], lateChanges: [] });
    await compiledView(session);
    await vi.advanceTimersByTimeAsync(REMEMBER_AFTER_MS);
    expect(storage.writes).toHaveLength(1);
    expect(await readRememberedResult(sha256, storage, BUILD)).not.toBeNull();

    await compiledView(session);
    // The toggle is saved before its compilation comes: the result on hand is no longer the saved workspace's.
    await session.select({ scenarioKey: 'retry-policy', controls: ['future-reveal'], lateChanges: [] });
    await vi.advanceTimersByTimeAsync(REMEMBER_AFTER_MS);
    expect(storage.writes).toHaveLength(1);
    expect(await readRememberedResult(sha256, storage, BUILD)).toBeNull();
  });

  it('a tab working on a copy keeps nothing, and a reset forgets what was kept', async () => {
    const copy = createMemoryStorage();
    await compiledView(await startSession(copy, false));
    await vi.advanceTimersByTimeAsync(REMEMBER_AFTER_MS);
    expect(copy.writes).toHaveLength(0);

    const storage = createMemoryStorage();
    const session = await startSession(storage);
    await compiledView(session);
    await session.resetWorkspace();
    await vi.advanceTimersByTimeAsync(REMEMBER_AFTER_MS);
    expect(storage.writes).toHaveLength(0);
    expect(await readRememberedResult(sha256, storage, BUILD)).toBeNull();
  });
});

describe('reading a remembered result back', () => {
  const entryFor = (saved: SavedWorkspace): RememberedEntry => ({
    key: inputsKeyOf(sha256, BUILD, saved) ?? '',
    result: {
      view: { receiptId: 'r', userViewId: null } as never,
      firstPage: { offset: 0, rows: [], matched: 0, total: 0 },
    },
  });
  const stored = (
    workspaceValue: unknown,
    remembered: unknown,
    filesMissing = false,
  ): WorkspaceStorage & ResultMemory => ({
    read: async () => ({ workspace: workspaceValue, filesMissing }),
    write: async () => undefined,
    clear: async () => undefined,
    watch: () => undefined,
    readRemembered: async () => remembered,
    writeRemembered: async () => undefined,
  });

  it('gives the entry kept for the saved workspace, and nothing for a damaged entry, a workspace without its files, or failing storage', async () => {
    const saved = workspace();
    const source = stored(saved, entryFor(saved));
    expect(await readRememberedResult(sha256, source, BUILD)).toEqual(entryFor(saved).result);
    const cases = [
      stored(saved, { key: entryFor(saved).key }),
      stored(saved, { ...entryFor(saved), key: 42 }),
      stored(saved, entryFor(saved), true),
      stored({ version: 2 }, entryFor(saved)),
      stored(saved, undefined),
      { ...source, readRemembered: () => Promise.reject(new Error('storage refused')) },
    ];
    for (const failing of cases) expect(await readRememberedResult(sha256, failing, BUILD)).toBeNull();
  });
});
