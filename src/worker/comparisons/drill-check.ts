import type { SqliteCompiler } from '../../adapters/sqlite/compiler';
import type { ReceiptVerdict } from '../../core/drill';
import type { Receipt } from '../../core/result';
import { drillInputs } from '../../lib/answers';
import type { Compilations } from '../compilations/compilations';
import type { ScenarioFile } from '../../core/format/scenario';
import { diffWordsFor } from '../compilations/change-texts-for-view';
import { diffView } from './comparisons';
import type { VerdictView } from '../protocol';
import type { Workspace } from '../workspace/workspace';
import { wordMessage } from '../../core/messages';

const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])];

/**
 * The drill and the receipt check: the receipt against the current inputs with the declared changes,
 * reperformed from its own inputs (this scenario with the controls and late changes it names).
 */
export function checkAgainstCurrent({
  compiler,
  workspace,
  compilations,
}: {
  readonly compiler: SqliteCompiler;
  readonly workspace: Workspace;
  readonly compilations: Compilations;
}) {
  return async (prior: Receipt, declaredChanges: readonly string[]): Promise<VerdictView> => {
    const request = compilations.prepare(union(workspace.value().selection.lateChanges, declaredChanges));
    if (!request.ok) {
      return {
        action: 'block',
        code: 'CURRENT_INPUTS_FAIL_CLOSED',
        message: wordMessage('DRILL_VERDICT', { code: 'CURRENT_INPUTS_FAIL_CLOSED', detail: request.error.message }),
        priorReceiptId: prior.receiptId,
        currentReceiptId: null,
        reperformed: null,
        diff: null,
      };
    }
    const loaded = workspace.effective(workspace.currentEntry());
    return verdictView(
      await drillInputs(compiler, { request: request.value, scenario: loaded }, prior, declaredChanges),
      loaded.scenario,
    );
  };
}

/** A verdict for the panels: the diffs become bounded views, one per audience. */
function verdictView(
  { diff, userDiff, mismatch: _mismatch, ...verdict }: ReceiptVerdict,
  scenario: ScenarioFile,
): VerdictView {
  return {
    ...verdict,
    diff:
      diff && userDiff
        ? {
            diagnostic: diffView(diff, diffWordsFor(scenario, 'diagnostic')),
            user: diffView(userDiff, diffWordsFor(scenario, 'user')),
          }
        : null,
  };
}
