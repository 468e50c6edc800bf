import { REASONS, type ReasonCode } from '../reasons';
import { GATE_ORDER, type GateName } from '../result';
import type { Observed } from './check';

/**
 * What one case run reached: the reason codes decided, the gates failed, the switches on and the propositions judged.
 */
export interface Exercised {
  readonly codes: readonly ReasonCode[];
  readonly gates: readonly GateName[];
  readonly controls: readonly string[];
  readonly lateChanges: readonly string[];
  readonly propositions: readonly string[];
}

/** What a suite's inputs offer to be reached: the scenario's controls and late changes, the contract's propositions. */
export interface CoverageUniverse {
  readonly controls: readonly string[];
  readonly lateChanges: readonly string[];
  readonly propositions: readonly string[];
}

export const COVERAGE_DIMENSIONS = ['codes', 'gates', 'controls', 'lateChanges', 'propositions'] as const;
export type CoverageDimension = (typeof COVERAGE_DIMENSIONS)[number];

export interface DimensionCoverage {
  readonly reached: readonly string[];
  readonly missed: readonly string[];
  /** Reached as a share of what could be, 0 to 100; 100 when there is nothing to reach. */
  readonly percent: number;
}

export type Coverage = Readonly<Record<CoverageDimension, DimensionCoverage>>;

/**
 * The reason codes a compile or a drill can decide: not the input and integrity codes, which refuse before a suite's
 * case is judged.
 */
const SUITE_REACHABLE_CODES = (Object.keys(REASONS) as ReasonCode[]).filter(
  (code) => REASONS[code].category !== 'input' && REASONS[code].category !== 'integrity',
);

const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

/**
 * What a case run reached, read from what it observed (in the user view, from what that view shows): every
 * trace row's reason code and failed gates, the refusal's code, the drill's verdicts, and the evidence slots.
 */
export function exercisedBy(
  observed: Observed,
  switches: { readonly controls: readonly string[]; readonly lateChanges: readonly string[] },
): Exercised {
  const codes = new Set<ReasonCode>();
  const gates = new Set<GateName>();
  const propositions = new Set<string>();
  const lateChanges = new Set(switches.lateChanges);
  if (!observed.compiled.ok) codes.add(observed.compiled.error.code);
  else {
    const outcome = observed.compiled.value;
    for (const row of outcome.receipt.trace) {
      codes.add(row.code);
      for (const gate of row.gates) gates.add(gate);
    }
    if (outcome.status === 'fail_closed') codes.add(outcome.failure.code);
    else for (const slot of outcome.evidence) propositions.add(slot.proposition);
  }
  const drill = observed.drill;
  if (drill !== null && !('notRun' in drill)) {
    codes.add(drill.stale.code);
    if (drill.resumed !== null) codes.add(drill.resumed.code);
    if (drill.recompileError !== null) codes.add(drill.recompileError.code);
  }
  return {
    codes: sorted(codes) as ReasonCode[],
    gates: sorted(gates) as GateName[],
    controls: sorted(switches.controls),
    lateChanges: sorted(lateChanges),
    propositions: sorted(propositions),
  };
}

function dimension(reached: Iterable<string>, possible: readonly string[]): DimensionCoverage {
  const got = new Set(reached);
  const missed = sorted(possible.filter((value) => !got.has(value)));
  const inUniverse = possible.filter((value) => got.has(value)).length;
  return {
    reached: sorted(got),
    missed,
    percent: possible.length === 0 ? 100 : Math.floor((inUniverse / new Set(possible).size) * 100),
  };
}

/**
 * Coverage of the runs given against what could be reached: every reason code and gate, and the universe's switches and
 * propositions.
 */
export function coverageOf(runs: readonly Exercised[], universe: CoverageUniverse): Coverage {
  const union = (pick: (run: Exercised) => readonly string[]) => runs.flatMap(pick);
  return {
    codes: dimension(
      union((run) => run.codes),
      SUITE_REACHABLE_CODES,
    ),
    gates: dimension(
      union((run) => run.gates),
      GATE_ORDER,
    ),
    controls: dimension(
      union((run) => run.controls),
      universe.controls,
    ),
    lateChanges: dimension(
      union((run) => run.lateChanges),
      universe.lateChanges,
    ),
    propositions: dimension(
      union((run) => run.propositions),
      universe.propositions,
    ),
  };
}

/** The lowest share among the dimensions: what `--min-coverage` holds to its threshold. */
export function lowestPercent(coverage: Coverage): { readonly dimension: CoverageDimension; readonly percent: number } {
  return COVERAGE_DIMENSIONS.map((name) => ({ dimension: name, percent: coverage[name].percent })).reduce(
    (low, next) => (next.percent < low.percent ? next : low),
  );
}
