import { sha256 } from '../../core/test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../../adapters/sqlite/compiler';
import { scenarioSchema } from '../../core/format/scenario';
import { sharedDriver } from '../../core/test-support/node-driver';
import { readBuiltinScenarios } from '../workspace/builtin-sources';
import { savedWorkspaceSchema } from '../protocol';
import { createSession } from '../session';
import { memoryStorage } from '../test-support/memory-storage';
import type { WorkspaceStorage } from '../workspace/workspace-storage';

let compiler: SqliteCompiler;

async function newSession(storage: WorkspaceStorage = memoryStorage()) {
  const session = createSession({ compiler, storage, builtins: readBuiltinScenarios(sha256) });
  await session.start();
  return session;
}

async function compiled(session: Awaited<ReturnType<typeof newSession>>) {
  const response = await session.compile('diagnostic');
  if (!response.ok) throw new Error(response.error.message);
  return {
    receiptId: response.view.receiptId,
    packet: response.view.columns.compiled.entries.map((entry) => entry.id),
  };
}

function recordOf(session: Awaited<ReturnType<typeof newSession>>, id: string) {
  const opened = session.recordForEdit(id, 'diagnostic');
  if (!opened.ok) throw new Error(opened.message);
  return opened.record;
}

describe('record editing', () => {
  beforeAll(async () => {
    compiler = createSqliteCompiler(sha256, await sharedDriver());
  });

  it('applies an edit as a new revision, undone and redone to the same receipts', async () => {
    const session = await newSession();
    const before = await compiled(session);
    const id = before.packet.find((entry) => entry !== 'ADR-0234') ?? '';
    const edited = await session.editRecord(
      { id, value: { ...recordOf(session, id), lifecycle: 'retired' }, as: 'revision' },
      'diagnostic',
    );
    expect(edited).toMatchObject({
      ok: true,
      history: { revision: 1, canUndo: true, canRedo: false },
      message: `Edited ${id} (revision 1).`,
    });
    const after = await compiled(session);
    expect(after.packet).not.toContain(id);

    expect(await session.undoRecordEdit()).toMatchObject({
      ok: true,
      history: { revision: 0, canUndo: false, canRedo: true },
      message: 'Undone: back to revision 0.',
    });
    expect(await compiled(session)).toEqual(before);
    expect(await session.redoRecordEdit()).toMatchObject({ ok: true, message: 'Redone: revision 1.' });
    expect(await compiled(session)).toEqual(after);
  });

  it('refuses an edit that does not validate, naming the field, and changes nothing', async () => {
    const session = await newSession();
    const before = await compiled(session);
    const record = recordOf(session, 'ADR-0234');
    const refused = await session.editRecord(
      { id: 'ADR-0234', value: { ...record, tokens: -3, lifecycle: 'gone' }, as: 'revision' },
      'diagnostic',
    );
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.issues.map((issue) => issue.path).sort()).toEqual(['lifecycle', 'tokens']);
    const text = await session.editRecord(
      { id: 'ADR-0234', text: '{"id": "ADR-0234",\n "title": ""}', as: 'revision' },
      'diagnostic',
    );
    expect(text.ok ? [] : text.issues.find((issue) => issue.path === 'title')).toMatchObject({ line: 2 });
    expect(
      await session.editRecord({ id: 'ADR-0234', value: { ...record, id: 'ADR-9999' }, as: 'revision' }, 'diagnostic'),
    ).toMatchObject({ ok: false, issues: [{ path: 'id' }] });
    expect(await compiled(session)).toEqual(before);
  });

  it('authors a control from an edit, which exports in a valid scenario that loads back to the same receipt', async () => {
    const session = await newSession();
    const before = await compiled(session);
    // SEC-0042 is for security engineers only: a control that grants it to the chain's roles admits it.
    const record = recordOf(session, 'SEC-0042');
    const authored = await session.editRecord(
      {
        id: 'SEC-0042',
        value: { ...record, access: { ...record.access, roles: ['payments_engineer', 'design_assistant'] } },
        as: 'control',
        label: 'Grant SEC-0042 to the team',
      },
      'diagnostic',
    );
    expect(authored).toMatchObject({
      ok: true,
      message:
        'Added the control “Grant SEC-0042 to the team” (grant-sec-0042-to-the-team): it applies the edit of SEC-0042 when switched on.',
    });
    expect(await compiled(session)).toEqual(before);
    await session.select({ scenarioKey: 'retry-policy', controls: ['grant-sec-0042-to-the-team'], lateChanges: [] });
    const on = await compiled(session);
    expect(on.receiptId).not.toBe(before.receiptId);

    const exported = session.exportScenario();
    const file: unknown = JSON.parse(exported.json);
    expect(scenarioSchema.safeParse(file).success).toBe(true);
    const other = await newSession();
    const loaded = await other.loadFiles(
      [{ name: exported.fileName, blob: new Blob([exported.json]) }],
      () => undefined,
    );
    expect(loaded.status).toBe('loaded');
    await other.select({
      scenarioKey: 'loaded:retry-policy',
      controls: ['grant-sec-0042-to-the-team'],
      lateChanges: [],
    });
    expect(await compiled(other)).toEqual(on);
  });

  it('authors a late change from an edit, which the drill judges like a declared one', async () => {
    const session = await newSession();
    const { packet } = await compiled(session);
    const id = packet[packet.length - 1] ?? '';
    const authored = await session.editRecord(
      { id, value: { ...recordOf(session, id), lifecycle: 'retired' }, as: 'late-change', label: `Retire ${id}` },
      'diagnostic',
    );
    if (!authored.ok) throw new Error(JSON.stringify(authored.issues));
    const summary = authored.snapshot.scenarios.find((scenario) => scenario.key === 'retry-policy');
    const changeId = `retire-${id.toLowerCase()}`;
    expect(summary?.lateChanges.map((change) => change.id)).toContain(changeId);
    expect(summary?.recordsEdited).toBe(true);
    await compiled(session);
    session.freezeReceipt();
    session.declareLateChange(changeId);
    expect((await session.attemptContinue())?.action).toBe('recompile_required');
    // A label already taken gets the next free id; an edit that changes nothing is refused.
    const again = await session.editRecord(
      { id, value: { ...recordOf(session, id), tokens: 1 }, as: 'late-change', label: `Retire ${id}` },
      'diagnostic',
    );
    expect(again).toMatchObject({
      ok: true,
      message: `Added the late change “Retire ${id}” (${changeId}-2): it applies the edit of ${id} when switched on.`,
    });
    expect(
      await session.editRecord({ id, value: recordOf(session, id), as: 'control', label: 'Nothing' }, 'diagnostic'),
    ).toMatchObject({ ok: false, issues: [{ code: 'EDIT_CHANGES_NOTHING' }] });
    expect(
      await session.editRecord(
        { id, value: { ...recordOf(session, id), tokens: 2 }, as: 'control', label: ' ' },
        'diagnostic',
      ),
    ).toMatchObject({
      ok: false,
      issues: [{ path: 'label', code: 'EDIT_NEEDS_LABEL' }],
    });
  });

  it('in the user view, opens no record that view withholds', async () => {
    const session = await newSession();
    await session.compile('user');
    const opened = session.recordForEdit('SEC-0042', 'user');
    expect(opened).toMatchObject({ ok: false, message: 'No record "SEC-0042" in this view.' });
    expect(opened.ids).not.toContain('SEC-0042');
    expect(opened.ids).toContain('ADR-0234');
    const record = recordOf(session, 'SEC-0042');
    expect(await session.editRecord({ id: 'SEC-0042', value: record, as: 'revision' }, 'user')).toMatchObject({
      ok: false,
      issues: [{ path: 'id', message: 'no record "SEC-0042" in this view to edit' }],
    });
  });

  it('keeps the edit in force with the saved workspace and in a share link', async () => {
    const storage = memoryStorage();
    const session = await newSession(storage);
    const record = recordOf(session, 'ADR-0234');
    await session.editRecord(
      { id: 'ADR-0234', value: { ...record, title: 'Retry policy, edited' }, as: 'revision' },
      'diagnostic',
    );
    const edited = await compiled(session);
    const saved = savedWorkspaceSchema.parse(storage.saved());
    expect(saved.recordEdits?.['retry-policy']?.records.map((item) => item.title)).toEqual(['Retry policy, edited']);

    const restored = createSession({ compiler, storage: memoryStorage(), builtins: readBuiltinScenarios(sha256) });
    await restored.start(saved);
    expect(await compiled(restored)).toEqual(edited);

    const link = await session.createShareLink();
    if (!link.ok) throw new Error(link.message);
    const other = await newSession();
    const opened = await other.openShareLink(link.fragment);
    expect(opened.ok).toBe(true);
    expect(await compiled(other)).toEqual(edited);
  });
});
