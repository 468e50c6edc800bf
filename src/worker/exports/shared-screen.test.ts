import { sha256 } from '../../core/test-support/sha256';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../../adapters/sqlite/compiler';
import { sharedDriver } from '../../core/test-support/node-driver';
import { readBuiltinScenarios } from '../workspace/builtin-sources';
import type { ScreenShown } from '../protocol';
import { createSession } from '../session';
import { NO_FILES_FROM_USER_VIEW } from './share-session';
import { decodeShareFragment, encodeShareFragment } from './share-link';
import { memoryStorage } from '../test-support/memory-storage';

let compiler: SqliteCompiler;

async function newSession() {
  const session = createSession({ compiler, storage: memoryStorage(), builtins: readBuiltinScenarios(sha256) });
  await session.start();
  return session;
}

const fixture = (name: string) => readFileSync(new URL(`../../../e2e/fixtures-data/${name}`, import.meta.url), 'utf8');
const userDrill: ScreenShown = { audience: 'user', workspace: 'drill', view: 'trace', attempted: true };

describe('share links carry the screen', () => {
  beforeAll(async () => {
    compiler = createSqliteCompiler(sha256, await sharedDriver());
  });

  it('with the pinned baseline and the drill, which a fresh session compiles again to the same receipts and verdict', async () => {
    const session = await newSession();
    await session.compile('user');
    const pin = session.pinBaseline();
    await session.select({ scenarioKey: 'retry-policy', controls: ['rejected-writer-plan'], lateChanges: [] });
    await session.compile('user');
    const frozen = session.freezeReceipt();
    session.declareLateChange('promote-run-0880');
    const verdict = await session.attemptContinue();
    const diff = session.baselineDiff('user');
    expect(verdict?.action).toBe('recompile_required');
    expect(diff?.identical).toBe(false);

    const link = await session.createShareLink(userDrill);
    if (!link.ok) throw new Error(link.message);
    const other = await newSession();
    const opened = await other.openShareLink(link.fragment);
    if (!opened.ok) throw new Error(JSON.stringify(opened.issues));
    expect(opened.screen).toEqual({
      ...userDrill,
      baseline: pin,
      drill: { frozenReceiptId: frozen.frozenReceiptId, declared: ['promote-run-0880'] },
      notes: [],
    });
    await other.compile('user');
    expect(other.baselineDiff('user')).toEqual(diff);
    expect(await other.attemptContinue()).toEqual(verdict);
  });

  it('made in the user view, holds no id, title or text of a record that view withholds', async () => {
    const session = await newSession();
    // SEC-0042 fails authorisation and LGL-0007 carries a denied label: the user view names neither.
    const withheld = session
      .current()
      .loaded.recordSet.records.filter((record) => ['SEC-0042', 'LGL-0007'].includes(record.id));
    expect(withheld).toHaveLength(2);
    await session.compile('user');
    session.pinBaseline();
    session.freezeReceipt();
    const link = await session.createShareLink(userDrill);
    if (!link.ok) throw new Error(link.message);
    const decoded = await decodeShareFragment(link.fragment);
    if (!decoded.ok) throw new Error('not decoded');
    const payload = JSON.stringify(decoded.value);
    expect(decoded.value.screen?.drill).not.toBeNull();
    for (const record of withheld)
      for (const content of [record.id, record.title, record.text]) expect(payload).not.toContain(content);
  });

  it('made in the user view, carry no loaded file, whatever it holds', async () => {
    const session = await newSession();
    await session.loadFiles(
      [{ name: 'gateway-lite.scenario.json', blob: new Blob([fixture('gateway-lite.scenario.json')]) }],
      () => undefined,
    );
    await session.compile('user');
    expect(await session.createShareLink(userDrill)).toEqual({ ok: false, message: NO_FILES_FROM_USER_VIEW });
    expect((await session.createShareLink({ ...userDrill, audience: 'diagnostic' })).ok).toBe(true);
  });

  it('opened without what a baseline was compiled from, say so and pin nothing', async () => {
    const session = await newSession();
    await session.loadFiles(
      [{ name: 'gateway-lite.scenario.json', blob: new Blob([fixture('gateway-lite.scenario.json')]) }],
      () => undefined,
    );
    await session.compile('diagnostic');
    session.pinBaseline();
    const link = await session.createShareLink({ ...userDrill, audience: 'diagnostic', attempted: false });
    if (!link.ok) throw new Error(link.message);
    const decoded = await decodeShareFragment(link.fragment);
    if (!decoded.ok || !decoded.value.screen?.baseline) throw new Error('no baseline carried');
    const other = await newSession();
    const withoutLoads = await encodeShareFragment({
      ...decoded.value,
      loads: [],
      contractEdits: {},
      selection: { scenarioKey: 'retry-policy', controls: [], lateChanges: [] },
    });
    const opened = await other.openShareLink(withoutLoads);
    if (!opened.ok) throw new Error(JSON.stringify(opened.issues));
    expect(opened.screen?.baseline).toBeNull();
    expect(opened.screen?.notes.join(' ')).toMatch(
      /the pinned baseline names scenario "loaded:gateway-lite", which the link does not load/,
    );
  });
});
