import { create } from 'zustand';
import type { Audience } from '../../core/disclosure';

/** The views of the debugger: rails side by side on a wide screen, tabs on a narrow one. */
export const VIEWS = [
  { id: 'contract', label: 'Contract' },
  { id: 'compare', label: 'Compare' },
  { id: 'trace', label: 'Trace' },
] as const;

export type ViewId = (typeof VIEWS)[number]['id'];
export type Theme = 'light' | 'dark';

interface UiState {
  readonly audience: Audience;
  readonly activeView: ViewId;
  readonly theme: Theme;
  /** A short confirmation or failure of the last export action, announced politely. */
  readonly notice: string | null;
  /** The worker could not start (no WebAssembly, blocked worker): nothing can be compiled. */
  readonly fatal: string | null;
  /** A worker ended unasked: it is being replaced, or was, with the workspace restored. */
  readonly workerNotice: WorkerNotice | null;
}

export interface WorkerNotice {
  readonly status: 'restarting' | 'restarted';
  /** Why the worker ended, as a clause: "it was ended by the browser or crashed". */
  readonly reason: string;
}

export const useUiStore = create<UiState>(() => ({ audience: 'diagnostic', activeView: 'compare', theme: 'light', notice: null, fatal: null, workerNotice: null }));
