import { guarded } from './actions';
import { compilerApi } from '../worker-client';
import { INITIAL_DRILL, useDrillStore } from './drill-store';
import { useResultStore } from './result-store';
import { useScenarioStore } from './scenario-store';
import { applySelection } from './workspace-actions';

// The drill: freeze a receipt, declare late changes, and ask whether the frozen receipt still holds.

export async function freezeReceipt(): Promise<void> {
  await guarded('FREEZING_RECEIPT', async () => {
    const state = await compilerApi().freezeReceipt();
    useDrillStore.setState({ ...state, verdict: null });
  });
}

export async function injectLateChange(id: string): Promise<void> {
  await guarded('DECLARING_LATE_CHANGE', async () => {
    const state = await compilerApi().declareLateChange(id);
    useDrillStore.setState({ ...state, verdict: null });
  });
}

export async function attemptContinue(): Promise<void> {
  useDrillStore.setState({ busy: true });
  await guarded('CHECKING_FROZEN_RECEIPT', async () => {
    const verdict = await compilerApi().attemptContinue();
    useDrillStore.setState({ verdict, verdictRevision: useResultStore.getState().revision, busy: false });
  });
}

/** Applies every declared late change, compiles, and checks the new receipt: it is the one now current. */
export async function recompileAfterDrill(): Promise<void> {
  const declared = useDrillStore.getState().declared;
  const lateChanges = useScenarioStore.getState().workspace?.selection.lateChanges ?? [];
  useDrillStore.setState({ busy: true });
  if (!(await applySelection({ lateChanges: [...new Set([...lateChanges, ...declared])] }))) return;
  await guarded('CHECKING_NEW_RECEIPT', async () => {
    const state = await compilerApi().freezeReceipt();
    const verdict = await compilerApi().attemptContinue();
    useDrillStore.setState({ ...state, verdict, verdictRevision: useResultStore.getState().revision, busy: false });
  });
}

export async function resetDrill(): Promise<void> {
  const reset = await guarded('RESETTING_DRILL', async () => {
    await compilerApi().resetDrill();
    useDrillStore.setState(INITIAL_DRILL);
  });
  const lateChanges = useScenarioStore.getState().workspace?.selection.lateChanges ?? [];
  if (reset && lateChanges.length > 0) await applySelection({ lateChanges: [] });
}
