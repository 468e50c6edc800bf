import { sha256 } from '../core/test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../adapters/sqlite/compiler';
import { sharedDriver } from '../core/test-support/node-driver';
import { buildContract, buildRecord } from '../core/test-support/builders';
import { receiptIdOf } from '../core/phases/7-attest/attest';
import type { Receipt } from '../core/result';
import { BUILTIN_SCENARIOS } from '../scenarios/builtin';
import { readBuiltinScenarios } from './workspace/builtin-sources';
import { createSession } from './session';
import type { WorkspaceStorage } from './workspace/workspace-storage';
import { memoryStorage } from './test-support/memory-storage';

// One compiler per database, as in the worker: the record index owns the database's tables.
let compiler: SqliteCompiler;

async function newSession(storage: WorkspaceStorage = memoryStorage()) {
  const session = createSession({ compiler, storage, builtins: readBuiltinScenarios(sha256) });
  return { session, snapshot: await session.start() };
}

const file = (name: string, text: string) => ({ name, blob: new Blob([text]) });
const noProgress = () => undefined;

describe('session', () => {
  beforeAll(async () => {
    compiler = createSqliteCompiler(sha256, await sharedDriver());
  });

  it('starts on the default built-in scenario and compiles it to a packet', async () => {
    const { session, snapshot } = await newSession();
    expect(snapshot.selection.scenarioKey).toBe('retry-policy');
    expect(snapshot.scenarios.map((scenario) => scenario.key)).toEqual(
      BUILTIN_SCENARIOS.map((scenario) => scenario.id),
    );
    expect(snapshot.restoreIssues).toEqual([]);
    const compiled = await session.compile('diagnostic');
    if (!compiled.ok) throw new Error(compiled.error.message);
    expect(compiled.view.status).toBe('packet');
    expect(compiled.view.columns.compiled.entries.map((entry) => entry.id)).toContain('ADR-0234');
    expect(compiled.view.columns.naive?.requiredMissed).toContain('ADR-0234');
    // The post-filter column is empty because relevance's top 5 are all illegal, and it says so.
    expect(compiled.view.columns.postFilter?.entries).toEqual([]);
    expect(compiled.view.columns.postFilter?.emptyNote).toEqual({
      code: 'EVERY_TOP_K_ILLEGAL',
      args: { k: 5, ranked: 5 },
    });
    expect(compiled.view.columns.naive?.emptyNote).toBeNull();
    const user = await session.compile('user');
    expect(user.ok && user.view.columns.naive).toBeNull();
    expect(compiled.view.packetText).toContain(compiled.view.receiptId);
  });

  it('reports the contract and record count actually compiled, and what each active change touched', async () => {
    const { session } = await newSession();
    await session.select({
      scenarioKey: 'retry-policy',
      controls: ['tight-budget', 'future-reveal'],
      lateChanges: ['promote-run-0880'],
    });
    const compiled = await session.compile('diagnostic');
    if (!compiled.ok) throw new Error(compiled.error.message);
    expect(compiled.view.compiledContract.tokenBudget).toBe(24);
    expect(compiled.view.compiledContract.requiredRecords).toEqual(['ADR-0234', 'RUN-0880']);
    expect(compiled.view.recordCount).toBe(14);
    // Scenario order, controls before late changes, whatever order they were switched on in.
    expect(
      compiled.view.appliedChanges.map(({ id, kind, contractFields, records }) => ({
        id,
        kind,
        contractFields,
        records,
      })),
    ).toEqual([
      { id: 'future-reveal', kind: 'control', contractFields: [], records: { added: 1, removed: 0, patched: 0 } },
      {
        id: 'tight-budget',
        kind: 'control',
        contractFields: ['tokenBudget'],
        records: { added: 0, removed: 0, patched: 0 },
      },
      {
        id: 'promote-run-0880',
        kind: 'late-change',
        contractFields: ['requiredRecords'],
        records: { added: 0, removed: 0, patched: 0 },
      },
    ]);
  });

  it('answers trace queries one bounded window at a time, sorted and filtered over the whole trace', async () => {
    const { session } = await newSession();
    await session.compile('diagnostic');
    const filter = {
      audience: 'diagnostic',
      sortKey: 'id',
      descending: false,
      decision: 'excluded',
      code: 'all',
      text: '',
    } as const;
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
    const compiled = await session.compile('diagnostic');
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
    const flaky: SqliteCompiler = {
      ...compiler,
      compile: async (request) => {
        if (broken) throw new RangeError('Maximum call stack size exceeded');
        return compiler.compile(request);
      },
    };
    const session = createSession({
      compiler: flaky,
      storage: memoryStorage(),
      builtins: readBuiltinScenarios(sha256),
    });
    await session.start();
    expect((await session.compile('diagnostic')).ok).toBe(true);
    expect(session.packetJson('diagnostic')).not.toBeNull();

    broken = true;
    await expect(session.compile('diagnostic')).rejects.toThrow('Maximum call stack size exceeded');
    expect(session.receiptJson()).toBeNull();
    expect(session.packetJson('diagnostic')).toBeNull();
    expect(
      session.queryTrace({
        audience: 'diagnostic',
        sortKey: 'order',
        descending: false,
        decision: 'all',
        code: 'all',
        text: '',
        offset: 0,
        limit: 100,
      }).total,
    ).toBe(0);
    expect(session.freezeReceipt().frozenReceiptId).toBeNull();
    expect(await session.attemptContinue()).toBeNull();

    broken = false;
    expect((await session.compile('diagnostic')).ok).toBe(true);
    expect(session.receiptJson()).not.toBeNull();
  });

  it('a compilation whose baselines throw keeps nothing either', async () => {
    const flaky: SqliteCompiler = {
      ...compiler,
      baselines: () => {
        throw new RangeError('Maximum call stack size exceeded');
      },
    };
    const session = createSession({
      compiler: flaky,
      storage: memoryStorage(),
      builtins: readBuiltinScenarios(sha256),
    });
    await session.start();
    await expect(session.compile('diagnostic')).rejects.toThrow('Maximum call stack size exceeded');
    expect(session.receiptJson()).toBeNull();
    expect(session.freezeReceipt().frozenReceiptId).toBeNull();
  });

  it('refuses a dropped user-view export, saying it is not a receipt, and keeps the workspace', async () => {
    const { session } = await newSession();
    await session.compile('diagnostic');
    const document = session.userViewJson() ?? '';
    const result = await session.loadFiles([file('user-view.json', document)], noProgress);
    expect(result.status).toBe('rejected');
    if (result.status !== 'rejected') return;
    expect(result.issues).toEqual([
      {
        file: 'user-view.json',
        path: 'format',
        code: 'USER_VIEW_NOT_RECEIPT',
        args: {},
        message: expect.stringContaining('a user-view export is not a receipt'),
      },
    ]);
  });

  it('runs the fire drill: stale after the late change, current after recompiling', async () => {
    const { session } = await newSession();
    await session.compile('diagnostic');
    const frozen = session.declareLateChange('promote-run-0880');
    expect(frozen.frozenReceiptId).not.toBeNull();
    const stale = await session.attemptContinue();
    expect(stale?.action).toBe('recompile_required');
    // The verdict's diff names receipt fields and changes in words, not by the format's field names or ids.
    const lines = (stale?.diff?.diagnostic.sections ?? []).flatMap((section) => section.lines);
    expect(lines).toContain('late changes [] → [Late correction: RUN-0880 is required]');
    expect(lines.some((line) => line.startsWith('contract fingerprint '))).toBe(true);
    expect(lines).toContain('CFG-0310: boundary fact details');
    expect(lines.join('\n')).not.toMatch(/contractFingerprint|lateChanges|promote-run-0880|: args/);

    await session.select({ scenarioKey: 'retry-policy', controls: [], lateChanges: ['promote-run-0880'] });
    const recompiled = await session.compile('diagnostic');
    if (!recompiled.ok) throw new Error(recompiled.error.message);
    expect(recompiled.view.columns.compiled.entries.find((entry) => entry.id === 'RUN-0880')?.required).toBe(true);
    session.freezeReceipt();
    expect(await session.attemptContinue()).toMatchObject({ action: 'continue', code: 'RECEIPT_CURRENT' });
  });

  it('loads a records file whose line is not a record: the diagnostic view names its line and path, the user view counts it', async () => {
    const { session } = await newSession();
    const records = `${JSON.stringify(buildRecord({ id: 'R-1' }))}\n{"id":"A","text":"x"}\n`;
    const result = await session.loadFiles(
      [file('bad.jsonl', records), file('contract.json', JSON.stringify(buildContract()))],
      noProgress,
    );
    expect(result.status).toBe('loaded');
    const diagnostic = await session.compile('diagnostic');
    expect(diagnostic.ok && diagnostic.view.unreadable[0]).toMatchObject({
      file: 'bad.jsonl',
      line: 2,
      path: 'title',
      code: 'FIELD_MISSING',
    });
    const user = await session.compile('user');
    expect(user.ok && [user.view.unreadable, user.view.withheldCount]).toEqual([[], 1]);
  });

  it('loads a scenario with inline records, selects it, and restores it after a reload', async () => {
    const storage = memoryStorage();
    const { session } = await newSession(storage);
    const scenario = {
      id: 'mine',
      title: 'My scenario',
      contract: buildContract(),
      records: [buildRecord({ id: 'R-1' })],
    };
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

  it('runs a lone records file under the current contract', async () => {
    const { session } = await newSession();
    const records = [buildRecord({ id: 'X-1' }), buildRecord({ id: 'X-2' })]
      .map((record) => JSON.stringify(record))
      .join('\n');
    const result = await session.loadFiles([file('export.jsonl', records)], noProgress);
    expect(
      result.status === 'loaded' &&
        result.snapshot.scenarios.find((entry) => entry.key === 'loaded:export.jsonl')?.recordCount,
    ).toBe(2);
  });

  it('checks a saved receipt against the current inputs', async () => {
    const { session } = await newSession();
    await session.compile('diagnostic');
    const receipt = session.receiptJson() ?? '';
    await session.select({ scenarioKey: 'retry-policy', controls: ['future-reveal'], lateChanges: [] });
    const result = await session.loadFiles([file('receipt.json', receipt)], noProgress);
    if (result.status !== 'loaded') throw new Error(result.status);
    expect(result.receiptChecks[0]?.verdict.action).not.toBe('continue');
  });

  it('checks a saved receipt from another as-of date: stale, reperformed, with the contract field that changed', async () => {
    const { session } = await newSession();
    await session.select({ scenarioKey: 'atlas-credit-review', controls: ['decide-one-day-later'], lateChanges: [] });
    await session.compile('diagnostic');
    const receipt = session.receiptJson() ?? '';
    await session.select({ scenarioKey: 'atlas-credit-review', controls: [], lateChanges: [] });
    const result = await session.loadFiles([file('tomorrow.json', receipt)], noProgress);
    if (result.status !== 'loaded') throw new Error(result.status);
    const verdict = result.receiptChecks[0]?.verdict;
    expect(verdict).toMatchObject({
      action: 'recompile_required',
      code: 'STALE_CONTRACT_FINGERPRINT',
      reperformed: true,
    });
    const contract = verdict?.diff?.diagnostic.sections.find((section) => section.key === 'contract');
    expect(contract?.lines).toEqual(['asOf 2026-08-31T00:00:00.000Z → 2026-08-30T00:00:00.000Z']);
    expect(verdict?.diff?.user.sections.find((section) => section.key === 'decisions')?.lines).toContain(
      'ADD-7 EXCLUDE_EXPIRED → SELECTED_EVIDENCE',
    );
  });

  it('refuses a forged receipt (an evidence slot edited, its id recomputed) in the receipt check and the drill', async () => {
    const { session } = await newSession();
    await session.select({ scenarioKey: 'atlas-credit-review', controls: [], lateChanges: [] });
    await session.compile('diagnostic');
    const { receiptId: _id, ...body } = JSON.parse(session.receiptJson() ?? '') as Receipt;
    const edited = {
      ...body,
      evidence: body.evidence.map((slot) =>
        slot.proposition === 'waiver_valid' ? { ...slot, state: 'supported' as const } : slot,
      ),
      decisionBlockedBy: [],
    };
    const result = await session.loadFiles(
      [file('forged.json', JSON.stringify({ receiptId: receiptIdOf(sha256, edited), ...edited }))],
      noProgress,
    );
    if (result.status !== 'loaded') throw new Error(result.status);
    const verdict = result.receiptChecks[0]?.verdict;
    expect(verdict).toMatchObject({ action: 'block', code: 'RECEIPT_MISMATCH', reperformed: false });
    expect(verdict?.diff?.diagnostic.firstDifference).toEqual({ path: 'decisionBlockedBy[0]', recordId: null });
    expect(verdict?.diff?.diagnostic.sections.find((section) => section.key === 'evidence')?.lines).toEqual([
      'waiver_valid supported → unknown',
    ]);
  });
});
