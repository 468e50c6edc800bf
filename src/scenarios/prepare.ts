import { applyChanges, pickChanges } from '../core/controls';
import type { CompileRequest } from '../core/compile';
import type { Sha256 } from '../core/fingerprints';
import { ok, type CompileError, type Result } from '../core/errors';
import type { LoadedScenario } from '../core/phases/1-validate/validate';

export interface ScenarioSelection {
  /** Control ids switched on. */
  readonly controls: readonly string[];
  /** Late-change ids already applied (the fire drill's recompile). */
  readonly lateChanges: readonly string[];
}

/** A loaded scenario with some controls and late changes applied, ready for `compile` or `drill`. */
export function prepareScenario(
  sha256: Sha256,
  loaded: LoadedScenario,
  selection: ScenarioSelection,
): Result<CompileRequest, CompileError> {
  const { scenario, recordSet } = loaded;
  const controls = pickChanges(scenario.controls, selection.controls, 'control');
  if (!controls.ok) return controls;
  const lateChanges = pickChanges(scenario.lateChanges, selection.lateChanges, 'late change');
  if (!lateChanges.ok) return lateChanges;
  const changed = applyChanges(sha256, scenario.contract, recordSet, [...controls.value, ...lateChanges.value]);
  if (!changed.ok) return changed;
  return ok({
    contract: changed.value.contract,
    recordSet: changed.value.recordSet,
    controls: controls.value.map((control) => control.id),
    lateChanges: lateChanges.value.map((change) => change.id),
  });
}
