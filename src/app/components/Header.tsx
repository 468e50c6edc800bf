import { useRef, useState } from 'react';
import type { WorkspaceSnapshot } from '../../worker/protocol';
import { loadFiles, resetWorkspace } from '../state/workspace-actions';
import { useScenarioStore } from '../state/scenario-store';
import { useUiStore } from '../state/ui-store';
import { ConfirmDialog } from './ConfirmDialog';
import { SteadyButton } from './SteadyButton';
import { openGlossary } from './Glossary';
import { promptInstall } from '../pwa-status';
import { openShareDialog } from '../state/share';
import { startTour } from '../state/tour-actions';
import { setPresenter } from './Presenter';

const OFFLINE_TEXT = {
  pending: 'Saving for offline use…',
  ready: 'Ready to work offline',
  unsupported: 'Offline use is not available in this browser',
} as const;
import { plural } from './format';

/** What a reset would throw away, in words, so the question is worth reading. */
export function whatResetLoses(workspace: WorkspaceSnapshot | null): string {
  if (!workspace) return 'Nothing is loaded yet.';
  const loaded = workspace.scenarios.filter((scenario) => scenario.origin === 'loaded').length;
  const edited = workspace.scenarios.filter((scenario) => scenario.contractEdited).length;
  const parts = [
    loaded > 0 ? `${plural(loaded, 'loaded scenario')} and ${loaded === 1 ? 'its' : 'their'} files` : null,
    edited > 0 ? `${plural(edited, 'edited contract')}` : null,
  ].filter((part) => part !== null);
  return parts.length === 0
    ? 'Nothing has been loaded or edited: the built-in scenarios are selected again, with every control off.'
    : `This removes ${parts.join(' and ')} from this browser. Export a scenario first to keep it.`;
}

export function Header() {
  const input = useRef<HTMLInputElement>(null);
  const theme = useUiStore((state) => state.theme);
  const loading = useScenarioStore((state) => state.load.status === 'loading');
  const workspace = useScenarioStore((state) => state.workspace);
  const [confirming, setConfirming] = useState(false);
  const offline = useUiStore((state) => state.offline);
  const installable = useUiStore((state) => state.installPrompt !== null);
  const presenter = useUiStore((state) => state.presenter);
  return (
    <header className="app-header">
      <div className="brand">
        <h1>Context Compiler</h1>
        <p className="caption">
          Decides which records an assistant may see, then ranks only inside that set — and proves every decision.
        </p>
        <p className={`offline-status offline-${offline}`} role="status" data-testid="offline-status">
          {OFFLINE_TEXT[offline]}
        </p>
      </div>
      <div className="button-row">
        <input
          ref={input}
          type="file"
          multiple
          hidden
          accept=".json,.jsonl,application/json"
          data-testid="file-input"
          aria-label="Choose files to load"
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = '';
            void loadFiles(files);
          }}
        />
        <SteadyButton onClick={() => input.current?.click()} unavailable={loading}>
          Open files…
        </SteadyButton>
        <SteadyButton className="secondary" onClick={() => setConfirming(true)} unavailable={loading}>
          Reset to built-in scenarios
        </SteadyButton>
        <ConfirmDialog
          open={confirming}
          title="Reset to the built-in scenarios?"
          confirmLabel="Reset workspace"
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void resetWorkspace();
          }}
        >
          <p data-testid="reset-loses">{whatResetLoses(workspace)}</p>
        </ConfirmDialog>
        {installable ? (
          <button type="button" className="secondary" onClick={() => void promptInstall()}>
            Install app
          </button>
        ) : null}
        <button type="button" className="secondary" id="tour-start" onClick={() => void startTour()}>
          Start guided tour
        </button>
        <button type="button" className="secondary" aria-haspopup="dialog" onClick={() => openShareDialog(true)}>
          Share…
        </button>
        <button type="button" className="secondary" aria-haspopup="dialog" onClick={() => openGlossary()}>
          Glossary
        </button>
        <button
          type="button"
          className="secondary"
          aria-pressed={presenter}
          aria-keyshortcuts="P"
          onClick={() => setPresenter(!presenter)}
        >
          Presenter mode
        </button>
        <button
          type="button"
          className="secondary"
          aria-pressed={theme === 'dark'}
          onClick={() => useUiStore.setState({ theme: theme === 'dark' ? 'light' : 'dark' })}
        >
          Dark theme
        </button>
      </div>
    </header>
  );
}
