import { sha256 } from '../../core/test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';

import { createSqliteCompiler, type SqliteCompiler } from '../../adapters/sqlite/compiler';
import { GATE_ORDER } from '../../core/result';
import { buildContract, buildRecord } from '../../core/test-support/builders';
import { sharedDriver } from '../../core/test-support/node-driver';
import { readBuiltinScenarios } from '../workspace/builtin-sources';
import type { Audience } from '../../core/disclosure';

import { ATTEMPTS_PAGE, type CompileView, type TraceQuery } from '../protocol';
import { createSession } from '../session';
import { memoryStorage } from '../test-support/memory-storage';

let compiler: SqliteCompiler;

async function newSession(scenarioKey = 'atlas-credit-review') {
  const session = createSession({ compiler, storage: memoryStorage(), builtins: readBuiltinScenarios(sha256) });
  await session.start();
  await session.select({ scenarioKey, controls: [], lateChanges: [] });
  return session;
}

/** A small scenario's view carries its attempts (a large one's come after the result: session-staged.test.ts). */
const attemptsIn = (view: CompileView) => {
  if (view.evidenceAttempts === null) throw new Error('the attempts were left for after the result');
  return view.evidenceAttempts;
};

const everyRow = (audience: Audience): TraceQuery => ({
  audience,
  sortKey: 'order',
  descending: false,
  decision: 'all',
  code: 'all',
  text: '',
  offset: 0,
  limit: 1000,
});

interface ScenarioJson {
  records: { id: string; title: string; text: string; knownAt: string; validFrom: string }[];
}

/**
 * Atlas as a loaded scenario file, with its withheld record X9 edited and another withheld record added when `vary` is
 * set.
 */
async function loadedAtlas(vary: boolean) {
  const source = await newSession();
  const scenario = JSON.parse(source.exportScenario().json) as ScenarioJson;
  if (vary) {
    const x9 = scenario.records.find((record) => record.id === 'X9');
    if (!x9) throw new Error('atlas has no X9');
    scenario.records.push({
      ...x9,
      id: 'X10',
      knownAt: '2026-08-11',
      validFrom: '2026-08-11',
      title: 'Second investigation note',
    });
    Object.assign(x9, {
      title: 'Renamed',
      text: 'waiver withdrawn, facility frozen',
      knownAt: '2026-08-25',
      validFrom: '2026-08-25',
    });
  }
  const session = createSession({ compiler, storage: memoryStorage(), builtins: readBuiltinScenarios(sha256) });
  await session.start();
  const loaded = await session.loadFiles(
    [{ name: 'atlas.scenario.json', blob: new Blob([JSON.stringify(scenario)]) }],
    () => undefined,
  );
  if (loaded.status !== 'loaded') throw new Error(JSON.stringify(loaded));
  return session;
}

describe('debugger views in the worker', () => {
  beforeAll(async () => {
    compiler = createSqliteCompiler(sha256, await sharedDriver());
  });

  it('inspects a record: every gate in order with its fact, agreeing with the trace row, and its receipt row', async () => {
    const session = await newSession();
    await session.compile('diagnostic');
    const inspected = session.inspectRecord('X9', 'diagnostic');
    if (!inspected.ok) throw new Error(inspected.message);
    const { record } = inspected;
    expect(record.gates.map((gate) => gate.gate)).toEqual([...GATE_ORDER]);
    const row = session.queryTrace(everyRow('diagnostic')).rows.find((candidate) => candidate.id === 'X9');
    expect(record.code).toBe(row?.code);
    expect(record.gates.find((gate) => !gate.passed)?.code).toBe(row?.code);
    expect(record.gates.find((gate) => gate.gate === 'deny')).toMatchObject({
      passed: false,
      code: 'EXCLUDE_DENY_LABEL',
    });
    expect(JSON.parse(record.receiptRow)).toMatchObject({
      id: 'X9',
      decision: 'excluded',
      gates: expect.arrayContaining(['deny']),
    });
    expect(record.metadata.find((field) => field.field === 'access.labels')?.value).toBe('investigation');

    const superseded = session.inspectRecord('P2', 'diagnostic');
    expect(superseded.ok && superseded.record.supersededBy).toMatchObject({ id: 'P3' });
    const successor = session.inspectRecord('P3', 'diagnostic');
    expect(successor.ok && successor.record.supersedes).toEqual(['P2']);
    expect(successor.ok && successor.record.packetPosition).toBeGreaterThan(0);
  });

  it('explains every record of every built-in scenario with the same failing gates as its trace row', async () => {
    for (const builtin of readBuiltinScenarios(sha256)) {
      if (!builtin.result.ok) continue;
      const session = await newSession(builtin.result.value.scenario.id);
      await session.compile('diagnostic');
      for (const row of session.queryTrace(everyRow('diagnostic')).rows) {
        const inspected = session.inspectRecord(row.id, 'diagnostic');
        if (!inspected.ok) throw new Error(inspected.message);
        const failing = inspected.record.gates.filter((gate) => !gate.passed);
        expect(
          failing.length === 0 || failing[0]?.code === row.code || row.required,
          `${builtin.folder} ${row.id}`,
        ).toBe(true);
        expect(inspected.record.decision).toBe(row.decision);
      }
    }
  });

  it('answers for a withheld record in the user view exactly as for an id no record has', async () => {
    const session = await newSession();
    await session.compile('user');
    expect(session.inspectRecord('X9', 'user')).toEqual({ ok: false, message: 'No record "X9" in this view.' });
    expect(session.inspectRecord('NO-SUCH', 'user')).toEqual({
      ok: false,
      message: 'No record "NO-SUCH" in this view.',
    });
    expect(session.inspectRecord('F-102', 'user').ok).toBe(true);
  });

  it('names the records that tried each proposition and why each was refused, and the user view leaves withheld ones out', async () => {
    const session = await newSession();
    const diagnostic = await session.compile('diagnostic');
    if (!diagnostic.ok) throw new Error(diagnostic.error.message);
    const waiver = attemptsIn(diagnostic.view).find((slot) => slot.proposition === 'waiver_valid');
    expect(waiver?.attempts.map((attempt) => attempt.id)).toContain('X9');
    expect(waiver?.attempts.find((attempt) => attempt.id === 'X9')).toMatchObject({
      claim: 'contradicts',
      outcome: 'refused',
    });
    for (const attempt of waiver?.attempts ?? []) expect(attempt.outcome).not.toBe('used');
    const facility = attemptsIn(diagnostic.view).find((slot) => slot.proposition === 'facility_limit');
    expect(facility?.attempts.some((attempt) => attempt.outcome === 'used')).toBe(true);

    const user = await session.disclose('user');
    if (!user.ok) throw new Error(user.error.message);
    expect(JSON.stringify(user.view.evidenceAttempts)).not.toContain('X9');
  });

  it('gives every attempt of every built-in scenario, under each control, the outcome its record gates and decision give', async () => {
    for (const builtin of readBuiltinScenarios(sha256)) {
      if (!builtin.result.ok) continue;
      const { scenario } = builtin.result.value;
      for (const controls of [[], ...scenario.controls.map((control) => [control.id])]) {
        const session = await newSession(scenario.id);
        await session.select({ scenarioKey: scenario.id, controls, lateChanges: [] });
        for (const audience of ['diagnostic', 'user'] as const) {
          const compiled = await session.compile(audience);
          if (!compiled.ok) throw new Error(compiled.error.message);
          const decisions = new Map(session.queryTrace(everyRow(audience)).rows.map((row) => [row.id, row.decision]));
          for (const slot of attemptsIn(compiled.view)) {
            const attempts = [];
            for (let offset = 0; offset < slot.total; offset += ATTEMPTS_PAGE)
              attempts.push(
                ...(session.evidenceAttempts(compiled.view.compilation, slot.proposition, audience, offset)?.attempts ??
                  []),
              );
            expect(attempts).toHaveLength(slot.total);
            for (const attempt of attempts) {
              const inspected = session.inspectRecord(attempt.id, audience);
              if (!inspected.ok) throw new Error(inspected.message);
              const refused = inspected.record.gates.some((gate) => !gate.passed);
              const accepted = slot.acceptedClasses.includes(attempt.evidenceClass);
              const expected = refused
                ? 'refused'
                : !accepted
                  ? 'class_not_accepted'
                  : decisions.get(attempt.id) === 'selected'
                    ? 'used'
                    : 'left_out';
              expect(attempt.outcome, `${scenario.id} [${controls.join()}] ${audience} ${attempt.id}`).toBe(expected);
            }
          }
        }
      }
    }
  });

  it('a compile view carries the first page of attempts with their total; the rest come a page at a time, and not from a replaced compilation', async () => {
    const session = await newSession();
    const claimants = ATTEMPTS_PAGE * 2 + 20;
    const lines = Array.from({ length: claimants }, (_, index) =>
      JSON.stringify({
        ...buildRecord({ id: `claim-${String(index).padStart(3, '0')}` }),
        evidence: { class: 'case_note', supports: ['waiver_valid'], contradicts: [] },
      }),
    );
    const loaded = await session.loadFiles(
      [{ name: 'claimants.jsonl', blob: new Blob([lines.join('\n')]) }],
      () => undefined,
    );
    expect(loaded.status).toBe('loaded');
    const compiled = await session.compile('diagnostic');
    if (!compiled.ok) throw new Error(compiled.error.message);
    const first = attemptsIn(compiled.view).find((slot) => slot.proposition === 'waiver_valid');
    expect(first?.total).toBe(claimants);
    expect(first?.offset).toBe(0);
    expect(first?.attempts).toHaveLength(ATTEMPTS_PAGE);
    const second = session.evidenceAttempts(compiled.view.compilation, 'waiver_valid', 'diagnostic', ATTEMPTS_PAGE);
    const third = session.evidenceAttempts(compiled.view.compilation, 'waiver_valid', 'diagnostic', ATTEMPTS_PAGE * 2);
    expect(second?.offset).toBe(ATTEMPTS_PAGE);
    expect(third?.attempts).toHaveLength(20);
    const ids = [...(first?.attempts ?? []), ...(second?.attempts ?? []), ...(third?.attempts ?? [])].map(
      (attempt) => attempt.id,
    );
    expect(ids).toEqual(Array.from({ length: claimants }, (_, index) => `claim-${String(index).padStart(3, '0')}`));
    expect(
      session.evidenceAttempts(compiled.view.compilation, 'waiver_valid', 'diagnostic', claimants)?.attempts,
    ).toEqual([]);
    expect(session.evidenceAttempts(compiled.view.compilation, 'no_such_proposition', 'diagnostic', 0)).toBeNull();
    expect(session.evidenceAttempts(compiled.view.compilation, 'waiver_valid', 'diagnostic', -1)).toBeNull();

    await session.compile('diagnostic');
    expect(session.evidenceAttempts(compiled.view.compilation, 'waiver_valid', 'diagnostic', ATTEMPTS_PAGE)).toBeNull();
  });

  it('gives each baseline entry its code and each column its proposition coverage', async () => {
    const session = await newSession();
    const compiled = await session.compile('diagnostic');
    if (!compiled.ok) throw new Error(compiled.error.message);
    const naive = compiled.view.columns.naive;
    if (!naive) throw new Error('no naive column');
    for (const entry of naive.entries) expect(entry.illegal ? entry.code.startsWith('EXCLUDE_') : true).toBe(true);
    expect(naive.coverage.map((coverage) => coverage.proposition)).toEqual([
      'facility_limit',
      'review_open',
      'waiver_valid',
      'continuation_rule',
    ]);
    const covered = (kind: 'naive' | 'compiled', proposition: string) =>
      (kind === 'naive' ? naive : compiled.view.columns.compiled).coverage.find(
        (coverage) => coverage.proposition === proposition,
      );
    // The compiled packet covers its propositions only with legal records of accepted classes.
    for (const coverage of compiled.view.columns.compiled.coverage) expect(coverage.illegal).toEqual([]);
    expect(covered('compiled', 'facility_limit')?.supporting.length).toBeGreaterThan(0);
    expect(covered('compiled', 'facility_limit')?.state).toBe('supported');
  });

  it('never counts a contradicted or unknown blocking proposition as answered: the coverage agrees with the evidence', async () => {
    const contract = buildContract({
      requiredPropositions: [
        { id: 'waiver_granted', description: 'A waiver was granted.', acceptedClasses: ['approval'], blocking: true },
        { id: 'limit_set', description: 'A limit is set.', acceptedClasses: ['approval'], blocking: true },
        { id: 'review_open', description: 'The review is open.', acceptedClasses: ['approval'], blocking: true },
      ],
    });
    const evidence = (supports: string[], contradicts: string[]) => ({ class: 'approval', supports, contradicts });
    const records = [
      buildRecord({ id: 'R-1', evidence: evidence([], ['waiver_granted', 'limit_set']) }),
      buildRecord({ id: 'R-2', evidence: evidence(['waiver_granted'], []) }),
      buildRecord({ id: 'R-3', evidence: evidence(['limit_set'], []) }),
    ];
    const scenario = { id: 'contradicted', title: 'Contradicted', contract, records };
    const session = createSession({ compiler, storage: memoryStorage(), builtins: readBuiltinScenarios(sha256) });
    await session.start();
    const loaded = await session.loadFiles(
      [{ name: 'contradicted.scenario.json', blob: new Blob([JSON.stringify(scenario)]) }],
      () => undefined,
    );
    expect(loaded.status).toBe('loaded');
    const compiled = await session.compile('diagnostic');
    if (!compiled.ok) throw new Error(compiled.error.message);
    const states = Object.fromEntries(compiled.view.evidence.map((slot) => [slot.proposition, slot.state]));
    expect(states).toEqual({ limit_set: 'contradicted', review_open: 'unknown', waiver_granted: 'contradicted' });
    const coverage = compiled.view.columns.compiled.coverage;
    expect(Object.fromEntries(coverage.map((item) => [item.proposition, item.state]))).toEqual(states);
    expect(coverage.find((item) => item.proposition === 'waiver_granted')).toMatchObject({
      supporting: ['R-2'],
      contradicting: ['R-1'],
    });
    // Answered is supported, nothing else: every proposition the decision waits on is open in the column too.
    expect(
      coverage
        .filter((item) => item.state !== 'supported')
        .map((item) => item.proposition)
        .sort(),
    ).toEqual([...compiled.view.decisionBlockedBy].sort());
  });

  it('pins a baseline and diffs later compilations against it, marking the trace rows that changed', async () => {
    const session = await newSession();
    await session.compile('diagnostic');
    expect(session.baselineDiff('diagnostic')).toBeNull();
    const pin = session.pinBaseline();
    expect(pin).toMatchObject({ asOf: '2026-08-30', outcome: 'packet' });
    expect(session.baselineDiff('diagnostic')?.identical).toBe(true);
    await session.select({ scenarioKey: 'atlas-credit-review', controls: ['grant-agent-permit'], lateChanges: [] });
    await session.compile('diagnostic');
    const diff = session.baselineDiff('diagnostic');
    expect(diff?.identical).toBe(false);
    expect(diff?.sections.map((section) => section.key)).toContain('decisions');
    const changed = session.queryTrace(everyRow('diagnostic')).rows.filter((row) => row.change !== null);
    expect(changed.map((row) => row.id)).toContain('X9');
    session.clearBaseline();
    expect(session.baselineDiff('diagnostic')).toBeNull();
    expect(session.queryTrace(everyRow('diagnostic')).rows.every((row) => row.change === null)).toBe(true);
  });

  it('steps the as-of by a day and to the next boundary, and says what changed from the step before', async () => {
    const session = await newSession();
    await session.compile('diagnostic');
    const stops = session.asOfStops('diagnostic');
    expect(stops.asOf).toBe('2026-08-30');
    expect(stops.after.length + stops.before.length).toBeGreaterThan(0);
    const next = stops.after[0];
    if (!next) throw new Error('no boundary after the as-of');
    const stepped = await session.stepAsOf({ to: next.at });
    expect(stepped.ok).toBe(true);
    const compiled = await session.compile('diagnostic');
    expect(compiled.ok && compiled.view.compiledContract.asOf).toBe(next.at);
    const diff = session.asOfDiff('diagnostic');
    expect(diff?.sections.find((section) => section.key === 'contract')?.lines[0]).toBe(
      `asOf 2026-08-30T00:00:00.000Z → ${next.at}T00:00:00.000Z`,
    );
    await session.stepAsOf({ days: -1 });
    const back = await session.compile('diagnostic');
    expect(back.ok && back.view.compiledContract.asOf).toBe(
      new Date(Date.parse(next.at) - 86_400_000).toISOString().slice(0, 10),
    );
    expect((await session.stepAsOf({ to: 'not a date' })).ok).toBe(false);
  });

  it('says when a control sets the as-of, so a step would not be what is compiled', async () => {
    const session = await newSession();
    await session.select({ scenarioKey: 'atlas-credit-review', controls: ['decide-one-day-later'], lateChanges: [] });
    await session.compile('diagnostic');
    expect(session.asOfStops('diagnostic').lockedBy).toBe('Move the decision by one day');
  });

  it('noninterference: the inspector, attempts, coverage, as-of stops, baseline diff, receipt diff and trace marks of the user view ignore withheld records', async () => {
    const views = [];
    const receipts: string[] = [];
    const sessions = [await loadedAtlas(false), await loadedAtlas(true)];
    for (const session of sessions) {
      const first = await session.compile('user');
      if (!first.ok) throw new Error(first.error.message);
      receipts.push(session.receiptJson() ?? '');
      session.pinBaseline();
      const key = session.exportScenario().fileName;
      await session.select({
        scenarioKey: `loaded:atlas-credit-review`,
        controls: ['officer-approves-waiver'],
        lateChanges: [],
      });
      const second = await session.compile('user');
      if (!second.ok) throw new Error(second.error.message);
      const rows = session.queryTrace(everyRow('user')).rows;
      views.push({
        key,
        attempts: second.view.evidenceAttempts,
        compiled: second.view.columns.compiled,
        inspected: rows.map((row) => session.inspectRecord(row.id, 'user')),
        withheld: ['X9', 'X10'].map((id) => session.inspectRecord(id, 'user')),
        stops: session.asOfStops('user'),
        diff: session.baselineDiff('user'),
        marks: rows.map((row) => [row.id, row.change]),
      });
    }
    const [plain, varied] = views;
    expect(varied?.withheld[0]).toEqual({ ok: false, message: 'No record "X9" in this view.' });
    expect(varied?.diff?.identical).toBe(false);
    expect(varied).toEqual({ ...plain, withheld: varied?.withheld });
    expect(JSON.stringify({ ...varied, withheld: null })).not.toMatch(/X9|X10|Renamed|2026-08-25|2026-08-11/);

    // The two receipts differ only in withheld records: the user view's diff of them shows nothing, not even how many.
    const [plainReceipt, variedReceipt] = receipts.map((text, index) => ({ name: `receipt-${index}.json`, text }));
    const [session] = sessions;
    if (!session || !plainReceipt || !variedReceipt) throw new Error('expected two sessions and their receipts');
    const diagnostic = session.diffReceipts(plainReceipt, variedReceipt, 'diagnostic');
    const user = session.diffReceipts(plainReceipt, variedReceipt, 'user');
    if (!diagnostic.ok || !user.ok) throw new Error('expected two diffs');
    expect(diagnostic.diff.identical).toBe(false);
    expect(diagnostic.diff.records.added).toEqual(['X10']);
    expect(user.diff.identical).toBe(true);
    expect(user.view.sections).toEqual([]);
    expect(user.view.firstDifference).toBeNull();
    const shown = JSON.stringify(user);
    expect(shown).not.toMatch(/X9|X10|Renamed/);
    for (const { text } of [plainReceipt, variedReceipt]) {
      const { receiptId, recordSetDigest } = JSON.parse(text) as { receiptId: string; recordSetDigest: string };
      expect(shown).not.toContain(receiptId);
      expect(shown).not.toContain(recordSetDigest);
    }
  });
});
