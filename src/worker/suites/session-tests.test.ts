import { sha256 } from '../../core/test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../../adapters/sqlite/compiler';
import { sharedDriver } from '../../core/test-support/node-driver';
import { readBuiltinScenarios } from '../workspace/builtin-sources';
import { createSession } from '../session';
import { startedSession } from '../test-support/started-session';
import { decodeShareFragment, encodeShareFragment } from '../exports/share-link';
import shippedSuite from '../../../fixtures/retry-policy/poison-controls.expect.json?raw';

let compiler: SqliteCompiler;
const writes: unknown[] = [];
const memoryStorage = () => ({
  read: async () => undefined,
  write: async (saved: unknown) => void writes.push(saved),
  clear: async () => undefined,
  watch: () => undefined,
});
const blob = (text: string) => new Blob([text], { type: 'application/json' });

beforeAll(async () => {
  compiler = createSqliteCompiler(sha256, await sharedDriver());
});

const started = () => startedSession(compiler, memoryStorage());

describe('the session runs the Tests panel', () => {
  it('opens a dropped suite in the Tests panel, not as an input: it is run on the inputs on screen and follows their controls', async () => {
    const session = await started();
    expect(await session.runTests('diagnostic')).toBeNull();
    const loaded = await session.loadFiles(
      [{ name: 'poison-controls.expect.json', blob: blob(shippedSuite) }],
      () => undefined,
    );
    expect(loaded).toMatchObject({ status: 'loaded', kinds: [], suites: ['poison-controls.expect.json'] });
    const green = await session.runTests('diagnostic');
    expect(green?.failed).toBe(0);
    expect(green?.passed).toBeGreaterThan(0);
    // Coverage is of what the cases reached on the inputs on screen, against what those inputs offer.
    expect(green?.coverage?.codes.reached).toContain('EXCLUDE_FUTURE');
    expect(green?.coverage?.gates.reached).toContain('time');
    expect(green?.suites[0]?.coverage.controls.missed).toEqual(green?.coverage?.controls.missed);
    await session.select({ scenarioKey: 'retry-policy', controls: ['tight-budget'], lateChanges: [] });
    const red = await session.runTests('diagnostic');
    const [defaults] = red?.suites[0]?.cases ?? [];
    expect(defaults?.passed).toBe(false);
    // The budget is too tight for the required decision: the compiler refuses, and the case says so.
    expect(defaults?.mismatches[0]).toMatchObject({
      field: 'outcome',
      place: expect.stringMatching(/^line \d+: cases\[0\]\.expect\.outcome$/),
      expected: 'packet',
      actual: expect.stringMatching(/^fail_closed /),
    });
  });

  it('knows a suite by its shape under any name, refuses a bad one with its file, line and field, and never saves one with the files', async () => {
    const session = await started();
    const bad = JSON.stringify(
      { suite: 's', inputs: { scenario: 'retry-policy' }, cases: [{ name: 'x', expect: { outcom: 'packet' } }] },
      null,
      2,
    );
    const refused = await session.loadFiles([{ name: 'exercise.json', blob: blob(bad) }], () => undefined);
    expect(refused.status).toBe('rejected');
    expect(refused.status === 'rejected' && refused.issues[0]).toMatchObject({
      file: 'exercise.json',
      path: 'cases[0].expect',
      line: expect.any(Number),
    });
    expect(refused.status === 'rejected' && refused.summaries[0]?.message).toMatch(
      /^read as an expectation suite: not a valid expectation suite/,
    );
    writes.length = 0;
    const scenario = JSON.stringify({ ...JSON.parse(session.exportScenario().json), id: 'mine' });
    const both = await session.loadFiles(
      [
        { name: 'mine.scenario.json', blob: blob(scenario) },
        { name: 'poison-controls.expect.json', blob: blob(shippedSuite) },
      ],
      () => undefined,
    );
    expect(both).toMatchObject({ status: 'loaded', suites: ['poison-controls.expect.json'] });
    const saved = writes.at(-1) as { loads: { files: { name: string }[] }[] };
    expect(saved.loads.flatMap((load) => load.files.map((file) => file.name))).toEqual(['mine.scenario.json']);
    // Written for retry-policy, run on the scenario on screen, and said so.
    expect((await session.runTests('diagnostic'))?.suites[0]?.inputsNote).toMatch(
      /^Written for the built-in scenario retry-policy; run on the inputs on screen \(mine\)/,
    );
  });

  it('opens and closes suites from the panel, keeps the good ones of a mixed open, and forgets them all on a reset', async () => {
    const session = await started();
    const good = JSON.stringify({
      suite: 'g',
      inputs: { scenario: 'retry-policy' },
      cases: [{ name: 'a packet', expect: { outcome: 'packet' } }],
    });
    const opened = await session.openSuites(
      [
        { name: 'good.expect.json', blob: blob(good) },
        { name: 'bad.expect.json', blob: blob('{ "suite": ') },
      ],
      'diagnostic',
    );
    expect(opened.ok).toBe(false);
    expect(!opened.ok && opened.issues[0]?.file).toBe('bad.expect.json');
    expect(opened.view.suites.map((suite) => suite.file)).toEqual(['good.expect.json']);
    expect((await session.closeSuite('good.expect.json', 'diagnostic')).suites).toEqual([]);
    await session.openSuites([{ name: 'good.expect.json', blob: blob(good) }], 'diagnostic');
    await session.resetWorkspace();
    expect(await session.runTests('diagnostic')).toBeNull();
  });

  it('in the user view, a case about a withheld record reads as one about a record not there', async () => {
    const session = await started();
    const suite = (id: string) =>
      JSON.stringify({
        suite: 's',
        inputs: { scenario: 'retry-policy' },
        cases: [{ name: 'c', expect: { records: { [id]: { decision: 'selected' } }, selected: { includes: [id] } } }],
      });
    const shape = async (id: string) => {
      await session.openSuites([{ name: 's.expect.json', blob: blob(suite(id)) }], 'user');
      const [entry] = (await session.runTests('user'))?.suites[0]?.cases ?? [];
      return {
        passed: entry?.passed,
        notChecked: entry?.notChecked,
        mismatches: entry?.mismatches.map(({ record, actual, field }) => ({
          record,
          field,
          withheld: actual.includes('LGL-0007'),
        })),
      };
    };
    expect(await shape('LGL-0007')).toEqual(await shape('NO-SUCH-1'));
  });

  it('suites travel in share links: opened in place of those open, and a bad one refuses the whole link', async () => {
    const sender = await started();
    await sender.openSuites([{ name: 'poison-controls.expect.json', blob: blob(shippedSuite) }], 'diagnostic');
    const link = await sender.createShareLink();
    if (!link.ok) throw new Error(link.message);
    const receiver = await started();
    await receiver.openSuites(
      [
        {
          name: 'mine.expect.json',
          blob: blob(JSON.stringify({ suite: 'mine', inputs: { scenario: 'retry-policy' }, cases: [] })),
        },
      ],
      'diagnostic',
    );
    expect(await receiver.openShareLink(link.fragment)).toMatchObject({ ok: true });
    const opened = await receiver.runTests('diagnostic');
    expect(opened?.suites.map((suite) => suite.file)).toEqual(['poison-controls.expect.json']);
    expect(opened).toEqual(await sender.runTests('diagnostic'));

    const decoded = await decodeShareFragment(link.fragment);
    if (!decoded.ok) throw new Error('the link does not decode');
    const broken = await encodeShareFragment({
      ...decoded.value,
      suites: [{ name: 'bad.expect.json', text: '{ "suite": "x" }' }],
    });
    const refused = await receiver.openShareLink(broken);
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.issues[0]?.file).toBe('bad.expect.json');
    expect((await receiver.runTests('diagnostic'))?.suites.map((suite) => suite.file)).toEqual([
      'poison-controls.expect.json',
    ]);
    // A link without suites (made before they travelled, or with none open) opens with none.
    const { suites: _suites, ...withoutSuites } = decoded.value;
    expect(await receiver.openShareLink(await encodeShareFragment(withoutSuites))).toMatchObject({ ok: true });
    expect(await receiver.runTests('diagnostic')).toBeNull();
  });

  it('suites travel in exported scenarios: loading the export opens them, their places lines of the scenario file', async () => {
    const sender = await started();
    expect(JSON.parse(sender.exportScenario().json)).not.toHaveProperty('suites');
    await sender.openSuites([{ name: 'poison-controls.expect.json', blob: blob(shippedSuite) }], 'diagnostic');
    const exported = sender.exportScenario();
    const file = JSON.parse(exported.json) as { suites: { suite: string; $schema?: string }[] };
    expect(file.suites.map((suite) => suite.suite)).toEqual(['retry-policy: the seven poison controls']);
    expect(file.suites[0]).not.toHaveProperty('$schema');

    const receiver = await started();
    const loaded = await receiver.loadFiles([{ name: exported.fileName, blob: blob(exported.json) }], () => undefined);
    const carried = `${exported.fileName}#suites[0]`;
    expect(loaded).toMatchObject({ status: 'loaded', suites: [carried] });
    await receiver.select({ scenarioKey: 'loaded:retry-policy', controls: ['tight-budget'], lateChanges: [] });
    const [defaults] = (await receiver.runTests('diagnostic'))?.suites[0]?.cases ?? [];
    expect(defaults?.passed).toBe(false);
    const line = Number(/^line (\d+):/.exec(defaults?.mismatches[0]?.place ?? '')?.[1]);
    expect(exported.json.split('\n')[line - 1]).toContain('"outcome": "packet"');
  });

  it('the open suites are saved with the workspace: a restarted worker and a reload open them again', async () => {
    const events: { workspace: unknown }[] = [];
    const session = createSession({ compiler, storage: memoryStorage(), builtins: readBuiltinScenarios(sha256) });
    await session.start(null, (event) => events.push(event));
    await session.openSuites([{ name: 'poison-controls.expect.json', blob: blob(shippedSuite) }], 'diagnostic');
    await new Promise((resolve) => setTimeout(resolve, 0));
    const kept = events.at(-1)?.workspace as Parameters<typeof session.start>[0];
    expect(kept?.suites?.map((suite) => suite.name)).toEqual(['poison-controls.expect.json']);
    expect(writes.at(-1)).toEqual(kept);

    const restarted = createSession({ compiler, storage: memoryStorage(), builtins: readBuiltinScenarios(sha256) });
    await restarted.start(kept);
    expect(await restarted.runTests('diagnostic')).toEqual(await session.runTests('diagnostic'));
    await session.closeSuite('poison-controls.expect.json', 'diagnostic');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(events.at(-1)?.workspace).not.toHaveProperty('suites');
  });
});
