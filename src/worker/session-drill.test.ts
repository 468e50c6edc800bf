import { sha256 } from '../core/test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../adapters/sqlite/compiler';
import { sharedDriver } from '../core/test-support/node-driver';
import { readBuiltinScenarios } from './workspace/builtin-sources';
import { createSession } from './session';
import { readFileSync } from 'node:fs';
import { memoryStorage } from './test-support/memory-storage';

let compiler: SqliteCompiler;
const file = (name: string, text: string) => ({ name, blob: new Blob([text]) });
const noProgress = () => undefined;
const ATLAS_RECORDS = readFileSync(
  new URL('../../fixtures/atlas-credit-review/records.jsonl', import.meta.url),
  'utf8',
);

async function atlasSession() {
  const session = createSession({ compiler, storage: memoryStorage(), builtins: readBuiltinScenarios(sha256) });
  await session.start();
  await session.select({ scenarioKey: 'atlas-credit-review', controls: [], lateChanges: [] });
  return session;
}

describe('the drill and the receipt check on changed inputs', () => {
  beforeAll(async () => {
    compiler = createSqliteCompiler(sha256, await sharedDriver());
  });

  it('judges a loaded receipt again against the inputs in force: CURRENT, then STALE once a control is on', async () => {
    const session = await atlasSession();
    await session.compile('diagnostic');
    const receipt = session.receiptJson();
    if (receipt === null) throw new Error('nothing compiled');
    const loaded = await session.loadFiles([file('receipt.json', receipt)], noProgress);
    if (loaded.status !== 'loaded') throw new Error(loaded.status);
    expect(loaded.receiptChecks.map((check) => check.verdict.action)).toEqual(['continue']);
    await session.select({ scenarioKey: 'atlas-credit-review', controls: ['grant-agent-permit'], lateChanges: [] });
    await session.compile('diagnostic');
    expect(
      (await session.checkReceipts()).map(({ file: name, verdict }) => [name, verdict.action, verdict.code]),
    ).toEqual([['receipt.json', 'recompile_required', 'STALE_RECORD_SET']]);
    await session.select({ scenarioKey: 'atlas-credit-review', controls: [], lateChanges: [] });
    expect((await session.checkReceipts()).map((check) => check.verdict.action)).toEqual(['continue']);
  });

  it('keeps the frozen receipt when another file is loaded, and offers generic late changes for inputs that declare none', async () => {
    const session = await atlasSession();
    await session.compile('diagnostic');
    const frozen = session.freezeReceipt().frozenReceiptId;
    expect((await session.attemptContinue())?.action).toBe('continue');

    // The user's own records: the same records with one title changed, under the scenario's contract.
    const own = ATLAS_RECORDS.replace(
      'Facility F-102: Atlas overdraft limit',
      'Facility F-102: overdraft limit (renamed)',
    );
    const loaded = await session.loadFiles([file('own.jsonl', own)], noProgress);
    if (loaded.status !== 'loaded') throw new Error(loaded.status);
    const summary = loaded.snapshot.scenarios.find(
      (scenario) => scenario.key === loaded.snapshot.selection.scenarioKey,
    );
    expect(summary?.lateChangesGeneric).toBe(true);
    expect(summary?.lateChanges.map((change) => change.id)).toEqual([
      'generic-validity-ends',
      'generic-deny-label',
      'generic-role-revoked',
      'generic-as-of-moves',
    ]);
    expect(summary?.lateChanges[0]?.label).toBe('Late: F-102 stops being valid');

    // Frozen before the load, judged against what was loaded.
    const compiled = await session.compile('diagnostic');
    if (!compiled.ok) throw new Error(compiled.error.message);
    expect(session.declareLateChange('generic-validity-ends')).toEqual({
      frozenReceiptId: frozen,
      declared: ['generic-validity-ends'],
    });
    const verdict = await session.attemptContinue();
    expect(verdict).toMatchObject({ action: 'recompile_required', priorReceiptId: frozen });

    // Recompiled with the change applied, the new receipt is current and records it.
    await session.select({ ...loaded.snapshot.selection, lateChanges: ['generic-validity-ends'] });
    const recompiled = await session.compile('diagnostic');
    if (!recompiled.ok) throw new Error(recompiled.error.message);
    expect(recompiled.view.lateChanges).toEqual(['generic-validity-ends']);
    expect(recompiled.view.receiptId).not.toBe(compiled.view.receiptId);
    session.freezeReceipt();
    session.declareLateChange('generic-validity-ends');
    expect((await session.attemptContinue())?.action).toBe('continue');
  });

  it('applies every generic late change to the inputs it was worked out from', async () => {
    const session = await atlasSession();
    const loaded = await session.loadFiles([file('own.jsonl', ATLAS_RECORDS)], noProgress);
    if (loaded.status !== 'loaded') throw new Error(loaded.status);
    const summary = loaded.snapshot.scenarios.find(
      (scenario) => scenario.key === loaded.snapshot.selection.scenarioKey,
    );
    const base = await session.compile('diagnostic');
    if (!base.ok) throw new Error(base.error.message);
    for (const change of summary?.lateChanges ?? []) {
      await session.select({ ...loaded.snapshot.selection, lateChanges: [change.id] });
      const compiled = await session.compile('diagnostic');
      if (!compiled.ok) throw new Error(`${change.id}: ${compiled.error.message}`);
      expect(compiled.view.receiptId, change.id).not.toBe(base.view.receiptId);
    }
  });
});
