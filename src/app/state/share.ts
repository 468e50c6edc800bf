import { create } from 'zustand';
import { wordMessage } from '../../core/messages';
import type { InputIssue } from '../../core/errors';
import { DEFAULT_TRACE_QUERY } from '../../shared/trace-page';
import type { OpenedScreen, ScreenShown, WorkspaceSnapshot } from '../../worker/protocol';
import { viewIdentity } from '../../shared/view-identity';
import { compilerApi } from '../worker-client';
import { useDebugStore } from './debug-store';
import { useDrillStore } from './drill-store';
import { useResultStore } from './result-store';
import { useScenarioStore } from './scenario-store';
import { useUiStore, VIEWS, WORKSPACES } from './ui-store';

/** The fragments the app reads from its own URL: `#share=1.…` (a workspace) and `#blank` (a blank session). */
const SHARE_PREFIX = 'share=';
const BLANK = 'blank';

export type PendingLink =
  { readonly kind: 'share'; readonly fragment: string; readonly carries?: string } | { readonly kind: 'blank' };

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

export const INITIAL_SHARE: ShareState = {
  dialogOpen: false,
  link: null,
  status: null,
  pending: null,
  refusal: null,
  opened: null,
};

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
  return (
    workspace !== null &&
    workspace.scenarios.some((scenario) => scenario.origin === 'loaded' || scenario.contractEdited)
  );
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

/**
 * The page's part of the screen on show: the view, the tabs, and whether a drill verdict speaks for what is compiled.
 */
export function screenShown(): ScreenShown {
  const { audience, workspace, activeView } = useUiStore.getState();
  const { verdict, verdictRevision } = useDrillStore.getState();
  const { revision, compiling } = useResultStore.getState();
  return {
    audience,
    workspace,
    view: activeView,
    attempted: verdict !== null && !compiling && verdictRevision === revision,
  };
}

/** The screen as the catalogue words it: the view, the tab and rail by their labels, and what the link holds. */
function screenOpened(screen: ScreenShown, pinned: boolean, frozen: boolean) {
  const tab = WORKSPACES.find((workspace) => workspace.id === screen.workspace)?.label ?? screen.workspace;
  const view = VIEWS.find((view) => view.id === screen.view)?.label ?? screen.view;
  return { audience: screen.audience, tab, view, pinned, frozen, attempted: screen.attempted };
}

export async function copyShareLink(): Promise<void> {
  const screen = screenShown();
  const result = await compilerApi().createShareLink(screen);
  if (!result.ok) {
    useShareStore.setState({ link: null, status: result.message });
    return;
  }
  const link = pageUrl(result.fragment);
  const response = useResultStore.getState().response;
  const opensTo = response?.ok ? viewIdentity(response.view) : null;
  const copied = await copy(link);
  const pinned = useDebugStore.getState().baseline !== null;
  const frozen = useDrillStore.getState().frozenReceiptId !== null;
  useShareStore.setState({
    link,
    status: wordMessage('LINK_MADE', {
      copied,
      length: link.length,
      edits: result.edits,
      files: result.files,
      opensTo,
      ...screenOpened(screen, pinned, frozen),
    }),
  });
}

export async function copyBlankLink(): Promise<void> {
  const link = pageUrl(BLANK);
  const copied = await copy(link);
  useShareStore.setState({
    link,
    status: wordMessage('BLANK_LINK_MADE', { copied }),
  });
}

async function afterWorkspaceReplaced(
  workspace: WorkspaceSnapshot,
  compile: () => Promise<void>,
  screen: OpenedScreen | null = null,
): Promise<void> {
  // The frozen receipt stays, to be judged against the workspace the link brings; declared late changes were the old
  // one's.
  useDrillStore.setState({ declared: [] });
  useResultStore.setState({ traceQuery: DEFAULT_TRACE_QUERY });
  useScenarioStore.setState({ workspace, contractIssues: [], load: { status: 'idle' } });
  if (screen) showScreen(screen);
  await compile();
}

/** Opens a link now (the user said yes, or there was nothing to lose). */
export async function applyLink(link: PendingLink, compile: () => Promise<void>): Promise<void> {
  useShareStore.setState({ pending: null, refusal: null, opened: null });
  if (link.kind === 'blank') {
    await afterWorkspaceReplaced(await compilerApi().resetWorkspace(), compile);
    useShareStore.setState({ opened: wordMessage('BLANK_SESSION_STARTED') });
    return;
  }
  const result = await compilerApi().openShareLink(link.fragment);
  if (!result.ok) {
    useShareStore.setState({ refusal: result.issues });
    return;
  }
  await afterWorkspaceReplaced(result.snapshot, compile, result.screen);
  const verdictLost = result.screen?.attempted ? await verdictNotBack() : false;
  const { selection } = result.snapshot;
  const selected = result.snapshot.scenarios.find((scenario) => scenario.key === selection.scenarioKey);
  const shown = result.screen;
  useShareStore.setState({
    opened: wordMessage('SHARED_WORKSPACE_OPENED', {
      scenario: selected?.title ?? selection.scenarioKey,
      on: selection.controls.length + selection.lateChanges.length,
      screen: shown && screenOpened(shown, shown.baseline !== null, shown.drill.frozenReceiptId !== null),
      notes: shown?.notes ?? [],
      verdictLost,
    }),
  });
}

/**
 * The view and tabs a link opened on, with the pin and the drill the worker restored; set before the first compile,
 * which is of that view.
 */
function showScreen(screen: OpenedScreen): void {
  useUiStore.setState({ audience: screen.audience, workspace: screen.workspace, activeView: screen.view });
  useDebugStore.setState({ baseline: screen.baseline, baselineDiff: null });
  useDrillStore.setState({
    frozenReceiptId: screen.drill.frozenReceiptId,
    declared: screen.drill.declared,
    verdict: null,
  });
}

/** The drill verdict the link's screen showed, asked again of the inputs just compiled; true when there is none. */
async function verdictNotBack(): Promise<boolean> {
  if (useResultStore.getState().failure !== null) return false;
  const verdict = await compilerApi().attemptContinue();
  useDrillStore.setState({ verdict, verdictRevision: useResultStore.getState().revision, busy: false });
  return !verdict;
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
    pending = {
      ...link,
      carries: `It opens scenario “${checked.scenarioKey}” with ${checked.edits} edited contract${checked.edits === 1 ? '' : 's'} and ${checked.files} loaded file${checked.files === 1 ? '' : 's'}.`,
    };
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
