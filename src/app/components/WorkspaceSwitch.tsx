import { openEvaluation, useEvaluationStore } from '../state/evaluation-store';

/** Switches the page between the debugger's rails and the Evaluation view; visible at every width. */
export function WorkspaceSwitch() {
  const open = useEvaluationStore((state) => state.open);
  return (
    <nav className="workspace-switch" aria-label="Workspace">
      <button type="button" aria-pressed={!open} onClick={() => openEvaluation(false)}>
        Debugger
      </button>
      <button type="button" aria-pressed={open} onClick={() => openEvaluation(true)}>
        Evaluation
      </button>
    </nav>
  );
}
