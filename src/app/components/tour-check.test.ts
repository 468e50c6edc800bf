import { describe, expect, it } from 'vitest';
import type { VerdictView } from '../../worker/protocol';
import { sampleScenario, sampleView } from '../test-support';
import { changeBetween, mismatches, observe, stepState, type Observation, type TourScreen } from './tour-check';
import type { TourStep } from './tour-steps';

const packet = (ids: string[], naive: string[] = []): Observation => ({
  status: 'packet',
  failure: null,
  packet: ids,
  naive: naive.map((id) => ({ id, code: 'EXCLUDE_SUPERSEDED' })),
  receiptId: 'r1',
  evidence: [],
  blockedBy: [],
});
const verdict = (action: VerdictView['action'], priorReceiptId: string): VerdictView => ({
  action,
  code: action === 'continue' ? 'RECEIPT_CURRENT' : 'LATE_USER_INPUT_NOT_APPLIED',
  message: 'm.',
  priorReceiptId,
  currentReceiptId: null,
  reperformed: null,
  diff: null,
});
const screenWith = (change: Partial<TourScreen> = {}, drill: Partial<TourScreen['drill']> = {}): TourScreen => ({
  audience: 'diagnostic',
  scenario: sampleScenario(),
  view: sampleView(),
  compiling: false,
  revision: 3,
  ...change,
  drill: { frozenReceiptId: null, declared: [], verdict: null, verdictRevision: 0, busy: false, ...drill },
});
const step = (
  action: TourStep['action'],
  shows: string | null = null,
  expect: TourStep['expect'] = null,
): TourStep => ({ action, title: 't', shows, expect });

describe('what a step says once done', () => {
  it("says which records entered and left each column, with the compiler's code for a naive newcomer", () => {
    expect(changeBetween(packet(['A', 'B'], ['X']), packet(['A', 'C'], ['X', 'Y']))).toBe(
      'Into the compiled packet: C. Out of the compiled packet: B. Into the naive top-k: Y (the compiler: EXCLUDE_SUPERSEDED).',
    );
    expect(
      changeBetween(packet(['A']), { ...packet([]), status: 'fail_closed', failure: 'REQUIRED_MISSING_PROVENANCE' }),
    ).toBe('No packet at all: the compiler fails closed (REQUIRED_MISSING_PROVENANCE).');
    const blocked = {
      ...packet(['A']),
      evidence: [{ proposition: 'approved', state: 'unknown' }],
      blockedBy: ['approved'],
    };
    expect(
      changeBetween(blocked, {
        ...blocked,
        evidence: [{ proposition: 'approved', state: 'supported' }],
        blockedBy: [],
      }),
    ).toBe('Evidence: approved unknown → supported. The decision is no longer blocked.');
    expect(changeBetween(blocked, blocked)).toBe(
      'Neither the compiled packet, the naive top-k nor the evidence changed. The decision is blocked by approved.',
    );
    expect(changeBetween(packet(['A']), packet(['A']))).toBe(
      'Neither the compiled packet, the naive top-k nor the evidence changed.',
    );
  });

  it('lists every expectation that does not hold on screen', () => {
    expect(
      mismatches(
        { inNaive: ['Y'], notInPacket: ['A'], outcome: 'fail_closed', verdict: 'continue' },
        packet(['A']),
        verdict('recompile_required', 'r1'),
      ),
    ).toEqual([
      'a packet is emitted',
      'A is in the compiled packet',
      'Y is not in the naive top-k',
      'the verdict is STALE — RECOMPILE REQUIRED',
    ]);
  });

  it("gives the file's text only when its expectations hold, else what it found", () => {
    const on = step({ do: 'switchOn', control: 'remove-provenance' }, 'Fail-closed.', { outcome: 'fail_closed' });
    const screen = screenWith({ view: sampleView({ controls: ['remove-provenance'] }) });
    expect(stepState(on, screen, observe(screen))).toMatchObject({
      done: true,
      held: false,
      text: 'Not what this step expected: a packet is emitted. Neither the compiled packet, the naive top-k nor the evidence changed.',
    });
    const failed = screenWith({
      view: sampleView({
        controls: ['remove-provenance'],
        status: 'fail_closed',
        failure: { code: 'REQUIRED_MISSING_PROVENANCE', summary: 's', message: 'm', recordId: null, fact: null },
      }),
    });
    expect(stepState(on, failed, null)).toMatchObject({ done: true, held: true, text: 'Fail-closed.' });
  });
});

describe('whether a step is done', () => {
  it('waits while compiling and outside the diagnostic view', () => {
    const on = step({ do: 'switchOn', control: 'remove-provenance' });
    expect(
      stepState(on, screenWith({ compiling: true, view: sampleView({ controls: ['remove-provenance'] }) }), null),
    ).toEqual({
      done: false,
      why: 'The compiler is still working on the last change.',
    });
    expect(stepState(on, screenWith({ audience: 'user' }), null)).toMatchObject({
      done: false,
      why: expect.stringMatching(/^The tour runs in the diagnostic view/),
    });
  });

  it('takes a verdict only about the inputs on screen, and a recompile only once the late change is compiled in and checked', () => {
    const attempt = step({ do: 'attempt' });
    expect(
      stepState(
        attempt,
        screenWith({}, { verdict: verdict('recompile_required', 'a'.repeat(64)), verdictRevision: 2 }),
        null,
      ),
    ).toEqual({
      done: false,
      why: 'The last verdict was about inputs recompiled since. Press Attempt to continue.',
    });
    expect(
      stepState(
        attempt,
        screenWith({}, { verdict: verdict('recompile_required', 'a'.repeat(64)), verdictRevision: 3 }),
        null,
      ),
    ).toMatchObject({
      done: true,
      text: 'STALE — RECOMPILE REQUIRED: LATE_USER_INPUT_NOT_APPLIED. m.',
    });

    const recompile = step({ do: 'recompile' });
    const declared = {
      declared: ['promote-run-0880'],
      verdict: verdict('recompile_required', 'a'.repeat(64)),
      verdictRevision: 3,
    };
    expect(stepState(recompile, screenWith({}, declared), null)).toMatchObject({
      done: false,
      why: 'The late change is declared but not compiled in. Press Recompile current context.',
    });
    expect(stepState(recompile, screenWith(), null)).toEqual({
      done: false,
      why: 'No late change is declared: go back a step and inject one first.',
    });
    const recompiled = screenWith(
      { view: sampleView({ lateChanges: ['promote-run-0880'] }) },
      { verdict: verdict('continue', 'a'.repeat(64)), verdictRevision: 3 },
    );
    expect(stepState(recompile, recompiled, null)).toMatchObject({ done: true, held: true });
  });

  it('takes a freeze only of the receipt on screen', () => {
    const freeze = step({ do: 'freeze' });
    expect(stepState(freeze, screenWith({}, { frozenReceiptId: 'f'.repeat(64) }), null)).toMatchObject({
      done: false,
      why: 'The receipt frozen is not the one on screen. In the fire drill, press Freeze receipt.',
    });
    expect(stepState(freeze, screenWith({}, { frozenReceiptId: 'a'.repeat(64) }), null)).toMatchObject({
      done: true,
      text: 'Frozen: receipt aaaaaaaaaaaa, the one an assistant now works from.',
    });
  });
});
