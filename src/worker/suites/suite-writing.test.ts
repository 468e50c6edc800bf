import { sha256 } from '../../core/test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../../adapters/sqlite/compiler';
import { sharedDriver } from '../../core/test-support/node-driver';
import { startedSession } from '../test-support/started-session';

let compiler: SqliteCompiler;
const blob = (text: string) => new Blob([text], { type: 'application/json' });

beforeAll(async () => {
  compiler = createSqliteCompiler(sha256, await sharedDriver());
});

const started = () => startedSession(compiler);

describe('expectations written from the screen', () => {
  it('saves the screen as a case of a new suite for the built-in scenario, which then passes in the Tests panel', async () => {
    const session = await started();
    await session.select({ scenarioKey: 'retry-policy', controls: ['future-reveal'], lateChanges: [] });
    const draft = await session.caseFromScreen(
      { name: 'future reveal, as on screen', records: ['ADR-0240', 'NOPE-1'], suite: null },
      'diagnostic',
    );
    if (!draft.ok) throw new Error(JSON.stringify(draft.issues));
    expect(draft.file).toBe('retry-policy.expect.json');
    expect(draft.notShown).toEqual(['NOPE-1']);
    const suite = JSON.parse(draft.text) as {
      inputs: unknown;
      cases: { controls: string[]; expect: { records: unknown } }[];
    };
    expect(suite.inputs).toEqual({ scenario: 'retry-policy' });
    expect(suite.cases[0]?.controls).toEqual(['future-reveal']);
    expect(suite.cases[0]?.expect.records).toEqual({
      'ADR-0240': { decision: 'excluded', code: 'EXCLUDE_FUTURE', gates: ['time'] },
    });
    expect(draft.diff.every((line) => line.kind === 'added')).toBe(true);
    // Nothing is kept until the page opens it.
    expect(await session.runTests('diagnostic')).toBeNull();
    const opened = await session.openSuites([{ name: draft.file, blob: blob(draft.text) }], 'diagnostic');
    expect(opened.view.passed).toBe(1);
    expect(opened.view.failed).toBe(0);
  });

  it('names the exported scenario file as the inputs of a case saved from an edited contract', async () => {
    const session = await started();
    const contract = session.current().loaded.scenario.contract;
    await session.updateContract({ value: { ...contract, tokenBudget: contract.tokenBudget * 3 } });
    const draft = await session.caseFromScreen({ name: 'edited', records: [], suite: null }, 'diagnostic');
    expect(draft.ok && (JSON.parse(draft.text) as { inputs: unknown }).inputs).toEqual({
      scenarioFile: 'retry-policy.scenario.json',
    });
    expect(session.exportScenario().fileName).toBe('retry-policy.scenario.json');
  });

  it('after a deliberate contract change, updates the failing expectations, shows the diff, and the updated suite passes', async () => {
    const session = await started();
    const first = await session.caseFromScreen({ name: 'default', records: ['RUN-0880'], suite: null }, 'diagnostic');
    if (!first.ok) throw new Error(JSON.stringify(first.issues));
    await session.openSuites([{ name: first.file, blob: blob(first.text) }], 'diagnostic');
    const contract = session.current().loaded.scenario.contract;
    await session.updateContract({ value: { ...contract, tokenBudget: contract.tokenBudget * 3 } });
    expect((await session.runTests('diagnostic'))?.failed).toBe(1);
    const updated = await session.updatedSuite(first.file, 'diagnostic');
    if (!updated.ok) throw new Error(JSON.stringify(updated.issues));
    expect(updated.diff.some((line) => line.kind === 'removed')).toBe(true);
    expect(updated.diff.some((line) => line.kind === 'added' && line.text.includes('RUN-0880'))).toBe(true);
    const reopened = await session.openSuites([{ name: updated.file, blob: blob(updated.text) }], 'diagnostic');
    expect(reopened.view.failed).toBe(0);
  });

  it('adds a case to an open suite and refuses a second case of the same name with its line', async () => {
    const session = await started();
    const first = await session.caseFromScreen({ name: 'one', records: [], suite: null }, 'diagnostic');
    if (!first.ok) throw new Error('not written');
    await session.openSuites([{ name: first.file, blob: blob(first.text) }], 'diagnostic');
    const second = await session.caseFromScreen({ name: 'two', records: [], suite: first.file }, 'diagnostic');
    expect(second.ok && (JSON.parse(second.text) as { cases: unknown[] }).cases).toHaveLength(2);
    const again = await session.caseFromScreen({ name: 'one', records: [], suite: first.file }, 'diagnostic');
    expect(again.ok).toBe(false);
    expect(!again.ok && again.issues[0]?.message).toMatch(/duplicate case name "one"/);
  });

  it('gives the text of an open suite to the editor and checks edited text as the CLI reads it, opening nothing', async () => {
    const session = await started();
    const first = await session.caseFromScreen({ name: 'one', records: [], suite: null }, 'diagnostic');
    if (!first.ok) throw new Error('not written');
    await session.openSuites([{ name: first.file, blob: blob(first.text) }], 'diagnostic');
    expect(session.suiteText(first.file)).toBe(first.text);
    expect(session.suiteText('other.expect.json')).toBeNull();
    expect(session.checkSuite(first.file, first.text)).toEqual([]);
    const misspelt = first.text.replace('"suite"', '"suit"');
    expect(session.checkSuite(first.file, misspelt)).toContainEqual(
      expect.objectContaining({ file: first.file, line: 2, code: 'UNKNOWN_FIELDS' }),
    );
    expect(session.suiteText(first.file)).toBe(first.text);
  });
});
