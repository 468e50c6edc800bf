import type { SqliteCompiler } from '../../adapters/sqlite/compiler';
import { SHARED_HELD, type SharedHeldCode } from '../../core/messages-app';
import { wordMessage } from '../../core/messages';
import { err, ok, type Result } from '../../core/errors';
import { validateContract, type LoadedScenario } from '../../core/phases/1-validate/validate';
import type { Receipt } from '../../core/result';
import { prepareScenario } from '../../core/compile';
import type { Compiled } from '../compilations/compile-view';
import type { BaselinePin, OpenedScreen, ScreenShown } from '../protocol';
import type { SharedInputs, SharedScreen } from './share-link';
import type { Workspace } from '../workspace/workspace';

/*
 * The screen a share link carries beside the workspace: the view and tabs the page names, and the pinned baseline
 * and frozen receipt as the inputs they were compiled from, compiled again by whoever opens the link. No receipt
 * travels: its trace names every record, withheld or not.
 */

/** A receipt with what it was compiled from, as the comparisons and the drill hold a pin or a frozen receipt. */
export interface HeldReceipt {
  readonly receipt: Receipt;
  /** Null when it was not compiled from the workspace (nothing to carry). */
  readonly inputs: SharedInputs | null;
}

/** What a compilation was compiled from: its scenario, toggles and the contract before the toggles patched it. */
export function inputsOf(workspace: Workspace, compiled: Compiled): SharedInputs | null {
  const entry = workspace.entryOf(compiled.scenarioKey);
  if (!entry) return null;
  const { controls = [], lateChanges = [] } = compiled.request;
  return {
    scenarioKey: compiled.scenarioKey,
    controls: [...controls],
    lateChanges: [...lateChanges],
    contract: workspace.effective(entry).scenario.contract,
  };
}

/** A pin as the page names it; the as-of is the contract's as written, as the page shows it. */
/** The compilation on screen as a freeze holds it. */
export function heldLast(workspace: Workspace, last: Compiled | null): HeldReceipt | null {
  return last && { receipt: last.outcome.receipt, inputs: inputsOf(workspace, last) };
}

export function baselinePin(scenarioTitle: string, asOf: string, receipt: Receipt): BaselinePin {
  return { scenarioTitle, asOf, outcome: receipt.outcome, selected: receipt.selected.length };
}

export function screenOf(
  shown: ScreenShown,
  baseline: SharedInputs | null,
  drill: { readonly frozen: SharedInputs; readonly declared: readonly string[] } | null,
): SharedScreen {
  return {
    audience: shown.audience,
    workspace: shown.workspace,
    view: shown.view,
    baseline,
    drill: drill ? { frozen: drill.frozen, declared: [...drill.declared], attempted: shown.attempted } : null,
  };
}

/** Compiles what a link says a baseline or frozen receipt was compiled from; why not, as a clause, when it cannot. */
async function recompile(
  compiler: SqliteCompiler,
  loaded: LoadedScenario | undefined,
  inputs: SharedInputs,
  held: SharedHeldCode,
): Promise<Result<{ readonly receipt: Receipt; readonly asOf: string }, string>> {
  if (!loaded) return err(wordMessage('SHARED_SCENARIO_NOT_LOADED', { held, scenario: inputs.scenarioKey }));
  const contract = validateContract(`share link: the ${SHARED_HELD[held]}'s contract`, inputs.contract);
  if (!contract.ok) return err(wordMessage('SHARED_CONTRACT_INVALID', { held, problem: contract.error.message }));
  const request = prepareScenario(
    compiler.sha256,
    { scenario: { ...loaded.scenario, contract: contract.value }, recordSet: loaded.recordSet },
    inputs,
  );
  if (!request.ok) return err(wordMessage('SHARED_NOT_COMPILING', { held, problem: request.error.message }));
  const outcome = await compiler.compile(request.value);
  if (!outcome.ok) return err(wordMessage('SHARED_NOT_COMPILING', { held, problem: outcome.error.message }));
  return ok({ receipt: outcome.value.receipt, asOf: request.value.contract.asOf });
}

export interface ReopenedScreen {
  readonly baseline: (HeldReceipt & { readonly pin: BaselinePin }) | null;
  readonly frozen: (HeldReceipt & { readonly declared: readonly string[] }) | null;
  /** What the page is told to show (the drill's state is added once the frozen receipt is restored). */
  readonly screen: Omit<OpenedScreen, 'drill'>;
}

/**
 * The baseline and frozen receipt compiled again in the workspace the link opened. One that no longer compiles is
 * left out and said so; a declared late change the selected scenario lacks is dropped and said so.
 */
export async function reopenScreen(
  screen: SharedScreen,
  compiler: SqliteCompiler,
  workspace: Workspace,
): Promise<ReopenedScreen> {
  const notes: string[] = [];
  const loadedOf = (key: string) => {
    const entry = workspace.entryOf(key);
    return entry && workspace.effective(entry);
  };
  const compile = async (inputs: SharedInputs, held: SharedHeldCode) => {
    const compiled = await recompile(compiler, loadedOf(inputs.scenarioKey), inputs, held);
    if (!compiled.ok) notes.push(compiled.error);
    return compiled.ok ? compiled.value : null;
  };
  const pinned = screen.baseline && (await compile(screen.baseline, 'PINNED_BASELINE'));
  const baseline =
    pinned && screen.baseline
      ? {
          receipt: pinned.receipt,
          inputs: screen.baseline,
          pin: baselinePin(loadedOf(screen.baseline.scenarioKey)?.scenario.title ?? '', pinned.asOf, pinned.receipt),
        }
      : null;
  let frozen: ReopenedScreen['frozen'] = null;
  if (screen.drill) {
    const lateChangeIds = new Set(
      workspace.effective(workspace.currentEntry()).scenario.lateChanges.map((change) => change.id),
    );
    const unknown = screen.drill.declared.filter((id) => !lateChangeIds.has(id));
    if (unknown.length > 0) notes.push(wordMessage('SHARED_LATE_CHANGES_UNKNOWN', { changes: unknown }));
    const receipt = (await compile(screen.drill.frozen, 'FROZEN_RECEIPT'))?.receipt;
    if (receipt)
      frozen = {
        receipt,
        inputs: screen.drill.frozen,
        declared: screen.drill.declared.filter((id) => lateChangeIds.has(id)),
      };
  }
  return {
    baseline,
    frozen,
    screen: {
      audience: screen.audience,
      workspace: screen.workspace,
      view: screen.view,
      baseline: baseline?.pin ?? null,
      attempted: frozen !== null && (screen.drill?.attempted ?? false),
      notes,
    },
  };
}
