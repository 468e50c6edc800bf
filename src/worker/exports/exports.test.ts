import { sha256 } from '../../core/test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../../adapters/sqlite/compiler';
import { sharedDriver } from '../../core/test-support/node-driver';
import { readBuiltinScenarios } from '../workspace/builtin-sources';
import { userViewExportSchema } from '../../core/format/user-view-export';
import { createSession } from '../session';
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

describe('exports', () => {
  beforeAll(async () => {
    compiler = createSqliteCompiler(sha256, await sharedDriver());
  });

  it('exports the receipt as an in-toto statement whose packet subject is the copied packet text', async () => {
    const { session } = await newSession();
    expect(session.statementJson()).toBeNull();
    const compiled = await session.compile('diagnostic');
    if (!compiled.ok) throw new Error(compiled.error.message);
    const statement = JSON.parse(session.statementJson() ?? '') as {
      _type: string;
      subject: { name: string; digest: { sha256?: string } }[];
      predicate: { receiptId: string };
    };
    expect(statement._type).toBe('https://in-toto.io/Statement/v1');
    expect(statement.predicate.receiptId).toBe(compiled.view.receiptId);
    expect(statement.subject[0]).toMatchObject({
      name: 'packet.txt',
      digest: { sha256: sha256.hex(compiled.view.packetText ?? '') },
    });
  });

  it('exports from the user view only what the user view shows, labelled, with no digest over withheld records', async () => {
    const { session } = await newSession();
    await session.select({ scenarioKey: 'atlas-credit-review', controls: [], lateChanges: [] });
    const diagnostic = await session.compile('diagnostic');
    if (!diagnostic.ok) throw new Error(diagnostic.error.message);
    const user = await session.disclose('user');
    if (!user.ok) throw new Error(user.error.message);
    const visible = new Set(
      session
        .queryTrace({
          audience: 'user',
          sortKey: 'order',
          descending: false,
          decision: 'all',
          code: 'all',
          text: '',
          offset: 0,
          limit: 1000,
        })
        .rows.map((row) => row.id),
    );
    const withheld = session
      .queryTrace({
        audience: 'diagnostic',
        sortKey: 'order',
        descending: false,
        decision: 'all',
        code: 'all',
        text: '',
        offset: 0,
        limit: 1000,
      })
      .rows.filter((row) => !visible.has(row.id));
    expect(withheld.length).toBeGreaterThan(0);
    // The receipt names the withheld record and its fact (the roles that would admit it); the user view's exports must
    // not.
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
    expect(JSON.parse(session.packetJson('user') ?? '{}')).toMatchObject({
      view: 'user',
      packetFingerprint: diagnostic.view.packetFingerprint,
    });
    expect(user.view.packetText).toMatch(
      /^=== CONTEXT PACKET ===\nview: user \(1 record is outside the authorised scope and not named; /,
    );
    expect(JSON.parse(session.packetJson('diagnostic') ?? '{}')).toMatchObject({
      view: 'diagnostic',
      receiptId: diagnostic.view.receiptId,
    });
  });

  it('exports the scenario in force as a file that loads back to the same receipt, edits and controls included', async () => {
    const { session } = await newSession();
    const contract = session.current().loaded.scenario.contract;
    await session.updateContract({ value: { ...contract, tokenBudget: 80, query: 'retry timeouts' } });
    await session.select({ scenarioKey: 'retry-policy', controls: ['future-reveal'], lateChanges: [] });
    const edited = await session.compile('diagnostic');
    if (!edited.ok) throw new Error(edited.error.message);
    const exported = session.exportScenario();
    expect(exported).toMatchObject({ fileName: 'retry-policy.scenario.json', edited: true });

    await session.resetWorkspace();
    const loaded = await session.loadFiles([file(exported.fileName, exported.json)], noProgress);
    expect(loaded.status).toBe('loaded');
    // The tour travels with it: the loaded scenario shows the same steps as the built-in one.
    const summaries = loaded.status === 'loaded' ? loaded.snapshot.scenarios : [];
    expect(summaries.find((scenario) => scenario.key === 'loaded:retry-policy')?.tour).toEqual(
      summaries.find((scenario) => scenario.key === 'retry-policy')?.tour,
    );
    expect(summaries.find((scenario) => scenario.key === 'retry-policy')?.tour).toHaveLength(8);
    // Loading selects the scenario with every control off, as for any scenario; switching the same one on gives the
    // same receipt.
    await session.select({ scenarioKey: 'loaded:retry-policy', controls: ['future-reveal'], lateChanges: [] });
    const again = await session.compile('diagnostic');
    if (!again.ok) throw new Error(again.error.message);
    expect(again.view.receiptId).toBe(edited.view.receiptId);
  });
});
