import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createCompiler, type Compiler } from '../core/compile';
import { sharedDriver } from '../core/test-support/node-driver';
import { factContextOf } from '../core/reasons';
import type { TraceRow } from '../core/result';
import { buildContract, buildRecord } from '../core/test-support/builders';
import { receiptIdOf } from '../core/passes/attest';
import { sha256Hex } from '../core/hash';
import type { Receipt } from '../core/result';
import { BUILTIN_SCENARIOS } from '../scenarios/builtin';
import { readBuiltinScenarios } from './builtin-sources';
import type { SavedWorkspace, WorkspaceEvent } from './protocol';
import { userViewExportSchema } from '../core/format/user-view';
import { createSession } from './session';
import { filterAndSortTrace } from './trace-windows';
import { encodeShareFragment, MAX_SHARE_FRAGMENT_CHARS, type SharedWorkspace } from './share-link';
import { STORAGE_CLEARED_MESSAGE, StorageClearedError, StorageTimeoutError, type WorkspaceStorage } from './workspace-storage';
import { memoryStorage } from './test-support/memory-storage';

// One compiler per database, as in the worker: the record index owns the database's tables.
let compiler: Compiler;

async function newSession(storage: WorkspaceStorage = memoryStorage()) {
  const session = createSession({ compiler, storage, builtins: readBuiltinScenarios() });
  return { session, snapshot: await session.start() };
}

const file = (name: string, text: string) => ({ name, blob: new Blob([text]) });
const noProgress = () => undefined;

describe('session', () => {
  beforeAll(async () => {
    compiler = createCompiler(await sharedDriver());
  });

  it('starts on the default built-in scenario and compiles it to a packet', async () => {
    const { session, snapshot } = await newSession();
    expect(snapshot.selection.scenarioKey).toBe('retry-policy');
    expect(snapshot.scenarios.map((scenario) => scenario.key)).toEqual(BUILTIN_SCENARIOS.map((scenario) => scenario.id));
    expect(snapshot.restoreIssues).toEqual([]);
    const compiled = session.compile('diagnostic');
    if (!compiled.ok) throw new Error(compiled.error.message);
    expect(compiled.view.status).toBe('packet');
    expect(compiled.view.columns.compiled.entries.map((entry) => entry.id)).toContain('ADR-0234');
    expect(compiled.view.columns.naive?.requiredMissed).toContain('ADR-0234');
    const user = session.compile('user');
    expect(user.ok && user.view.columns.naive).toBeNull();
    expect(compiled.view.packetText).toContain(compiled.view.receiptId);
  });

  it('reports the contract and record count actually compiled, and what each active change touched', async () => {
    const { session } = await newSession();
    await session.select({ scenarioKey: 'retry-policy', controls: ['tight-budget', 'future-reveal'], lateChanges: ['promote-run-0880'] });
    const compiled = session.compile('diagnostic');
    if (!compiled.ok) throw new Error(compiled.error.message);
    expect(compiled.view.compiledContract.tokenBudget).toBe(24);
    expect(compiled.view.compiledContract.requiredRecords).toEqual(['ADR-0234', 'RUN-0880']);
    expect(compiled.view.recordCount).toBe(14);
    // Scenario order, controls before late changes, whatever order they were switched on in.
    expect(compiled.view.appliedChanges.map(({ id, kind, contractFields, records }) => ({ id, kind, contractFields, records }))).toEqual([
      { id: 'future-reveal', kind: 'control', contractFields: [], records: { added: 1, removed: 0, patched: 0 } },
      { id: 'tight-budget', kind: 'control', contractFields: ['tokenBudget'], records: { added: 0, removed: 0, patched: 0 } },
      { id: 'promote-run-0880', kind: 'late-change', contractFields: ['requiredRecords'], records: { added: 0, removed: 0, patched: 0 } },
    ]);
  });

  it('exports the receipt as an in-toto statement whose packet subject is the copied packet text', async () => {
    const { session } = await newSession();
    expect(session.statementJson()).toBeNull();
    const compiled = session.compile('diagnostic');
    if (!compiled.ok) throw new Error(compiled.error.message);
    const statement = JSON.parse(session.statementJson() ?? '') as { _type: string; subject: { name: string; digest: { sha256?: string } }[]; predicate: { receiptId: string } };
    expect(statement._type).toBe('https://in-toto.io/Statement/v1');
    expect(statement.predicate.receiptId).toBe(compiled.view.receiptId);
    expect(statement.subject[0]).toMatchObject({ name: 'packet.txt', digest: { sha256: sha256Hex(compiled.view.packetText ?? '') } });
  });

  it('answers trace queries one bounded window at a time, sorted and filtered over the whole trace', async () => {
    const { session } = await newSession();
    session.compile('diagnostic');
    const filter = { audience: 'diagnostic', sortKey: 'id', descending: false, decision: 'excluded', code: 'all', text: '' } as const;
    const first = session.queryTrace({ ...filter, offset: 0, limit: 4 });
    const second = session.queryTrace({ ...filter, offset: 4, limit: 4 });
    expect(first.total).toBe(13);
    expect(first.matched).toBe(9);
    expect(first.rows).toHaveLength(4);
    expect(second.offset).toBe(4);
    const ids = [...first.rows, ...second.rows].map((row) => row.id);
    expect(ids).toEqual([...ids].sort());
    expect(session.queryTrace({ ...filter, offset: 8, limit: 4 }).rows).toHaveLength(1);
    expect(session.queryTrace({ ...filter, offset: 0, limit: 1_000_000 }).rows).toHaveLength(9);
  });

  it('fails closed with no packet when the control removes required provenance', async () => {
    const { session } = await newSession();
    await session.select({ scenarioKey: 'retry-policy', controls: ['remove-provenance'], lateChanges: [] });
    const compiled = session.compile('diagnostic');
    if (!compiled.ok) throw new Error(compiled.error.message);
    expect(compiled.view.status).toBe('fail_closed');
    expect(compiled.view.failure?.code).toBe('REQUIRED_MISSING_PROVENANCE');
    expect(compiled.view.packetText).toBeNull();
    expect(session.packetJson('diagnostic')).toBeNull();
    expect(session.packetJson('user')).toBeNull();
    expect(session.receiptJson()).toContain('REQUIRED_MISSING_PROVENANCE');
    expect(compiled.view.columns.compiled.emitted).toBe(false);
  });

  it('a compilation that throws leaves no earlier receipt, packet or trace to read, export or freeze', async () => {
    let broken = false;
    const flaky: Compiler = {
      ...compiler,
      compile: (request) => {
        if (broken) throw new RangeError('Maximum call stack size exceeded');
        return compiler.compile(request);
      },
    };
    const session = createSession({ compiler: flaky, storage: memoryStorage(), builtins: readBuiltinScenarios() });
    await session.start();
    expect(session.compile('diagnostic').ok).toBe(true);
    expect(session.packetJson('diagnostic')).not.toBeNull();

    broken = true;
    expect(() => session.compile('diagnostic')).toThrow('Maximum call stack size exceeded');
    expect(session.receiptJson()).toBeNull();
    expect(session.packetJson('diagnostic')).toBeNull();
    expect(session.queryTrace({ audience: 'diagnostic', sortKey: 'order', descending: false, decision: 'all', code: 'all', text: '', offset: 0, limit: 100 }).total).toBe(0);
    expect(session.freezeReceipt().frozenReceiptId).toBeNull();
    expect(session.attemptContinue()).toBeNull();

    broken = false;
    expect(session.compile('diagnostic').ok).toBe(true);
    expect(session.receiptJson()).not.toBeNull();
  });

  it('a compilation whose baselines throw keeps nothing either', async () => {
    const flaky: Compiler = {
      ...compiler,
      baselines: () => {
        throw new RangeError('Maximum call stack size exceeded');
      },
    };
    const session = createSession({ compiler: flaky, storage: memoryStorage(), builtins: readBuiltinScenarios() });
    await session.start();
    expect(() => session.compile('diagnostic')).toThrow('Maximum call stack size exceeded');
    expect(session.receiptJson()).toBeNull();
    expect(session.freezeReceipt().frozenReceiptId).toBeNull();
  });

  it('exports from the user view only what the user view shows, labelled, with no digest over withheld records', async () => {
    const { session } = await newSession();
    await session.select({ scenarioKey: 'atlas-credit-review', controls: [], lateChanges: [] });
    const diagnostic = session.compile('diagnostic');
    if (!diagnostic.ok) throw new Error(diagnostic.error.message);
    const user = session.disclose('user');
    if (!user.ok) throw new Error(user.error.message);
    const visible = new Set(session.queryTrace({ audience: 'user', sortKey: 'order', descending: false, decision: 'all', code: 'all', text: '', offset: 0, limit: 1000 }).rows.map((row) => row.id));
    const withheld = session.queryTrace({ audience: 'diagnostic', sortKey: 'order', descending: false, decision: 'all', code: 'all', text: '', offset: 0, limit: 1000 }).rows.filter((row) => !visible.has(row.id));
    expect(withheld.length).toBeGreaterThan(0);
    // The receipt names the withheld record and its fact (the roles that would admit it); the user view's exports must not.
    const receipt = session.receiptJson() ?? '';
    for (const row of withheld) expect(receipt).toContain(row.id);

    const document = userViewExportSchema.parse(JSON.parse(session.userViewJson() ?? ''));
    expect(document.view).toBe('user');
    expect(document.notice).toMatch(/^User view: .* not a receipt/);
    expect(document.withheldCount).toBe(withheld.length);
    expect(document.trace.map((row) => row.id).sort()).toEqual([...visible].sort());
    const exported = [session.userViewJson() ?? '', session.packetJson('user') ?? '', user.view.packetText ?? ''];
    for (const text of exported) {
      for (const row of withheld) {
        expect(text).not.toContain(row.id);
        expect(text).not.toContain(row.fact);
      }
      expect(text).not.toContain(diagnostic.view.receiptId);
      expect(text).not.toContain(diagnostic.view.recordSetDigest);
    }
    expect(JSON.parse(session.packetJson('user') ?? '{}')).toMatchObject({ view: 'user', packetFingerprint: diagnostic.view.packetFingerprint });
    expect(user.view.packetText).toMatch(/^=== CONTEXT PACKET ===\nview: user \(1 record is outside the authorised scope and not named; /);
    expect(JSON.parse(session.packetJson('diagnostic') ?? '{}')).toMatchObject({ view: 'diagnostic', receiptId: diagnostic.view.receiptId });
  });

  it('refuses a dropped user-view export, saying it is not a receipt, and keeps the workspace', async () => {
    const { session } = await newSession();
    session.compile('diagnostic');
    const document = session.userViewJson() ?? '';
    const result = await session.loadFiles([file('user-view.json', document)], noProgress);
    expect(result.status).toBe('rejected');
    if (result.status !== 'rejected') return;
    expect(result.issues).toEqual([{ file: 'user-view.json', path: 'format', message: expect.stringContaining('a user-view export is not a receipt') }]);
  });

  it('exports the scenario in force as a file that loads back to the same receipt, edits and controls included', async () => {
    const { session } = await newSession();
    const contract = session.current().loaded.scenario.contract;
    await session.updateContract({ value: { ...contract, tokenBudget: 80, query: 'retry timeouts' } });
    await session.select({ scenarioKey: 'retry-policy', controls: ['future-reveal'], lateChanges: [] });
    const edited = session.compile('diagnostic');
    if (!edited.ok) throw new Error(edited.error.message);
    const exported = session.exportScenario();
    expect(exported).toMatchObject({ fileName: 'retry-policy.scenario.json', edited: true });

    await session.resetWorkspace();
    const loaded = await session.loadFiles([file(exported.fileName, exported.json)], noProgress);
    expect(loaded.status).toBe('loaded');
    // Loading selects the scenario with every control off, as for any scenario; switching the same one on gives the same receipt.
    await session.select({ scenarioKey: 'loaded:retry-policy', controls: ['future-reveal'], lateChanges: [] });
    const again = session.compile('diagnostic');
    if (!again.ok) throw new Error(again.error.message);
    expect(again.view.receiptId).toBe(edited.view.receiptId);
  });

  describe('share links', () => {
    const fixture = (name: string) => readFileSync(new URL(`../../e2e/fixtures-data/${name}`, import.meta.url), 'utf8');

    it('carry edits, toggles and late changes to a fresh browser, which compiles the same receipt', async () => {
      const { session } = await newSession();
      const contract = session.current().loaded.scenario.contract;
      await session.updateContract({ value: { ...contract, query: 'retry timeouts failover' } });
      await session.select({ scenarioKey: 'retry-policy', controls: ['future-reveal', 'generated-draft'], lateChanges: ['promote-run-0880'] });
      const sent = session.compile('diagnostic');
      if (!sent.ok) throw new Error(sent.error.message);
      const link = await session.createShareLink();
      if (!link.ok) throw new Error(link.message);
      expect(link.fragment.startsWith('share=1.')).toBe(true);
      expect(link).toMatchObject({ files: 0, edits: 1 });

      const storage = memoryStorage();
      const { session: other } = await newSession(storage);
      expect(await other.checkShareLink(link.fragment)).toEqual({ ok: true, files: 0, edits: 1, scenarioKey: 'retry-policy' });
      const opened = await other.openShareLink(link.fragment);
      if (!opened.ok) throw new Error(JSON.stringify(opened.issues));
      expect(opened.snapshot.selection).toEqual({ scenarioKey: 'retry-policy', controls: ['future-reveal', 'generated-draft'], lateChanges: ['promote-run-0880'] });
      const received = other.compile('diagnostic');
      if (!received.ok) throw new Error(received.error.message);
      expect(received.view.receiptId).toBe(sent.view.receiptId);
      // Saved like any workspace, so it survives a reload.
      expect(storage.saved()).toMatchObject({ selection: { scenarioKey: 'retry-policy' } });
    });

    it('carry loaded files (a scenario and its records file) and reproduce their receipt', async () => {
      const { session } = await newSession();
      const loaded = await session.loadFiles([file('gateway-files.scenario.json', fixture('gateway-files.scenario.json')), file('gateway-files.records.jsonl', fixture('gateway-files.records.jsonl'))], noProgress);
      expect(loaded.status).toBe('loaded');
      const sent = session.compile('diagnostic');
      if (!sent.ok) throw new Error(sent.error.message);
      const link = await session.createShareLink();
      if (!link.ok) throw new Error(link.message);
      expect(link).toMatchObject({ files: 2 });

      const { session: other } = await newSession();
      const opened = await other.openShareLink(link.fragment);
      if (!opened.ok) throw new Error(JSON.stringify(opened.issues));
      expect(opened.snapshot.selection.scenarioKey).toBe('loaded:gateway-files');
      const received = other.compile('diagnostic');
      if (!received.ok) throw new Error(received.error.message);
      expect(received.view.receiptId).toBe(sent.view.receiptId);
    });

    it('refuse to carry loaded files over the stated size, saying what to do instead', async () => {
      const { session } = await newSession();
      const records = Array.from({ length: 900 }, (_, index) => JSON.stringify(buildRecord({ id: `BIG-${index}`, text: 'x'.repeat(300) }))).join('\n');
      const loaded = await session.loadFiles([file('big.jsonl', records)], noProgress);
      expect(loaded.status).toBe('loaded');
      const link = await session.createShareLink();
      expect(link).toEqual({ ok: false, message: expect.stringMatching(/^No link was made: the loaded files are [\d,]+ KB; a share link carries at most 256 KB of files\. Use "Export scenario"/) });
    });

    it('that throws while its files are read (a worker limit) leaves the workspace as it was', async () => {
      const { session } = await newSession();
      const loaded = await session.loadFiles([file('gateway-files.scenario.json', fixture('gateway-files.scenario.json')), file('gateway-files.records.jsonl', fixture('gateway-files.records.jsonl'))], noProgress);
      expect(loaded.status).toBe('loaded');
      const link = await session.createShareLink();
      if (!link.ok) throw new Error(link.message);
      const before = session.compile('diagnostic');
      if (!before.ok) throw new Error(before.error.message);

      const { session: other } = await newSession();
      await other.updateContract({ value: { ...other.current().loaded.scenario.contract, tokenBudget: 80 } });
      const receiptBefore = other.compile('diagnostic');
      const text = vi.spyOn(Blob.prototype, 'text').mockRejectedValue(new RangeError('Invalid string length'));
      try {
        await expect(other.openShareLink(link.fragment)).rejects.toThrow('Invalid string length');
      } finally {
        text.mockRestore();
      }
      expect(other.current().selection.scenarioKey).toBe('retry-policy');
      const after = other.compile('diagnostic');
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
      const before = session.compile('diagnostic');

      const refusals = [
        [link.fragment.slice(0, -12), /damaged/],
        [`share=1.${'A'.repeat(MAX_SHARE_FRAGMENT_CHARS)}`, /share links are limited to 200,000/],
        ['share=2.AAAA', /not a share link of this version/],
        [await encodeShareFragment({ version: 1, loads: [], contractEdits: {}, selection: { scenarioKey: 'retry-policy', controls: ['no-such-control'], lateChanges: [] } }), /switches on no-such-control, which scenario "retry-policy" does not declare/],
        [await encodeShareFragment({ version: 1, loads: [], contractEdits: { 'retry-policy': { task: '' } }, selection: { scenarioKey: 'retry-policy', controls: [], lateChanges: [] } }), /./],
      ] as const;
      for (const [fragment, message] of refusals) {
        const opened = await session.openShareLink(fragment);
        expect(opened.ok, fragment.slice(0, 40)).toBe(false);
        if (opened.ok) continue;
        expect(opened.issues[0]?.file).toMatch(/share link/);
        expect(opened.issues.map((problem) => problem.message).join(' ')).toMatch(message);
      }
      // A field the format does not know is named like any file's.
      const foreign = await encodeShareFragment({ version: 1, loads: [], contractEdits: {}, selection: { scenarioKey: 'retry-policy', controls: [], lateChanges: [] }, extra: true } as SharedWorkspace);
      expect(await session.openShareLink(foreign)).toEqual({ ok: false, issues: [{ file: 'share link', path: '(root)', message: expect.stringContaining('extra') }] });

      const after = session.compile('diagnostic');
      if (!before.ok || !after.ok) throw new Error('compile failed');
      expect(after.view.receiptId).toBe(before.view.receiptId);
      expect(after.view.tokenBudget).toBe(80);
    });
  });

  it('runs the fire drill: stale after the late change, current after recompiling', async () => {
    const { session } = await newSession();
    session.compile('diagnostic');
    const frozen = session.declareLateChange('promote-run-0880');
    expect(frozen.frozenReceiptId).not.toBeNull();
    expect(session.attemptContinue()?.action).toBe('recompile_required');

    await session.select({ scenarioKey: 'retry-policy', controls: [], lateChanges: ['promote-run-0880'] });
    const recompiled = session.compile('diagnostic');
    if (!recompiled.ok) throw new Error(recompiled.error.message);
    expect(recompiled.view.columns.compiled.entries.find((entry) => entry.id === 'RUN-0880')?.required).toBe(true);
    session.freezeReceipt();
    expect(session.attemptContinue()).toMatchObject({ action: 'continue', code: 'RECEIPT_CURRENT' });
  });

  it('rejects an invalid file with its line and path and keeps what was loaded', async () => {
    const { session } = await newSession();
    const result = await session.loadFiles([file('bad.jsonl', '{"id":"A","text":"x"}\n')], noProgress);
    expect(result.status).toBe('rejected');
    if (result.status !== 'rejected') return;
    expect(result.issues[0]).toMatchObject({ file: 'bad.jsonl', line: 1 });
    const compiled = session.compile('diagnostic');
    expect(compiled.ok && compiled.view.scenarioKey).toBe('retry-policy');
  });

  it('loads a scenario with inline records, selects it, and restores it after a reload', async () => {
    const storage = memoryStorage();
    const { session } = await newSession(storage);
    const scenario = { id: 'mine', title: 'My scenario', contract: buildContract(), records: [buildRecord({ id: 'R-1' })] };
    const result = await session.loadFiles([file('renamed.txt', JSON.stringify(scenario))], noProgress);
    expect(result.status).toBe('loaded');
    if (result.status !== 'loaded') return;
    expect(result.kinds).toEqual([{ file: 'renamed.txt', kind: 'scenario' }]);
    expect(result.snapshot.selection.scenarioKey).toBe('loaded:mine');

    const reloaded = await newSession(storage);
    expect(reloaded.snapshot.selection.scenarioKey).toBe('loaded:mine');
    expect(reloaded.snapshot.scenarios.find((entry) => entry.key === 'loaded:mine')?.recordCount).toBe(1);

    const reset = await reloaded.session.resetWorkspace();
    expect(reset.scenarios.some((entry) => entry.origin === 'loaded')).toBe(false);
    expect(storage.saved()).toBeUndefined();
  });

  it('reports every change of the workspace, and a new session restores what was reported even when storage kept nothing', async () => {
    const broken: WorkspaceStorage = {
      read: async () => undefined,
      write: async () => Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError')),
      clear: async () => undefined,
      watch: () => undefined,
    };
    const events: WorkspaceEvent[] = [];
    const session = createSession({ compiler, storage: broken, builtins: readBuiltinScenarios() });
    const started = await session.start(null, (event) => events.push(event));
    expect(events).toHaveLength(1);
    const scenario = { id: 'mine', title: 'My scenario', contract: buildContract(), records: [buildRecord({ id: 'R-1' })] };
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

    const restored = await createSession({ compiler, storage: broken, builtins: readBuiltinScenarios() }).start(last?.workspace ?? null, () => undefined);
    expect(restored.selection.scenarioKey).toBe('loaded:mine');
    expect(restored.scenarios.find((entry) => entry.key === 'loaded:mine')?.recordCount).toBe(1);
    expect(restored.scenarios.find((entry) => entry.key === 'retry-policy')).toMatchObject({ contractEdited: true, contract: { tokenBudget: 500 } });
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
    const session = createSession({ compiler, storage: slow, builtins: readBuiltinScenarios() });
    await session.start(null, (event) => events.push(event));
    const toggled = await session.select({ scenarioKey: 'retry-policy', controls: ['remove-provenance'], lateChanges: [] });
    expect(toggled.selection.controls).toEqual(['remove-provenance']);
    expect(session.compile('diagnostic')).toMatchObject({ ok: true, view: { status: 'fail_closed' } });
    expect(storage.saved()).toBeUndefined();
    const heard = events.length;
    release();
    await vi.waitFor(() => expect(storage.saved()).toMatchObject({ selection: { controls: ['remove-provenance'] } }));
    expect(events.slice(heard)).toEqual([expect.objectContaining({ storage: { status: 'persistent' } })]);
  });

  it('storage that never answers is named, and the built-ins work in memory', async () => {
    const silent: WorkspaceStorage = { read: () => Promise.reject(new StorageTimeoutError(5)), write: () => Promise.reject(new StorageTimeoutError(5)), clear: async () => undefined, watch: () => undefined };
    const session = createSession({ compiler, storage: silent, builtins: readBuiltinScenarios() });
    const started = await session.start();
    expect(started.storage).toEqual({ status: 'unavailable', message: expect.stringMatching(/^Browser storage did not answer within 5 seconds: working in memory only/) });
    await session.select({ scenarioKey: 'retry-policy', controls: ['remove-provenance'], lateChanges: [] });
    expect(session.compile('diagnostic')).toMatchObject({ ok: true, view: { status: 'fail_closed' } });
  });

  it('a saved workspace whose files were deleted says so on reload and keeps the edits that still apply', async () => {
    const storage = memoryStorage();
    const { session, snapshot } = await newSession(storage);
    const contract = snapshot.scenarios[0]?.contract;
    await session.updateContract({ value: { ...contract, tokenBudget: 500 } });
    const { loads: _files, ...withoutFiles } = storage.saved() as SavedWorkspace;
    const reloaded = createSession({ compiler, storage: { ...storage, read: async () => ({ workspace: withoutFiles, filesMissing: true }) }, builtins: readBuiltinScenarios() });
    const restored = await reloaded.start();
    expect(restored.restoreIssues).toEqual([
      { file: 'saved workspace', path: 'loads', message: 'the loaded files were missing from browser storage (its data may have been cleared while the app was open); restored the selection and contract edits that do not depend on them' },
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
    const session = createSession({ compiler, storage: watched, builtins: readBuiltinScenarios() });
    await session.start(null, (event) => events.push(event));
    await storage.clear();
    clearedUnderUs();
    expect(events.at(-1)?.storage).toEqual({ status: 'cleared', message: STORAGE_CLEARED_MESSAGE });

    const toggled = await session.select({ scenarioKey: 'retry-policy', controls: ['remove-provenance'], lateChanges: [] });
    expect(toggled.storage.status).toBe('cleared');
    expect(storage.saved()).toBeUndefined();

    const saved = await session.saveWorkspace();
    expect(saved.storage).toEqual({ status: 'persistent' });
    expect(storage.saved()).toMatchObject({ selection: { controls: ['remove-provenance'] } });

    // The write path finds the loss too (no close event in some browsers).
    failNextWrite = true;
    await session.select({ scenarioKey: 'retry-policy', controls: [], lateChanges: [] });
    await vi.waitFor(() => expect(events.at(-1)?.storage).toEqual({ status: 'cleared', message: STORAGE_CLEARED_MESSAGE }));
    expect(session.current().selection.controls).toEqual([]);
  });

  it('runs a lone records file under the current contract', async () => {
    const { session } = await newSession();
    const records = [buildRecord({ id: 'X-1' }), buildRecord({ id: 'X-2' })].map((record) => JSON.stringify(record)).join('\n');
    const result = await session.loadFiles([file('export.jsonl', records)], noProgress);
    expect(result.status === 'loaded' && result.snapshot.scenarios.find((entry) => entry.key === 'loaded:export.jsonl')?.recordCount).toBe(2);
  });

  it('checks a saved receipt against the current inputs', async () => {
    const { session } = await newSession();
    session.compile('diagnostic');
    const receipt = session.receiptJson() ?? '';
    await session.select({ scenarioKey: 'retry-policy', controls: ['future-reveal'], lateChanges: [] });
    const result = await session.loadFiles([file('receipt.json', receipt)], noProgress);
    if (result.status !== 'loaded') throw new Error(result.status);
    expect(result.receiptChecks[0]?.verdict.action).not.toBe('continue');
  });

  it('diffs two receipts for the baseline view, disclosed for the audience, and names bad input', async () => {
    const { session } = await newSession();
    session.compile('diagnostic');
    const baseline = session.receiptJson() ?? '';
    await session.select({ scenarioKey: 'retry-policy', controls: ['superseded-decision'], lateChanges: [] });
    session.compile('diagnostic');
    const current = session.receiptJson() ?? '';
    const response = session.diffReceipts({ name: 'baseline', text: baseline }, { name: 'current', text: current }, 'diagnostic');
    if (!response.ok) throw new Error(JSON.stringify(response.issues));
    expect(response.diff.records.added).toEqual(['ADR-0198']);
    expect(response.view.sections.find((section) => section.key === 'fields')?.lines).toContain('controls [] → [superseded-decision]');

    // A withheld record (LGL-0007 is denied to this caller) is named in the diagnostic view only.
    const { receiptId, ...edited } = JSON.parse(current) as Receipt;
    const body = { ...edited, trace: edited.trace.map((row) => (row.id === 'LGL-0007' ? { ...row, tokens: row.tokens + 1 } : row)) };
    // An edit whose id was not computed again is refused, naming the file, before anything is compared.
    const unverified = session.diffReceipts({ name: 'a', text: current }, { name: 'b', text: JSON.stringify({ ...body, receiptId }) }, 'diagnostic');
    expect(!unverified.ok && unverified.issues).toEqual([{ file: 'b', path: 'receiptId', message: expect.stringMatching(/^RECEIPT_INVALID: /) }]);
    const reIded = JSON.stringify({ ...body, receiptId: receiptIdOf(body) });
    const diagnostic = session.diffReceipts({ name: 'a', text: current }, { name: 'b', text: reIded }, 'diagnostic');
    const user = session.diffReceipts({ name: 'a', text: current }, { name: 'b', text: reIded }, 'user');
    expect(diagnostic.ok && diagnostic.diff.rows).toEqual([{ id: 'LGL-0007', fields: ['tokens'] }]);
    if (!user.ok) throw new Error('expected a diff');
    expect(JSON.stringify(user)).not.toContain('LGL-0007');
    expect(user.diff.identical).toBe(true);
    expect(user.view.sections).toEqual([]);

    const bad = session.diffReceipts({ name: 'baseline', text: '{"receiptId":"x"}' }, { name: 'current', text: current }, 'diagnostic');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.issues[0]).toMatchObject({ file: 'baseline', path: 'receiptId' });
  });

  it('checks a saved receipt from another as-of date: stale, reperformed, with the contract field that changed', async () => {
    const { session } = await newSession();
    await session.select({ scenarioKey: 'atlas-credit-review', controls: ['decide-one-day-later'], lateChanges: [] });
    session.compile('diagnostic');
    const receipt = session.receiptJson() ?? '';
    await session.select({ scenarioKey: 'atlas-credit-review', controls: [], lateChanges: [] });
    const result = await session.loadFiles([file('tomorrow.json', receipt)], noProgress);
    if (result.status !== 'loaded') throw new Error(result.status);
    const verdict = result.receiptChecks[0]?.verdict;
    expect(verdict).toMatchObject({ action: 'recompile_required', code: 'STALE_CONTRACT_FINGERPRINT', reperformed: true });
    const contract = verdict?.diff?.diagnostic.sections.find((section) => section.key === 'contract');
    expect(contract?.lines).toEqual(['asOf 2026-08-31T00:00:00.000Z → 2026-08-30T00:00:00.000Z']);
    expect(verdict?.diff?.user.sections.find((section) => section.key === 'decisions')?.lines).toContain('ADD-7 EXCLUDE_EXPIRED → SELECTED_EVIDENCE');
  });

  it('refuses a forged receipt (an evidence slot edited, its id recomputed) in the receipt check and the drill', async () => {
    const { session } = await newSession();
    await session.select({ scenarioKey: 'atlas-credit-review', controls: [], lateChanges: [] });
    session.compile('diagnostic');
    const { receiptId: _id, ...body } = JSON.parse(session.receiptJson() ?? '') as Receipt;
    const edited = { ...body, evidence: body.evidence.map((slot) => (slot.proposition === 'waiver_valid' ? { ...slot, state: 'supported' as const } : slot)), decisionBlockedBy: [] };
    const result = await session.loadFiles([file('forged.json', JSON.stringify({ receiptId: receiptIdOf(edited), ...edited }))], noProgress);
    if (result.status !== 'loaded') throw new Error(result.status);
    const verdict = result.receiptChecks[0]?.verdict;
    expect(verdict).toMatchObject({ action: 'block', code: 'RECEIPT_MISMATCH', reperformed: false });
    expect(verdict?.diff?.diagnostic.firstDifference).toEqual({ path: 'decisionBlockedBy[0]', recordId: null });
    expect(verdict?.diff?.diagnostic.sections.find((section) => section.key === 'evidence')?.lines).toEqual(['waiver_valid supported → unknown']);
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

  it('sorts and filters trace rows without losing trace order among ties', () => {
    const row = (id: string, tokens: number, decision: 'selected' | 'excluded'): TraceRow => ({
      id,
      fingerprint: 'f'.repeat(64),
      decision,
      code: 'EXCLUDE_SCOPE',
      fact: 'SCOPE_NOT_ALLOWED',
      args: { scope: `scope-${id}` },
      gates: ['scope'],
      tokens,
      required: false,
      score: null,
      rank: null,
    });
    const rows = [row('b', 5, 'selected'), row('a', 5, 'excluded'), row('c', 1, 'selected')];
    const query = { audience: 'diagnostic' as const, sortKey: 'tokens' as const, descending: false, decision: 'all' as const, code: 'all' as const, text: '' };
    const context = factContextOf(buildContract());
    expect(filterAndSortTrace(rows, query, context).map((r) => r.id)).toEqual(['c', 'b', 'a']);
    expect(filterAndSortTrace(rows, { ...query, decision: 'selected', sortKey: 'id' }, context).map((r) => r.id)).toEqual(['b', 'c']);
    expect(filterAndSortTrace(rows, { ...query, text: 'SCOPE SCOPE-A NOT' }, context).map((r) => r.id)).toEqual(['a']);
  });
});
