import { sha256 } from '../../core/test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../../adapters/sqlite/compiler';
import { sharedDriver } from '../../core/test-support/node-driver';
import { DEFAULT_TRACE_QUERY } from '../../shared/trace-page';
import { readBuiltinScenarios } from '../workspace/builtin-sources';
import type { Audience } from '../../core/disclosure';
import { MAX_TRACE_WINDOW } from '../protocol';
import type { DisclosedView } from '../../core/disclosure';
import type { TraceRow } from '../../core/result';
import { rowMarks } from './change-marks';
import { createSession, type Session } from '../session';
import { memoryStorage } from '../test-support/memory-storage';

let compiler: SqliteCompiler;

beforeAll(async () => {
  compiler = createSqliteCompiler(sha256, await sharedDriver());
});

async function sessionOn(scenarioKey: string): Promise<Session> {
  const session = createSession({ compiler, storage: memoryStorage(), builtins: readBuiltinScenarios(sha256) });
  await session.start();
  await session.select({ scenarioKey, controls: [], lateChanges: [] });
  return session;
}

async function viewOf(session: Session, audience: Audience) {
  const response = await session.compile(audience);
  if (!response.ok) throw new Error(response.error.message);
  return response.view;
}

const markedRows = (session: Session, audience: Audience) =>
  session
    .queryTrace({ ...DEFAULT_TRACE_QUERY, audience, offset: 0, limit: MAX_TRACE_WINDOW })
    .rows.filter((row) => row.mark !== null)
    .map((row) => [row.id, row.mark]);

describe('what each recompilation changed, against the one before it', () => {
  it('marks the superseded decision entering the naive packet and its new trace row, and leaving again when switched off', async () => {
    const session = await sessionOn('retry-policy');
    expect((await viewOf(session, 'diagnostic')).marks).toBeNull();
    expect(markedRows(session, 'diagnostic')).toEqual([]);

    await session.select({ scenarioKey: 'retry-policy', controls: ['superseded-decision'], lateChanges: [] });
    const on = await viewOf(session, 'diagnostic');
    expect(on.marks?.since).toBe(on.compilation - 1);
    expect(on.marks?.columns.naive?.entered).toContain('ADR-0198');
    expect(on.columns.naive?.entries.find((entry) => entry.id === 'ADR-0198')).toMatchObject({
      illegal: true,
      code: 'EXCLUDE_SUPERSEDED',
    });
    expect(on.marks?.columns.compiled).toEqual({ entered: [], left: [] });
    expect(markedRows(session, 'diagnostic')).toEqual([['ADR-0198', { kind: 'new' }]]);

    await session.select({ scenarioKey: 'retry-policy', controls: [], lateChanges: [] });
    const off = await viewOf(session, 'diagnostic');
    expect(off.marks?.columns.naive?.entered).not.toContain('ADR-0198');
    expect(off.marks?.columns.naive?.left).toContainEqual({
      id: 'ADR-0198',
      title: 'Retry backoff policy for card authorisation timeouts (2024)',
      now: null,
    });
    expect(markedRows(session, 'diagnostic')).toEqual([]);
  });

  it('marks a decision that changed with what it was, and the compiled packet losing every entry when it fails closed', async () => {
    const session = await sessionOn('retry-policy');
    const before = await viewOf(session, 'diagnostic');
    await session.select({ scenarioKey: 'retry-policy', controls: ['remove-provenance'], lateChanges: [] });
    const after = await viewOf(session, 'diagnostic');
    expect(after.status).toBe('fail_closed');
    expect(after.marks?.columns.compiled.left.map((entry) => entry.id)).toEqual(
      before.columns.compiled.entries.map((entry) => entry.id),
    );
    expect(after.marks?.columns.compiled.left.find((entry) => entry.id === 'ADR-0234')?.now).toEqual({
      decision: 'excluded',
      code: 'REQUIRED_MISSING_PROVENANCE',
    });
    expect(markedRows(session, 'diagnostic')).toContainEqual([
      'ADR-0234',
      { kind: 'decision', before: { decision: 'selected', code: 'SELECTED_REQUIRED' } },
    ]);
  });

  it('marks against the compilation the page shows, also when the page dropped the answer to one a burst superseded', async () => {
    const session = await sessionOn('retry-policy');
    const shown = await viewOf(session, 'diagnostic');
    // Switched on, compiled, and its answer never shown (the user switched it off again meanwhile).
    await session.select({ scenarioKey: 'retry-policy', controls: ['superseded-decision'], lateChanges: [] });
    const dropped = await viewOf(session, 'diagnostic');
    expect(dropped.marks?.columns.naive?.entered).toContain('ADR-0198');
    await session.select({ scenarioKey: 'retry-policy', controls: [], lateChanges: [] });
    const against = async (compilation: number | null) => {
      const response = await session.compile('diagnostic', compilation);
      if (!response.ok) throw new Error(response.error.message);
      return response.view.marks;
    };
    // Against the one on screen, nothing changed; against the dropped one, ADR-0198 would seem to have left.
    const marks = await against(shown.compilation);
    expect(marks).toMatchObject({
      since: shown.compilation,
      columns: { naive: { entered: [], left: [] }, compiled: { entered: [], left: [] } },
    });
    expect(markedRows(session, 'diagnostic')).toEqual([]);
    // A view on screen that is neither of the last two (a result remembered from the last session) gets no marks.
    expect(await against(0)).toBeNull();
  });

  it('compares only compilations of the same scenario', async () => {
    const session = await sessionOn('retry-policy');
    await viewOf(session, 'diagnostic');
    await session.select({ scenarioKey: 'atlas-credit-review', controls: [], lateChanges: [] });
    expect((await viewOf(session, 'diagnostic')).marks).toBeNull();
    expect(markedRows(session, 'diagnostic')).toEqual([]);
  });

  it('in the user view never marks a record withheld at either compilation, while the diagnostic view does', async () => {
    const session = await sessionOn('atlas-credit-review');
    await viewOf(session, 'user');
    await session.select({
      scenarioKey: 'atlas-credit-review',
      controls: ['grant-agent-permit', 'different-caller'],
      lateChanges: [],
    });
    const user = await viewOf(session, 'user');
    const userRows = markedRows(session, 'user');
    const withheld = session
      .queryTrace({ ...DEFAULT_TRACE_QUERY, audience: 'diagnostic', offset: 0, limit: MAX_TRACE_WINDOW })
      .rows.filter((row) => ['EXCLUDE_NOT_AUTHORISED', 'EXCLUDE_PURPOSE', 'EXCLUDE_DENY_LABEL'].includes(row.code))
      .map((row) => row.id);
    expect(withheld).toContain('X9');
    const diagnostic = await session.disclose('diagnostic');
    if (!diagnostic.ok) throw new Error(diagnostic.error.message);
    // The caller change moves records into withheld ones: the diagnostic view marks them, the user view names none.
    expect(markedRows(session, 'diagnostic').length).toBeGreaterThan(0);
    expect(diagnostic.view.marks?.columns.compiled.left.length).toBeGreaterThan(0);
    for (const id of withheld) {
      expect(JSON.stringify(user.marks)).not.toContain(`"${id}"`);
      expect(userRows.map(([row]) => row)).not.toContain(id);
    }
  });

  it('finds the same marks whether the two traces line up row for row or part after an added record', () => {
    const view = (
      rows: readonly (readonly [string, TraceRow['decision']])[],
      withheld: readonly string[] = [],
    ): DisclosedView => ({
      audience: 'user',
      rows: rows.map(
        ([id, decision]) =>
          ({ id, decision, code: decision === 'selected' ? 'SELECTED_RANKED' : 'EXCLUDE_BUDGET' }) as TraceRow,
      ),
      withheld: new Set(withheld),
      ranks: new Map(),
      withheldCount: withheld.length,
      excludedWithoutRow: 0,
      unreadable: [],
      withheldNotice: null,
      failureMessage: null,
    });
    const before = view(
      [
        ['a', 'selected'],
        ['b', 'excluded'],
        ['c', 'selected'],
        ['d', 'excluded'],
      ],
      ['w'],
    );
    expect([
      ...rowMarks(
        before,
        view([
          ['a', 'selected'],
          ['b', 'selected'],
          ['c', 'selected'],
          ['d', 'excluded'],
        ]),
      ),
    ]).toEqual([['b', { kind: 'decision', before: { decision: 'excluded', code: 'EXCLUDE_BUDGET' } }]]);
    const parted = rowMarks(
      before,
      view([
        ['a', 'selected'],
        ['n', 'excluded'],
        ['w', 'selected'],
        ['b', 'excluded'],
        ['c', 'excluded'],
        ['d', 'excluded'],
      ]),
    );
    expect([...parted]).toEqual([
      ['n', { kind: 'new' }],
      ['c', { kind: 'decision', before: { decision: 'selected', code: 'SELECTED_RANKED' } }],
    ]);
  });
});
