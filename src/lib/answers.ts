import type { Sha256 } from '../core/fingerprints';
import type { SqliteCompiler } from '../adapters/sqlite/compiler';
import { discloseOutcome, type Audience, type DisclosedView } from '../core/disclosure';
import { drill as drillReceipt, type ReceiptVerdict } from '../core/drill';
import { err, ok, type CompileError, type Result } from '../core/errors';
import type { CoverageUniverse } from '../core/expectations/coverage';
import {
  runSuite as runCases,
  type CaseFilter,
  type SuiteEnvironment,
  type SuiteResult,
  type SwitchSelection,
} from '../core/expectations/run';
import { checkSwitches, type LoadedSuite } from '../core/expectations/suite';
import type { LoadedScenario } from '../core/phases/1-validate/validate';
import { packetWithManifest } from '../core/phases/7-attest/attest';
import type { Attestation, Baselines, CompileOutcome, Receipt } from '../core/result';
import { buildUserView, type UserView } from '../core/user-view';
import { prepareScenario, type CompileRequest } from '../core/compile';
import { declaredSwitches, type ReadInputs } from './read-inputs';

/**
 * From read inputs to answers, over a compiler the caller owns: the library's functions (a fresh compiler per
 * call), the CLI and the app's worker (its session's compiler, with its memo) all answer through these.
 */

export interface CompileOptions {
  /** Whose view: `diagnostic` (default) names every record; `user` counts, never names, what it withholds. */
  readonly view?: Audience;
  /**
   * How much of the trace the receipt attests: `full` (default, one row per record) or `candidates` (docs/FORMAT.md).
   */
  readonly attestation?: Attestation;
  /** Also build the user view in the diagnostic view (the user view always has it). */
  readonly userView?: boolean;
  /**
   * Also rank the naive and post-filter baselines (diagnostic view only: they rank with the whole corpus's statistics).
   */
  readonly baselines?: boolean;
  /** Told how many records are about to be compiled, once the inputs are read (a progress line). */
  readonly onCompiling?: (records: number) => void;
}

/**
 * One compilation with everything a caller renders: the outcome itself names every record, so it is for the
 * caller's own rendering of `disclosed`, never to be handed as it is to the user view's audience.
 */
export interface CompileDetail {
  readonly request: CompileRequest;
  readonly outcome: CompileOutcome;
  readonly view: Audience;
  /** The outcome's rows, failure and unreadable lines as the view may show them. */
  readonly disclosed: DisclosedView;
  /** In the user view, and when asked for: what the user view shows (its document is "Download user view"'s). */
  readonly userView: UserView | null;
  readonly baselines: Baselines | null;
  /** The packet with its manifest header as the diagnostic view shows it, or null when compilation failed closed. */
  readonly diagnosticPacket: string | null;
  /** The packet as the view shows it (the user view's own text in the user view). */
  readonly packetText: string | null;
}

/**
 * What a compiled outcome shows in one view, whichever store compiled it (the CLI's PostgreSQL path brings its own).
 */
export function detailOf(
  sha256: Sha256,
  request: CompileRequest,
  outcome: CompileOutcome,
  {
    view,
    userView,
    baselines,
  }: { readonly view: Audience; readonly userView: boolean; readonly baselines: Baselines | null },
): CompileDetail {
  const shownToUser =
    view === 'user' || userView ? buildUserView(sha256, outcome, discloseOutcome(outcome, 'user')) : null;
  const diagnosticPacket = outcome.status === 'packet' ? packetWithManifest(outcome.packet, outcome.receipt) : null;
  return {
    request,
    outcome,
    view,
    disclosed: discloseOutcome(outcome, view),
    userView: shownToUser,
    baselines: view === 'diagnostic' ? baselines : null,
    diagnosticPacket,
    packetText: view === 'user' && shownToUser !== null ? shownToUser.packetText : diagnosticPacket,
  };
}

/** Compiles read inputs; a type-checking problem in the contract names its file, line and field. */
export async function compileInputs(
  compiler: SqliteCompiler,
  read: ReadInputs,
  options: CompileOptions = {},
): Promise<Result<CompileDetail, CompileError>> {
  const view = options.view ?? 'diagnostic';
  const request = { ...read.request, attestation: options.attestation ?? 'full' };
  options.onCompiling?.(request.recordSet.records.length);
  const compiled = await compiler.compile(request);
  if (!compiled.ok) return err(read.place(compiled.error));
  const outcome = compiled.value;
  const baselines = view === 'diagnostic' && options.baselines === true ? compiler.baselines(request, outcome) : null;
  return ok(detailOf(compiler.sha256, request, outcome, { view, userView: options.userView === true, baselines }));
}

/** Where a drill's current inputs come from: a scenario's, or a contract and records with no switches. */
export type DrillSource = Pick<ReadInputs, 'request' | 'scenario'>;

/**
 * Judges a receipt against the current inputs with the late changes declared since. From a scenario, the
 * receipt's own inputs (the scenario with the controls and late changes it names) are what it is reperformed from.
 */
export async function drillInputs(
  compiler: Pick<SqliteCompiler, 'compile' | 'sha256'>,
  source: DrillSource,
  receipt: Receipt,
  declaredChanges: readonly string[],
): Promise<ReceiptVerdict> {
  const request = { ...source.request, priorReceipt: receipt, declaredChanges };
  if (source.scenario === null) return drillReceipt(compiler, request);
  const own = prepareScenario(compiler.sha256, source.scenario, {
    controls: receipt.controls,
    lateChanges: receipt.lateChanges,
  });
  return drillReceipt(compiler, { ...request, declaredInputs: own.ok ? own.value : null });
}

/**
 * The fire drill rehearsed: a receipt frozen before the late changes, judged after them, then recompiled and judged
 * again.
 */
export interface Rehearsal {
  readonly frozen: Receipt;
  readonly stale: ReceiptVerdict;
  readonly recompiled: CompileOutcome;
  readonly resumed: ReceiptVerdict;
}

/** Rehearses the drill on a scenario: `current` is it with `controls` and the `declared` late changes applied. */
export async function rehearseDrill(
  compiler: Pick<SqliteCompiler, 'compile' | 'sha256'>,
  scenario: LoadedScenario,
  current: CompileRequest,
  { controls, declared }: { readonly controls: readonly string[]; readonly declared: readonly string[] },
): Promise<Result<Rehearsal, CompileError>> {
  const before = prepareScenario(compiler.sha256, scenario, { controls, lateChanges: [] });
  if (!before.ok) return before;
  const frozen = await compiler.compile(before.value);
  if (!frozen.ok) return frozen;
  const stale = await drillReceipt(compiler, {
    ...current,
    priorReceipt: frozen.value.receipt,
    declaredChanges: declared,
    declaredInputs: before.value,
  });
  const recompiled = await compiler.compile(current);
  if (!recompiled.ok) return recompiled;
  const resumed = await drillReceipt(compiler, {
    ...current,
    priorReceipt: recompiled.value.receipt,
    declaredChanges: declared,
  });
  return ok({ frozen: frozen.value.receipt, stale, recompiled: recompiled.value, resumed });
}

/** What a suite runs on: a scenario (each case with its own switches) or one fixed compile request. */
export type SuiteSource = { readonly scenario: LoadedScenario } | { readonly request: CompileRequest };

/**
 * How a suite's cases get their inputs: the scenario with `on` (switches applied beneath every case, as the Tests
 * panel applies those on screen) and each case's own, or the one request.
 */
export function suiteEnvironment(
  compiler: SqliteCompiler,
  source: SuiteSource,
  on: SwitchSelection = { controls: [], lateChanges: [] },
): SuiteEnvironment & { universe: CoverageUniverse } {
  if ('request' in source) {
    const { request } = source;
    return {
      compiler,
      prepare: () => ok(request),
      universe: {
        controls: [],
        lateChanges: [],
        propositions: request.contract.requiredPropositions.map((proposition) => proposition.id),
      },
    };
  }
  const { scenario } = source;
  const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])];
  return {
    compiler,
    prepare: (own) =>
      prepareScenario(compiler.sha256, scenario, {
        controls: union(on.controls, own.controls),
        lateChanges: union(on.lateChanges, own.lateChanges),
      }),
    universe: {
      ...declaredSwitches(scenario),
      propositions: scenario.scenario.contract.requiredPropositions.map((proposition) => proposition.id),
    },
  };
}

export interface SuiteOptions {
  /** Which cases to run (default every one). */
  readonly include?: CaseFilter;
  readonly audience?: Audience;
  /** Switches applied beneath every case's own, on a scenario (the Tests panel's on screen). */
  readonly on?: SwitchSelection;
}

/** A suite's result, with what its inputs offer to be reached (for coverage). */
export interface SuiteRun {
  readonly result: SuiteResult;
  readonly universe: CoverageUniverse;
}

/** Runs a suite's cases once every control and late change they name is one the inputs declare. */
export async function runSuiteOn(
  compiler: SqliteCompiler,
  suite: LoadedSuite,
  source: SuiteSource,
  options: SuiteOptions = {},
): Promise<Result<SuiteRun, CompileError>> {
  const unknown = checkSwitches(suite, declaredSwitches('scenario' in source ? source.scenario : null));
  if (unknown !== null) return err(unknown);
  const env = suiteEnvironment(compiler, source, options.on);
  return ok({ result: await runCases(suite, env, options.include, options.audience), universe: env.universe });
}
