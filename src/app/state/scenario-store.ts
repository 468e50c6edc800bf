import { create } from 'zustand';
import type { InputIssue } from '../../core/errors';
import type {
  FileSummary,
  LoadProgress,
  ReceiptCheck,
  ScenarioSummary,
  WorkspaceSnapshot,
} from '../../worker/protocol';

export type LoadState =
  | { readonly status: 'idle' }
  | { readonly status: 'loading'; readonly progress: LoadProgress | null }
  | { readonly status: 'rejected'; readonly issues: readonly InputIssue[]; readonly summaries: readonly FileSummary[] }
  /** `checkedAt`: the compilation (result-store revision) the receipt checks were judged against. */
  | {
      readonly status: 'loaded';
      readonly message: string;
      readonly receiptChecks: readonly ReceiptCheck[];
      readonly checkedAt: number;
    }
  | { readonly status: 'cancelled' };

interface ScenarioState {
  readonly workspace: WorkspaceSnapshot | null;
  /** Problems in the contract the user is editing; the last valid contract stays in force. */
  readonly contractIssues: readonly InputIssue[];
  readonly load: LoadState;
  /** What the last "Export scenario" wrote and how to get its receipt back. */
  readonly exportNotice: string | null;
}

export const useScenarioStore = create<ScenarioState>(() => ({
  workspace: null,
  contractIssues: [],
  load: { status: 'idle' },
  exportNotice: null,
}));

export function selectedScenario(state: ScenarioState): ScenarioSummary | null {
  const workspace = state.workspace;
  if (!workspace) return null;
  return workspace.scenarios.find((scenario) => scenario.key === workspace.selection.scenarioKey) ?? null;
}
