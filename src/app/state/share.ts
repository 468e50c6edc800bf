import { create } from 'zustand';
import type { InputIssue } from '../../core/errors';
import { DEFAULT_TRACE_QUERY } from '../../shared/trace-page';
import type { WorkspaceSnapshot } from '../../worker/protocol';
import { viewIdentity } from '../../shared/view-identity';
import { compilerApi } from './api';
import { useDrillStore } from './drill-store';
import { useResultStore } from './result-store';
import { useScenarioStore } from './scenario-store';

/** The fragments the app reads from its own URL: `#share=1.…` (a workspace) and `#blank` (a blank session). */
const SHARE_PREFIX = 'share=';
const BLANK = 'blank';

export type PendingLink = { readonly kind: 'share'; readonly fragment: string; readonly carries?: string } | { readonly kind: 'blank' };

interface ShareState {
  /** The "Share" dialog. */
  readonly dialogOpen: boolean;
  readonly link: string | null;
  /** What the last copy did, or why no link was made. */
  readonly status: string | null;
  /** A link opened over a workspace with something to lose: it waits for a yes. */
  readonly pending: PendingLink | null;
  /** Why an opened link was refused (nothing was changed). */
  readonly refusal: readonly InputIssue[] | null;
  /** What an opened link did. */
  readonly opened: string | null;
}

export const INITIAL_SHARE: ShareState = { dialogOpen: false, link: null, status: null, pending: null, refusal: null, opened: null };

export const useShareStore = create<ShareState>(() => INITIAL_SHARE);

/** What a link in the address bar asks for; null when the fragment is none of ours. */
export function linkOf(hash: string): PendingLink | null {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  if (fragment === BLANK) return { kind: 'blank' };
  if (fragment.startsWith(SHARE_PREFIX)) return { kind: 'share', fragment };
  return null;
}

/** Loaded files or edited contracts: what opening a link would throw away, so it is asked first. */
export function hasWorkToLose(workspace: WorkspaceSnapshot | null): boolean {
  return workspace !== null && workspace.scenarios.some((scenario) => scenario.origin === 'loaded' || scenario.contractEdited);
}

function pageUrl(fragment: string): string {
  const { origin, pathname, search } = window.location;
  return `${origin}${pathname}${search}#${fragment}`;
}

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function openShareDialog(open: boolean): void {
  useShareStore.setState({ dialogOpen: open });
}

export async function copyShareLink(): Promise<void> {
  const result = await compilerApi().createShareLink();
  if (!result.ok) {
    useShareStore.setState({ link: null, status: result.message });
    return;
  }
  const link = pageUrl(result.fragment);
  const response = useResultStore.getState().response;
  const identity = response?.ok ? viewIdentity(response.view) : null;
  const receipt = identity ? ` Opening it compiles to ${identity.label} ${identity.id.slice(0, 12)}.` : '';
  const carries = `the selected scenario and its toggles, ${result.edits} edited contract${result.edits === 1 ? '' : 's'} and ${result.files} loaded file${result.files === 1 ? '' : 's'}`;
  const copied = await copy(link);
  useShareStore.setState({
    link,
    status: `${copied ? 'Copied' : 'Made (the browser refused the clipboard: copy it from the box)'} a link of ${link.length.toLocaleString('en-GB')} characters with ${carries}.${receipt}`,
  });
}

export async function copyBlankLink(): Promise<void> {
  const link = pageUrl(BLANK);
  const copied = await copy(link);
  useShareStore.setState({ link, status: `${copied ? 'Copied' : 'Made'} a blank-session link: whoever opens it starts from the built-in scenarios.` });
}

async function afterWorkspaceReplaced(workspace: WorkspaceSnapshot, compile: () => Promise<void>): Promise<void> {
  // The frozen receipt stays, to be judged against the workspace the link brings; declared late changes were the old one's.
  useDrillStore.setState({ declared: [] });
  useResultStore.setState({ traceQuery: DEFAULT_TRACE_QUERY });
  useScenarioStore.setState({ workspace, contractIssues: [], load: { status: 'idle' } });
  await compile();
}

/** Opens a link now (the user said yes, or there was nothing to lose). */
export async function applyLink(link: PendingLink, compile: () => Promise<void>): Promise<void> {
  useShareStore.setState({ pending: null, refusal: null, opened: null });
  if (link.kind === 'blank') {
    await afterWorkspaceReplaced(await compilerApi().resetWorkspace(), compile);
    useShareStore.setState({ opened: 'Started a blank session: the built-in scenarios, nothing loaded or edited.' });
    return;
  }
  const result = await compilerApi().openShareLink(link.fragment);
  if (!result.ok) {
    useShareStore.setState({ refusal: result.issues });
    return;
  }
  await afterWorkspaceReplaced(result.snapshot, compile);
  const selected = result.snapshot.scenarios.find((scenario) => scenario.key === result.snapshot.selection.scenarioKey);
  const on = result.snapshot.selection.controls.length + result.snapshot.selection.lateChanges.length;
  useShareStore.setState({ opened: `Opened a shared workspace: ${selected?.title ?? result.snapshot.selection.scenarioKey}, ${on} control${on === 1 ? '' : 's'} or late change${on === 1 ? '' : 's'} on.` });
}

/**
 * Reads a share or blank-session link from the address bar. The fragment is removed at once, so a reload
 * does not open it again; a link that would replace loaded files or edits waits for the user's yes.
 */
export async function openLinkFromLocation(compile: () => Promise<void>): Promise<boolean> {
  const link = linkOf(window.location.hash);
  if (!link) return false;
  history.replaceState(history.state, '', `${window.location.pathname}${window.location.search}`);
  let pending: PendingLink = link;
  if (link.kind === 'share') {
    // Refused before any question: a damaged or oversized link has nothing to decide about.
    const checked = await compilerApi().checkShareLink(link.fragment);
    if (!checked.ok) {
      useShareStore.setState({ pending: null, refusal: checked.issues, opened: null });
      return false;
    }
    pending = { ...link, carries: `It opens scenario “${checked.scenarioKey}” with ${checked.edits} edited contract${checked.edits === 1 ? '' : 's'} and ${checked.files} loaded file${checked.files === 1 ? '' : 's'}.` };
  }
  if (hasWorkToLose(useScenarioStore.getState().workspace)) {
    useShareStore.setState({ pending, refusal: null, opened: null });
    return false;
  }
  await applyLink(pending, compile);
  return true;
}

export function dismissShareNotice(): void {
  useShareStore.setState({ refusal: null, opened: null });
}
