import { sha256 } from '../../core/test-support/sha256';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../../adapters/sqlite/compiler';
import { sharedDriver } from '../../core/test-support/node-driver';
import { buildContract, buildRecord } from '../../core/test-support/builders';
import { readBuiltinScenarios } from './builtin-sources';
import type { SavedWorkspace, WorkspaceEvent } from '../protocol';
import { createSession } from '../session';
import {
  STORAGE_CLEARED_MESSAGE,
  StorageClearedError,
  StorageTimeoutError,
  type WorkspaceStorage,
} from './workspace-storage';
import { memoryStorage } from '../test-support/memory-storage';

// One compiler per database, as in the worker: the record index owns the database's tables.
let compiler: SqliteCompiler;

async function newSession(storage: WorkspaceStorage = memoryStorage()) {
  const session = createSession({ compiler, storage, builtins: readBuiltinScenarios(sha256) });
  return { session, snapshot: await session.start() };
}

const file = (name: string, text: string) => ({ name, blob: new Blob([text]) });
const noProgress = () => undefined;

describe('workspace', () => {
  beforeAll(async () => {
    compiler = createSqliteCompiler(sha256, await sharedDriver());
  });

  it('reports every change of the workspace, and a new session restores what was reported even when storage kept nothing', async () => {
    const broken: WorkspaceStorage = {
      read: async () => undefined,
      write: async () => Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError')),
      clear: async () => undefined,
      watch: () => undefined,
    };
    const events: WorkspaceEvent[] = [];
    const session = createSession({ compiler, storage: broken, builtins: readBuiltinScenarios(sha256) });
    const started = await session.start(null, (event) => events.push(event));
    expect(events).toHaveLength(1);
    const scenario = {
      id: 'mine',
      title: 'My scenario',
      contract: buildContract(),
      records: [buildRecord({ id: 'R-1' })],
    };
    await session.loadFiles([file('mine.json', JSON.stringify(scenario))], noProgress);
    const contract = started.scenarios[0]?.contract;
    await session.select({ scenarioKey: 'retry-policy', controls: [], lateChanges: [] });
    await session.updateContract({ value: { ...contract, tokenBudget: 500 } });
    await session.select({ scenarioKey: 'loaded:mine', controls: [], lateChanges: [] });
    // A selection's write is not waited for: its outcome arrives as an event.
    await vi.waitFor(() => expect(events.at(-1)?.workspace.selection.scenarioKey).toBe('loaded:mine'));
    const last = events.at(-1);
    expect(last?.storage.status).toBe('unavailable');
    expect(last?.workspace.loads.map((load) => load.files.map((entry) => entry.name))).toEqual([['mine.json']]);

    const restored = await createSession({ compiler, storage: broken, builtins: readBuiltinScenarios(sha256) }).start(
      last?.workspace ?? null,
      () => undefined,
    );
    expect(restored.selection.scenarioKey).toBe('loaded:mine');
    expect(restored.scenarios.find((entry) => entry.key === 'loaded:mine')?.recordCount).toBe(1);
    expect(restored.scenarios.find((entry) => entry.key === 'retry-policy')).toMatchObject({
      contractEdited: true,
      contract: { tokenBudget: 500 },
    });
    expect(restored.restoreIssues).toEqual([]);
  });

  it('a selection compiles without waiting for its write, whose outcome arrives as a workspace event', async () => {
    const storage = memoryStorage();
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A write that lands only when released, as a slow IndexedDB transaction would.
    const slow: WorkspaceStorage = {
      ...storage,
      write: async (workspace) => {
        await released;
        await storage.write(workspace);
      },
    };
    const events: WorkspaceEvent[] = [];
    const session = createSession({ compiler, storage: slow, builtins: readBuiltinScenarios(sha256) });
    await session.start(null, (event) => events.push(event));
    const toggled = await session.select({
      scenarioKey: 'retry-policy',
      controls: ['remove-provenance'],
      lateChanges: [],
    });
    expect(toggled.selection.controls).toEqual(['remove-provenance']);
    expect(await session.compile('diagnostic')).toMatchObject({ ok: true, view: { status: 'fail_closed' } });
    expect(storage.saved()).toBeUndefined();
    const heard = events.length;
    release();
    await vi.waitFor(() => expect(storage.saved()).toMatchObject({ selection: { controls: ['remove-provenance'] } }));
    expect(events.slice(heard)).toEqual([expect.objectContaining({ storage: { status: 'persistent' } })]);
  });

  it('storage that never answers is named, and the built-ins work in memory', async () => {
    const silent: WorkspaceStorage = {
      read: () => Promise.reject(new StorageTimeoutError(5)),
      write: () => Promise.reject(new StorageTimeoutError(5)),
      clear: async () => undefined,
      watch: () => undefined,
    };
    const session = createSession({ compiler, storage: silent, builtins: readBuiltinScenarios(sha256) });
    const started = await session.start();
    expect(started.storage).toEqual({
      status: 'unavailable',
      message: expect.stringMatching(/^Browser storage did not answer within 5 seconds: working in memory only/),
    });
    await session.select({ scenarioKey: 'retry-policy', controls: ['remove-provenance'], lateChanges: [] });
    expect(await session.compile('diagnostic')).toMatchObject({ ok: true, view: { status: 'fail_closed' } });
  });

  it('a saved workspace whose files were deleted says so on reload and keeps the edits that still apply', async () => {
    const storage = memoryStorage();
    const { session, snapshot } = await newSession(storage);
    const contract = snapshot.scenarios[0]?.contract;
    await session.updateContract({ value: { ...contract, tokenBudget: 500 } });
    const { loads: _files, ...withoutFiles } = storage.saved() as SavedWorkspace;
    const reloaded = createSession({
      compiler,
      storage: { ...storage, read: async () => ({ workspace: withoutFiles, filesMissing: true }) },
      builtins: readBuiltinScenarios(sha256),
    });
    const restored = await reloaded.start();
    expect(restored.restoreIssues).toEqual([
      {
        file: 'saved workspace',
        path: 'loads',
        code: 'SAVED_FILES_MISSING',
        args: {},
        message:
          'the loaded files were missing from browser storage (its data may have been cleared while the app was open); restored the selection and contract edits that do not depend on them',
      },
    ]);
    expect(restored.scenarios[0]).toMatchObject({ contractEdited: true, contract: { tokenBudget: 500 } });
  });

  it('storage cleared under the page is said at once, nothing is written again until asked, and "save again" writes everything', async () => {
    const storage = memoryStorage();
    let clearedUnderUs: () => void = () => undefined;
    let failNextWrite = false;
    const watched: WorkspaceStorage = {
      ...storage,
      write: async (workspace) => {
        if (failNextWrite) throw new StorageClearedError();
        await storage.write(workspace);
      },
      watch: (listener) => {
        clearedUnderUs = listener;
      },
    };
    const events: WorkspaceEvent[] = [];
    const session = createSession({ compiler, storage: watched, builtins: readBuiltinScenarios(sha256) });
    await session.start(null, (event) => events.push(event));
    await storage.clear();
    clearedUnderUs();
    expect(events.at(-1)?.storage).toEqual({ status: 'cleared', message: STORAGE_CLEARED_MESSAGE });

    const toggled = await session.select({
      scenarioKey: 'retry-policy',
      controls: ['remove-provenance'],
      lateChanges: [],
    });
    expect(toggled.storage.status).toBe('cleared');
    expect(storage.saved()).toBeUndefined();

    const saved = await session.saveWorkspace();
    expect(saved.storage).toEqual({ status: 'persistent' });
    expect(storage.saved()).toMatchObject({ selection: { controls: ['remove-provenance'] } });

    // The write path finds the loss too (no close event in some browsers).
    failNextWrite = true;
    await session.select({ scenarioKey: 'retry-policy', controls: [], lateChanges: [] });
    await vi.waitFor(() =>
      expect(events.at(-1)?.storage).toEqual({ status: 'cleared', message: STORAGE_CLEARED_MESSAGE }),
    );
    expect(session.current().selection.controls).toEqual([]);
  });

  it('shows contract errors at their path and keeps the last valid contract', async () => {
    const { session, snapshot } = await newSession();
    const contract = snapshot.scenarios[0]?.contract;
    const update = await session.updateContract({ value: { ...contract, tokenBudget: 'lots' } });
    expect(update.ok).toBe(false);
    if (!update.ok) expect(update.issues[0]?.path).toBe('tokenBudget');
    const raw = await session.updateContract({ text: '{"task": ' });
    expect(raw.ok).toBe(false);
    const edited = await session.updateContract({ value: { ...contract, tokenBudget: 500 } });
    expect(edited.ok && edited.snapshot.scenarios[0]?.contractEdited).toBe(true);
  });

  it('checks contract text as typed with the same schema as Apply, and applies nothing', async () => {
    const { session, snapshot } = await newSession();
    const contract = snapshot.scenarios[0]?.contract;
    const valid = JSON.stringify(contract, null, 2);
    expect(await session.checkContract(valid)).toEqual([]);
    const misspelt = valid.replace('"tokenBudget"', '"tokenBudgte"');
    const issues = await session.checkContract(misspelt);
    const line = misspelt.split('\n').findIndex((text) => text.includes('tokenBudgte')) + 1;
    const unknown = issues.find((issue) => issue.code === 'UNKNOWN_FIELDS');
    expect(unknown).toMatchObject({ file: 'contract.json', line });
    expect(unknown?.message).toContain('tokenBudget');
    expect(issues.map((issue) => issue.path)).toContain('tokenBudget');
    const after = await session.select(session.current().selection);
    expect(after.scenarios[0]?.contractEdited).toBe(false);
  });
});
