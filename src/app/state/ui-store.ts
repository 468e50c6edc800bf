import { create } from 'zustand';
import type { Audience } from '../../core/disclosure';
import type { InstallPromptEvent } from '../install-prompt-event';

/** The views of the debugger: rails side by side on a wide screen, tabs on a narrow one. */
export const VIEWS = [
  { id: 'contract', label: 'Contract' },
  { id: 'compare', label: 'Compare' },
  { id: 'trace', label: 'Trace' },
] as const;

export type ViewId = (typeof VIEWS)[number]['id'];

/**
 * The page's top-level views: the debugger's rails, the fire drill beside what is compiled now, the evaluation lab, the
 * Tests panel.
 */
export const WORKSPACES = [
  { id: 'debugger', label: 'Debugger' },
  { id: 'drill', label: 'Fire drill' },
  { id: 'evaluation', label: 'Evaluation' },
  { id: 'tests', label: 'Tests' },
] as const;

export type WorkspaceId = (typeof WORKSPACES)[number]['id'];
export type Theme = 'light' | 'dark';

interface UiState {
  readonly audience: Audience;
  readonly activeView: ViewId;
  readonly workspace: WorkspaceId;
  readonly theme: Theme;
  /** A short confirmation or failure of the last export action, announced politely. */
  readonly notice: string | null;
  /** The worker could not start (no WebAssembly, blocked worker): nothing can be compiled. */
  readonly fatal: string | null;
  /** A worker ended unasked: it is being replaced, or was, with the workspace restored. */
  readonly workerNotice: WorkerNotice | null;
  /** The glossary dialog, opened at a reason code or a term (or at its top). */
  readonly glossary: { readonly open: boolean; readonly target: string | null };
  /** Whether everything needed offline is cached (the service worker is active), as far as this browser can tell. */
  readonly offline: 'pending' | 'ready' | 'unsupported';
  /** The browser's deferred install prompt, when it offers one. */
  readonly installPrompt: InstallPromptEvent | null;
  /** Presenter mode: larger type, the three packets and their numbers, controls on keys 1 to 9. */
  readonly presenter: boolean;
}

export interface WorkerNotice {
  readonly status: 'restarting' | 'restarted';
  /** Why the worker ended, as a clause: "it was ended by the browser or crashed". */
  readonly reason: string;
}

export const useUiStore = create<UiState>(() => ({
  audience: 'diagnostic',
  activeView: 'compare',
  workspace: 'debugger',
  theme: 'light',
  notice: null,
  fatal: null,
  workerNotice: null,
  glossary: { open: false, target: null },
  offline: 'pending',
  installPrompt: null,
  presenter: false,
}));
