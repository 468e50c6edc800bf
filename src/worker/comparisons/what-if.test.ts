import { sha256 } from '../../core/test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../../adapters/sqlite/compiler';
import { sharedDriver } from '../../core/test-support/node-driver';
import { DEFAULT_TRACE_QUERY } from '../../shared/trace-page';
import { readBuiltinScenarios } from '../workspace/builtin-sources';
import { createSession, type Session } from '../session';
import { memoryStorage } from '../test-support/memory-storage';

let compiler: SqliteCompiler;

beforeAll(async () => {
  compiler = createSqliteCompiler(sha256, await sharedDriver());
});

async function compiled(scenarioKey: string, audience: 'user' | 'diagnostic'): Promise<Session> {
  const session = createSession({ compiler, storage: memoryStorage(), builtins: readBuiltinScenarios(sha256) });
  await session.start();
  await session.select({ scenarioKey, controls: [], lateChanges: [] });
  const response = await session.compile(audience);
  if (!response.ok) throw new Error(response.error.message);
  return session;
}

describe('what would admit or exclude a record, from the session', () => {
  it('offers dropping the deny label for LGL-0007, verified by compiling it, and applying it admits the record', async () => {
    const session = await compiled('retry-policy', 'diagnostic');
    const answer = await session.whatWouldChange('LGL-0007', 'diagnostic');
    if (!answer.ok) throw new Error(answer.message);
    expect(answer.admitted).toBe(false);
    expect(answer.suggestions.map((s) => [s.code, s.text, s.verifiedBy.change])).toEqual([
      ['DROP_DENY_LABELS', 'stop denying the labels [legal_hold]', 'contract'],
    ]);
    const [drop] = answer.suggestions;
    if (!drop) throw new Error('no suggestion');
    const update = await session.applySuggestion(drop, 'LGL-0007', 'diagnostic');
    expect(update.ok).toBe(true);
    const after = await session.compile('diagnostic');
    if (!after.ok) throw new Error(after.error.message);
    expect(after.view.compiledContract.denyLabels).not.toContain('legal_hold');
    expect(after.view.contractFingerprint).toBe(drop.verifiedBy.contractFingerprint);
    const row = session.queryTrace({
      ...DEFAULT_TRACE_QUERY,
      audience: 'diagnostic',
      text: 'LGL-0007',
      offset: 0,
      limit: 1,
    }).rows[0];
    expect(row && [row.decision, row.code]).toEqual([drop.verifiedBy.decision, drop.verifiedBy.code]);
    // And the other way: what would exclude it now that it is admitted.
    const back = await session.whatWouldChange('LGL-0007', 'diagnostic');
    expect(back.ok && back.admitted && back.suggestions.map((s) => s.code)).toContain('DENY_LABEL');
  });

  it('answers a record the user view withholds exactly as an id no record has', async () => {
    const session = await compiled('retry-policy', 'user');
    const withheld = await session.whatWouldChange('LGL-0007', 'user');
    const unknown = await session.whatWouldChange('NO-SUCH-RECORD', 'user');
    expect(withheld).toEqual({ ok: false, message: 'No record "LGL-0007" in this view.' });
    expect(JSON.stringify(withheld).replace('LGL-0007', '<id>')).toBe(
      JSON.stringify(unknown).replace('NO-SUCH-RECORD', '<id>'),
    );
    const visible = await session.whatWouldChange('RUN-0866', 'user');
    expect(visible.ok && visible.suggestions.map((s) => [s.code, s.verifiedBy.change])).toEqual([
      ['SUPPLY_PROVENANCE', 'record'],
    ]);
  });

  it('applies missing provenance as a new revision of the record, which admits it; refuses a code it does not know, or a record the view withholds', async () => {
    const session = await compiled('retry-policy', 'user');
    const answer = await session.whatWouldChange('RUN-0866', 'user');
    const provenance = answer.ok ? answer.suggestions.find((s) => s.code === 'SUPPLY_PROVENANCE') : undefined;
    if (!answer.ok || provenance === undefined) throw new Error('no provenance suggestion for RUN-0866');
    expect(answer.admitted).toBe(false);
    const before = session.current().loaded.scenario.contract;
    const unknown = await session.applySuggestion({ code: 'NOT_A_CODE' as 'ADD_ROLE', args: {} }, 'RUN-0866', 'user');
    expect(unknown.ok || unknown.issues.map((issue) => issue.code)).toEqual(['SUGGESTION_UNKNOWN']);
    const withheld = await session.applySuggestion(provenance, 'LGL-0007', 'user');
    expect(withheld.ok || withheld.issues.map((issue) => issue.message)).toEqual([
      'no record "LGL-0007" in this view to edit',
    ]);
    expect(session.current().loaded.scenario.contract).toBe(before);
    expect((await session.applySuggestion(provenance, 'RUN-0866', 'user')).ok).toBe(true);
    const after = await session.compile('user');
    if (!after.ok) throw new Error(after.error.message);
    const again = await session.whatWouldChange('RUN-0866', 'user');
    expect(again.ok && again.admitted).toBe(true);
    expect(session.current().loaded.scenario.contract).toBe(before);
  });
});
