import { sha256 } from '../core/test-support/sha256';
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../adapters/sqlite/compiler';
import { buildRecord } from '../core/test-support/builders';
import { freshDriver } from '../core/test-support/node-driver';
import { createWasmDriver } from '../sqlite/wasm-driver';
import { readBuiltinScenarios } from './workspace/builtin-sources';
import { createDatabaseImages, ImageNotSaved } from './workspace/database-image';
import type { CompileResponse, LoadProgress } from './protocol';
import { createRecordStore } from './workspace/record-store';
import { STORE_SLICE } from './workspace/background-saves';
import { ATTEMPTS_AFTER_RESULT_FROM } from './compilations/compilations';
import { BACKGROUND_CORPUS_FROM } from './workspace/corpus-index';
import { createSession } from './session';
import { memoryImageFiles } from './test-support/memory-image-files';
import { memoryStorage } from './test-support/memory-storage';

const SIZE = BACKGROUND_CORPUS_FROM + 500;
const recordsFile = (prefix: string) => ({
  name: `${prefix}.jsonl`,
  blob: new Blob([
    Array.from({ length: SIZE }, (_, position) =>
      JSON.stringify(
        buildRecord({
          id: `${prefix}-${position}`,
          text: `retry timeouts ${position % 5 === 0 ? 'failover drill' : 'note'} ${position}`,
        }),
      ),
    ).join('\n'),
  ]),
});

const viewOf = (response: CompileResponse | null) => {
  if (!response?.ok) throw new Error('expected a compiled view');
  return response.view;
};

let compiler: SqliteCompiler;

describe('a large workspace in the session', () => {
  beforeEach(async () => {
    compiler = createSqliteCompiler(sha256, await freshDriver());
  });

  it('answers a compile or a change of view without the evidence attempts, then gives them for that compilation only', async () => {
    const session = createSession({ compiler, storage: memoryStorage(), builtins: readBuiltinScenarios(sha256) });
    await session.start();
    expect((await session.loadFiles([recordsFile('big')], () => undefined)).status).toBe('loaded');
    const answered = viewOf(await session.compile('diagnostic'));
    expect(SIZE).toBeGreaterThanOrEqual(ATTEMPTS_AFTER_RESULT_FROM);
    expect(answered.evidenceAttempts).toBeNull();
    const attempts = session.firstEvidenceAttempts(answered.compilation, 'diagnostic');
    expect(attempts?.map((slot) => slot.proposition)).toEqual(
      answered.compiledContract.requiredPropositions.map((proposition) => proposition.id),
    );
    // Views nobody waits for carry them: the baselines filled in, the same compilation.
    expect(viewOf(await session.awaitBaselines(answered.compilation, () => undefined)).evidenceAttempts).toEqual(
      attempts,
    );
    const user = viewOf(await session.disclose('user'));
    expect(user.evidenceAttempts).toBeNull();
    expect(session.firstEvidenceAttempts(user.compilation, 'user')).not.toBeNull();
    await session.compile('diagnostic');
    expect(session.firstEvidenceAttempts(answered.compilation, 'diagnostic')).toBeNull();
  });

  it('shows the packet before the whole-corpus index, answers other calls while it is built, then fills in the same baselines a fresh compiler gives', async () => {
    const session = createSession({ compiler, storage: memoryStorage(), builtins: readBuiltinScenarios(sha256) });
    await session.start();
    const loaded = await session.loadFiles([recordsFile('big')], () => undefined);
    expect(loaded.status).toBe('loaded');

    const first = viewOf(await session.compile('diagnostic'));
    expect(first.columns.naive).toBeNull();
    expect(first.baselineIndexing).toEqual({ done: 0, total: SIZE });

    const progress: number[] = [];
    const filled = session.awaitBaselines(first.compilation, ({ done }) => progress.push(done));
    // Between two slices the worker answers the page: the user view and a trace window come back before the index is
    // built.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(viewOf(await session.disclose('user')).columns.naive).toBeNull();
    expect(
      session.queryTrace({
        audience: 'diagnostic',
        sortKey: 'order',
        descending: false,
        decision: 'all',
        code: 'all',
        text: '',
        offset: 0,
        limit: 10,
      }).total,
    ).toBe(SIZE);
    const done = viewOf(await filled);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toBe(SIZE);
    expect(done.receiptId).toBe(first.receiptId);
    expect(done.baselineIndexing).toBeNull();

    const fresh = createSession({
      compiler: createSqliteCompiler(sha256, await freshDriver()),
      storage: memoryStorage(),
      builtins: readBuiltinScenarios(sha256),
    });
    await fresh.start();
    await fresh.loadFiles([recordsFile('big')], () => undefined);
    const freshView = viewOf(await fresh.compile('diagnostic'));
    const freshDone = viewOf(await fresh.awaitBaselines(freshView.compilation, () => undefined));
    expect(done.columns).toEqual(freshDone.columns);
    // Once the index is complete, a new compilation has its baselines at once.
    expect(viewOf(await session.compile('diagnostic')).columns.naive).toEqual(done.columns.naive);
  });

  it('answers a wait for a compilation that was replaced meanwhile with null', async () => {
    const session = createSession({ compiler, storage: memoryStorage(), builtins: readBuiltinScenarios(sha256) });
    await session.start();
    await session.loadFiles([recordsFile('big')], () => undefined);
    const first = viewOf(await session.compile('diagnostic'));
    const waiting = session.awaitBaselines(first.compilation, () => undefined);
    const second = viewOf(await session.compile('diagnostic'));
    expect(await waiting).toBeNull();
    expect(viewOf(await session.awaitBaselines(second.compilation, () => undefined)).columns.naive).not.toBeNull();
  });

  it('cancels while indexing: nothing is added or saved, and the previous workspace compiles to the same receipt', async () => {
    const storage = memoryStorage();
    const session = createSession({ compiler, storage, builtins: readBuiltinScenarios(sha256) });
    await session.start();
    await session.loadFiles([recordsFile('first')], () => undefined);
    const before = viewOf(await session.compile('diagnostic'));
    const saved = storage.saved();
    const writes = storage.writes();

    const phases: LoadProgress['phase'][] = [];
    const result = await session.loadFiles([recordsFile('second')], (progress) => {
      phases.push(progress.phase);
      if (progress.phase === 'indexing') void session.cancelLoad();
    });
    expect(result).toEqual({ status: 'cancelled' });
    expect(phases).toContain('reading');
    // The cancel was seen after the first slice, not after the whole index.
    expect(phases.filter((phase) => phase === 'indexing').length).toBeLessThan(3);
    expect(storage.writes()).toBe(writes);
    expect(storage.saved()).toBe(saved);
    const snapshot = await session.select({ scenarioKey: before.scenarioKey, controls: [], lateChanges: [] });
    expect(snapshot.scenarios.map((scenario) => scenario.key)).not.toContain('loaded:second.jsonl');
    const after = viewOf(await session.compile('diagnostic'));
    expect(after.receiptId).toBe(before.receiptId);
    expect(viewOf(await session.awaitBaselines(after.compilation, () => undefined)).columns).toEqual(
      viewOf(
        await (async () => {
          const fresh = createSession({
            compiler: createSqliteCompiler(sha256, await freshDriver()),
            storage: memoryStorage(),
            builtins: readBuiltinScenarios(sha256),
          });
          await fresh.start();
          await fresh.loadFiles([recordsFile('first')], () => undefined);
          const view = viewOf(await fresh.compile('diagnostic'));
          return fresh.awaitBaselines(view.compilation, () => undefined);
        })(),
      ).columns,
    );
  });

  it('cancels while reading', async () => {
    const storage = memoryStorage();
    const session = createSession({ compiler, storage, builtins: readBuiltinScenarios(sha256) });
    await session.start();
    const writes = storage.writes();
    const phases: LoadProgress['phase'][] = [];
    const result = await session.loadFiles([recordsFile('third')], (progress) => {
      phases.push(progress.phase);
      void session.cancelLoad();
    });
    expect(result).toEqual({ status: 'cancelled' });
    expect(phases).not.toContain('indexing');
    expect(storage.writes()).toBe(writes);
  });
});

describe('a workspace whose database survives a reload', () => {
  it('restores the records from the image of the database without reading the file or writing a row, to the same receipt bytes; Reset deletes the image', async () => {
    performance.clearMeasures();
    const sqlite3 = await sqlite3InitModule();
    const files = memoryImageFiles();
    const images = createDatabaseImages(sqlite3, files);
    let saves = 0;
    const opened = () => {
      const db = new sqlite3.oo1.DB(':memory:', 'c');
      const driver = createWasmDriver(sqlite3, db);
      const save = (between: () => Promise<void>) => {
        saves += 1;
        return images.save(db, 64 * 1024, between);
      };
      return { db, driver, image: { save, clear: () => images.clear() } };
    };
    const storage = memoryStorage();
    const before = opened();
    const first = createSession({
      compiler: createSqliteCompiler(sha256, before.driver),
      storage,
      builtins: readBuiltinScenarios(sha256),
      database: { kind: 'opfs' },
      records: createRecordStore(before.driver),
      image: before.image,
    });
    await first.start();
    const phases = new Set<string>();
    expect((await first.loadFiles([recordsFile('kept')], ({ phase }) => phases.add(phase))).status).toBe('loaded');
    expect([...phases]).toEqual(['reading', 'indexing']);
    const compiled = viewOf(await first.compile('diagnostic'));
    const receipt = first.receiptJson();
    await first.awaitBaselines(compiled.compilation, () => undefined);
    // The records are stored and the image saved in the background after the load; a reload before that would read the
    // file again.
    await vi.waitFor(() => expect(performance.getEntriesByName('cc:store-records')).toHaveLength(1), {
      timeout: 30_000,
    });
    // The whole-corpus index asked for a save too; the one copy made after it ended takes in both.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(saves).toBe(1);

    // A reload: a new database in memory, restored from the image, and the saved workspace read back.
    performance.clearMeasures();
    performance.clearMarks();
    const after = opened();
    expect(images.restoreInto(after.db)).toBe(true);
    const second = createSession({
      compiler: createSqliteCompiler(sha256, after.driver),
      storage,
      builtins: readBuiltinScenarios(sha256),
      database: { kind: 'opfs' },
      records: createRecordStore(after.driver),
      image: after.image,
    });
    const snapshot = await second.start();
    expect(snapshot.selection.scenarioKey).toBe('loaded:kept.jsonl');
    expect(performance.getEntriesByName('cc:read-records')).toHaveLength(0);
    expect(performance.getEntriesByName('cc:restore-records')).toHaveLength(1);
    const [restoreIndex] = performance.getEntriesByName('cc:restore-index') as PerformanceMark[];
    expect(restoreIndex?.detail).toEqual({ inserted: 0, updated: 0, deleted: 0 });
    const recompiled = viewOf(await second.compile('diagnostic'));
    expect(second.receiptJson()).toBe(receipt);
    // The image held the whole-corpus index too: the baselines come without indexing, and nothing is saved again.
    await second.awaitBaselines(recompiled.compilation, () => undefined);
    // A save starts within two tasks of being asked for: 200 ms is ample to see one that should not happen.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(saves).toBe(1);

    // Reset clears the records kept in the database and deletes its image, along with the saved workspace.
    await second.resetWorkspace();
    expect(after.driver.all('SELECT count(*) FROM stored_records')).toEqual([[0]]);
    expect(files.names()).toEqual([]);
  });

  it('builds the whole-corpus index before it stores the records: the baseline columns wait for nothing a reload needs', async () => {
    performance.clearMeasures();
    const driver = await freshDriver();
    const image = { save: async () => 0, clear: () => undefined };
    const session = createSession({
      compiler: createSqliteCompiler(sha256, driver),
      storage: memoryStorage(),
      builtins: readBuiltinScenarios(sha256),
      database: { kind: 'opfs' },
      records: createRecordStore(driver),
      image,
    });
    await session.start();
    expect((await session.loadFiles([recordsFile('first')], () => undefined)).status).toBe('loaded');
    const compiled = viewOf(await session.compile('diagnostic'));
    await session.awaitBaselines(compiled.compilation, () => undefined);
    // At most the step that was under way when the index started, and the one that follows its end.
    expect(Number(driver.all('SELECT count(*) FROM stored_records')[0]?.[0])).toBeLessThanOrEqual(2 * STORE_SLICE);
    await vi.waitFor(() => expect(performance.getEntriesByName('cc:store-records')).toHaveLength(1), {
      timeout: 30_000,
    });
    expect(driver.all('SELECT count(*) FROM stored_records')).toEqual([[SIZE]]);
  });

  it('gives up storing the records of a load that leaves the workspace meanwhile', async () => {
    const driver = await freshDriver();
    const session = createSession({
      compiler: createSqliteCompiler(sha256, driver),
      storage: memoryStorage(),
      builtins: readBuiltinScenarios(sha256),
      database: { kind: 'opfs' },
      records: createRecordStore(driver),
    });
    await session.start();
    expect((await session.loadFiles([recordsFile('gone')], () => undefined)).status).toBe('loaded');
    await session.resetWorkspace();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(driver.all('SELECT count(*) FROM stored_records')).toEqual([[0]]);
    expect(driver.all('SELECT count(*) FROM stored_sets')).toEqual([[0]]);
  });

  it('says so when the image cannot be saved, and goes on working in memory', async () => {
    performance.clearMeasures();
    const driver = await freshDriver();
    const refusing = {
      save: async () => Promise.reject(new ImageNotSaved(1024, new Error('SQLITE_IOERR_WRITE'))),
      clear: () => undefined,
    };
    const session = createSession({
      compiler: createSqliteCompiler(sha256, driver),
      storage: memoryStorage(),
      builtins: readBuiltinScenarios(sha256),
      database: { kind: 'opfs' },
      records: createRecordStore(driver),
      image: refusing,
      estimateStorage: async () => ({ quota: 1e12, usage: 0 }),
    });
    await session.start();
    expect((await session.loadFiles([recordsFile('refused')], () => undefined)).status).toBe('loaded');
    await vi.waitFor(
      async () =>
        expect(
          (await session.select({ scenarioKey: 'loaded:refused.jsonl', controls: [], lateChanges: [] })).database,
        ).toMatchObject({ kind: 'memory', reason: 'failed' }),
      {
        timeout: 30_000,
      },
    );
    const snapshot = await session.select({ scenarioKey: 'loaded:refused.jsonl', controls: [], lateChanges: [] });
    expect(snapshot.databaseNotice).toBe(
      'The workspace database could not be saved on disk (SQLITE_IOERR_WRITE): everything is loaded, but a reload will read, parse and index the loaded files again.',
    );
    expect((await session.compile('diagnostic')).ok).toBe(true);
  });

  it('in a second tab, works on a copy and saves nothing', async () => {
    const storage = memoryStorage();
    const session = createSession({
      compiler,
      storage,
      builtins: readBuiltinScenarios(sha256),
      database: { kind: 'memory', reason: 'other-tab', saves: false, message: 'another tab' },
    });
    const snapshot = await session.start();
    expect(snapshot.database).toMatchObject({ kind: 'memory', reason: 'other-tab' });
    expect((await session.loadFiles([recordsFile('copy')], () => undefined)).status).toBe('loaded');
    await session.resetWorkspace();
    expect(storage.writes()).toBe(0);
  });
});
