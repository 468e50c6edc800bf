import { sha256 } from '../../core/test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../../adapters/sqlite/compiler';
import { sharedDriver } from '../../core/test-support/node-driver';
import { receiptIdOf } from '../../core/phases/7-attest/attest';
import type { Receipt } from '../../core/result';
import { readBuiltinScenarios } from '../workspace/builtin-sources';
import { createSession } from '../session';
import type { WorkspaceStorage } from '../workspace/workspace-storage';
import { memoryStorage } from '../test-support/memory-storage';

// One compiler per database, as in the worker: the record index owns the database's tables.
let compiler: SqliteCompiler;

async function newSession(storage: WorkspaceStorage = memoryStorage()) {
  const session = createSession({ compiler, storage, builtins: readBuiltinScenarios(sha256) });
  return { session, snapshot: await session.start() };
}

describe('comparisons', () => {
  beforeAll(async () => {
    compiler = createSqliteCompiler(sha256, await sharedDriver());
  });

  it('diffs two receipts for the baseline view, disclosed for the audience, and names bad input', async () => {
    const { session } = await newSession();
    await session.compile('diagnostic');
    const baseline = session.receiptJson() ?? '';
    await session.select({ scenarioKey: 'retry-policy', controls: ['superseded-decision'], lateChanges: [] });
    await session.compile('diagnostic');
    const current = session.receiptJson() ?? '';
    const response = session.diffReceipts(
      { name: 'baseline', text: baseline },
      { name: 'current', text: current },
      'diagnostic',
    );
    if (!response.ok) throw new Error(JSON.stringify(response.issues));
    expect(response.diff.records.added).toEqual(['ADR-0198']);
    expect(response.view.sections.find((section) => section.key === 'fields')?.lines).toContain(
      'controls [] → [superseded-decision]',
    );

    // A withheld record (LGL-0007 is denied to this caller) is named in the diagnostic view only.
    const { receiptId, ...edited } = JSON.parse(current) as Receipt;
    const body = {
      ...edited,
      trace: edited.trace.map((row) => (row.id === 'LGL-0007' ? { ...row, tokens: row.tokens + 1 } : row)),
    };
    // An edit whose id was not computed again is refused, naming the file, before anything is compared.
    const unverified = session.diffReceipts(
      { name: 'a', text: current },
      { name: 'b', text: JSON.stringify({ ...body, receiptId }) },
      'diagnostic',
    );
    expect(!unverified.ok && unverified.issues).toEqual([
      {
        file: 'b',
        path: 'receiptId',
        code: 'RECEIPT_UNUSABLE',
        args: { code: 'RECEIPT_INVALID', detail: 'Its content hashes to a different id.' },
        message: expect.stringMatching(/^RECEIPT_INVALID: /),
      },
    ]);
    const reIded = JSON.stringify({ ...body, receiptId: receiptIdOf(sha256, body) });
    const diagnostic = session.diffReceipts({ name: 'a', text: current }, { name: 'b', text: reIded }, 'diagnostic');
    const user = session.diffReceipts({ name: 'a', text: current }, { name: 'b', text: reIded }, 'user');
    expect(diagnostic.ok && diagnostic.diff.rows).toEqual([{ id: 'LGL-0007', fields: ['tokens'] }]);
    if (!user.ok) throw new Error('expected a diff');
    expect(JSON.stringify(user)).not.toContain('LGL-0007');
    expect(user.diff.identical).toBe(true);
    expect(user.view.sections).toEqual([]);

    const bad = session.diffReceipts(
      { name: 'baseline', text: '{"receiptId":"x"}' },
      { name: 'current', text: current },
      'diagnostic',
    );
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.issues[0]).toMatchObject({ file: 'baseline', path: 'receiptId' });
  });
});
