import { sha256 } from '../core/test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../adapters/sqlite/compiler';
import { REDACTED_RECORD } from '../core/change-text';
import { parseScenarioJson } from '../core/phases/1-validate/validate';
import { buildContract, buildRecord } from '../core/test-support/builders';
import { sharedDriver } from '../core/test-support/node-driver';
import { readBuiltinScenarios } from './workspace/builtin-sources';
import { createSession } from './session';
import type { WorkspaceStorage } from './workspace/workspace-storage';

const storage: WorkspaceStorage = {
  read: async () => undefined,
  write: async () => undefined,
  clear: async () => undefined,
  watch: () => undefined,
};
let compiler: SqliteCompiler;

describe('scenario text names no record the view withholds', () => {
  beforeAll(async () => {
    compiler = createSqliteCompiler(sha256, await sharedDriver());
  });

  it('the user view redacts X9 in the control, its help text and its chip; the diagnostic view names it', async () => {
    const session = createSession({ compiler, storage, builtins: readBuiltinScenarios(sha256) });
    await session.start();
    await session.select({ scenarioKey: 'atlas-credit-review', controls: ['grant-agent-permit'], lateChanges: [] });
    const user = await session.compile('user');
    if (!user.ok) throw new Error(user.error.message);
    const text = user.view.changeTexts.find((change) => change.id === 'grant-agent-permit');
    expect(text?.label).toBe(`Grant the credit team a permit to ${REDACTED_RECORD}`);
    expect(text?.explanation).toContain(`read ${REDACTED_RECORD}:`);
    expect(JSON.stringify(user.view.changeTexts)).not.toMatch(/\bX9\b/);
    expect(user.view.appliedChanges.map((change) => change.label)).toEqual([
      `Grant the credit team a permit to ${REDACTED_RECORD}`,
    ]);
    // W-61 is only added by its control, so nothing withholds it: named.
    expect(user.view.changeTexts.find((change) => change.id === 'officer-approves-waiver')?.explanation).toContain(
      'W-61',
    );
    const diagnostic = await session.disclose('diagnostic');
    if (!diagnostic.ok) throw new Error(diagnostic.error.message);
    expect(diagnostic.view.changeTexts.find((change) => change.id === 'grant-agent-permit')?.label).toBe(
      'Grant the credit team a permit to X9',
    );
    expect(diagnostic.view.appliedChanges[0]?.label).toBe('Grant the credit team a permit to X9');
  });

  it('refuses a control whose text names a record of the scenario it does not declare, with file, line and field', () => {
    const scenario = (mentions?: string[]) =>
      JSON.stringify(
        {
          id: 'named',
          title: 'Named',
          contract: buildContract(),
          records: [buildRecord({ id: 'SECRET-1' }), buildRecord({ id: 'OPEN-2' })],
          controls: [
            {
              id: 'budget',
              label: 'Tighten the budget',
              explanation: 'Leaves out (SECRET-1), a record some callers may not read.',
              patches: [{ op: 'mergeContract', patch: { tokenBudget: 5 } }],
              ...(mentions ? { mentions } : {}),
            },
          ],
        },
        null,
        2,
      );
    const refused = parseScenarioJson(sha256, 'named.scenario.json', scenario(), () => null);
    if (refused.ok) throw new Error('accepted an undeclared mention');
    expect(refused.error.issues).toEqual([
      {
        file: 'named.scenario.json',
        line: expect.any(Number),
        path: 'controls[0].explanation',
        code: 'CHANGE_NAMES_UNDECLARED',
        args: { record: 'SECRET-1', change: 'budget' },
        message: expect.stringContaining('names record SECRET-1, which budget neither patches nor lists in "mentions"'),
      },
    ]);
    expect(refused.error.issues?.[0]?.line).toBe(
      scenario()
        .split('\n')
        .findIndex((line) => line.includes('"explanation"')) + 1,
    );
    expect(parseScenarioJson(sha256, 'named.scenario.json', scenario(['SECRET-1']), () => null).ok).toBe(true);
  });
});
