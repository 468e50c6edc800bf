import { compareStrings } from '../canonical';
import type { BaselineExpectation, Expectation, ExpectationCase } from '../format/expectation';
import type { BaselinePacket, TraceRow } from '../result';
import type { Observed } from './check';

type RecordExpectation = NonNullable<Expectation['records']>[string];

/** What a case written from the screen expects: every fact taken from what was observed, nothing typed by hand. */
export interface WrittenExpectation {
  readonly expect: Expectation;
  /** Picked ids the observed trace has no row for (withheld from this view, or not there: the two look alike). */
  readonly notShown: readonly string[];
}

const rowExpectation = (row: TraceRow): RecordExpectation => ({
  decision: row.decision,
  code: row.code,
  gates: [...row.gates],
});

/**
 * An expectation that holds for `observed` (already in the view it was seen in: src/core/expectations/for-user.ts):
 * the outcome, the packet in order or the refusal, the evidence slots' states, and the decision of each picked record.
 */
export function expectationOf(observed: Observed, picked: readonly string[]): WrittenExpectation {
  const { compiled } = observed;
  if (!compiled.ok) {
    const { code, recordId } = compiled.error;
    return {
      expect: { outcome: 'fail_closed', failure: recordId === undefined ? { code } : { code, record: recordId } },
      notShown: [...picked],
    };
  }
  const outcome = compiled.value;
  const rows = new Map(outcome.trace.map((row) => [row.id, row]));
  const ids = [...new Set(picked)].sort(compareStrings);
  const shown = ids.filter((id) => rows.has(id));
  const records =
    shown.length === 0
      ? {}
      : { records: Object.fromEntries(shown.map((id) => [id, rowExpectation(rows.get(id) as TraceRow)])) };
  const notShown = ids.filter((id) => !rows.has(id));
  if (outcome.status === 'fail_closed') {
    const { code, recordId } = outcome.failure;
    return {
      expect: {
        outcome: 'fail_closed',
        failure: recordId === undefined ? { code } : { code, record: recordId },
        ...records,
      },
      notShown,
    };
  }
  const evidence =
    outcome.evidence.length === 0
      ? {}
      : { evidence: Object.fromEntries(outcome.evidence.map((slot) => [slot.proposition, { state: slot.state }])) };
  return {
    expect: {
      outcome: 'packet',
      selected: { inOrder: outcome.packet.entries.map((entry) => entry.id) },
      ...records,
      ...evidence,
    },
    notShown,
  };
}

/** A case written from the screen: its switches as they are on screen, and what was observed under them. */
export function caseOf(
  name: string,
  switches: { readonly controls: readonly string[]; readonly lateChanges: readonly string[] },
  expect: Expectation,
): ExpectationCase {
  return {
    name,
    description: '',
    ...(switches.controls.length === 0 ? {} : { controls: [...switches.controls] }),
    ...(switches.lateChanges.length === 0 ? {} : { lateChanges: [...switches.lateChanges] }),
    expect,
  };
}

function refreshedBaseline(old: BaselineExpectation, now: BaselinePacket): BaselineExpectation {
  return {
    ...(old.selectedCount === undefined ? {} : { selectedCount: now.selected.length }),
    ...(old.illegal === undefined ? {} : { illegal: now.illegal.length }),
    ...(old.requiredMissed === undefined ? {} : { requiredMissed: [...now.requiredMissed] }),
  };
}

/**
 * The same expectation with every value it states replaced by what was observed now: the fields it names stay
 * the fields it names, so a deliberate change is written back without widening or narrowing what the case checks.
 * `includes` and `excludes` keep the ids that still hold; a statement about a record the view has no row for, or
 * about baselines or a drill that were not observed, is kept as written.
 */
export function refreshedExpectation(old: Expectation, observed: Observed): Expectation {
  const { compiled } = observed;
  const written = expectationOf(observed, Object.keys(old.records ?? {})).expect;
  const next: Record<string, unknown> = {};
  if (old.outcome !== undefined) next.outcome = written.outcome;
  if (old.failure !== undefined) {
    // A refusal that became a packet is written as the outcome it now is.
    if (written.failure === undefined) next.outcome = written.outcome;
    else
      next.failure = {
        ...(old.failure.code === undefined ? {} : { code: written.failure.code }),
        ...(written.failure.record === undefined ? {} : { record: written.failure.record }),
      };
  }
  const packet =
    compiled.ok && compiled.value.status === 'packet' ? compiled.value.packet.entries.map((entry) => entry.id) : null;
  if (old.selected !== undefined && packet !== null) {
    const inPacket = new Set(packet);
    const selected = {
      ...(old.selected.exactly === undefined ? {} : { exactly: [...packet].sort(compareStrings) }),
      ...(old.selected.inOrder === undefined ? {} : { inOrder: packet }),
      ...(old.selected.includes === undefined
        ? {}
        : { includes: old.selected.includes.filter((id) => inPacket.has(id)) }),
      ...(old.selected.excludes === undefined
        ? {}
        : { excludes: old.selected.excludes.filter((id) => !inPacket.has(id)) }),
    };
    const kept = Object.fromEntries(
      Object.entries(selected).filter(
        ([, ids]) => ids.length > 0 || old.selected?.exactly !== undefined || old.selected?.inOrder !== undefined,
      ),
    );
    if (Object.keys(kept).length > 0) next.selected = kept;
  } else if (old.selected !== undefined) next.selected = old.selected;
  if (old.records !== undefined) {
    const now = written.records ?? {};
    next.records = Object.fromEntries(
      Object.entries(old.records).map(([id, was]) => {
        const row = now[id];
        if (row === undefined) return [id, was];
        return [
          id,
          {
            ...(was.decision === undefined ? {} : { decision: row.decision }),
            ...(was.code === undefined ? {} : { code: row.code }),
            ...(was.gates === undefined ? {} : { gates: row.gates }),
          },
        ];
      }),
    );
  }
  if (old.evidence !== undefined)
    next.evidence = Object.fromEntries(
      Object.entries(old.evidence).map(([proposition, was]) => [proposition, written.evidence?.[proposition] ?? was]),
    );
  const drill = observed.drill;
  if (old.drill !== undefined)
    next.drill =
      drill === null || 'notRun' in drill
        ? old.drill
        : {
            lateChanges: old.drill.lateChanges,
            ...(old.drill.verdict === undefined ? {} : { verdict: drill.stale.code }),
            ...(old.drill.action === undefined ? {} : { action: drill.stale.action }),
            ...(old.drill.afterRecompile === undefined
              ? {}
              : { afterRecompile: drill.resumed?.code ?? old.drill.afterRecompile }),
          };
  const baselines = observed.baselines;
  if (old.naive !== undefined)
    next.naive = baselines === null ? old.naive : refreshedBaseline(old.naive, baselines.naive);
  if (old.postFilter !== undefined)
    next.postFilter = baselines === null ? old.postFilter : refreshedBaseline(old.postFilter, baselines.postFilter);
  return next as Expectation;
}
