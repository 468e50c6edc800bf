import { useRef } from 'react';
import { loadFiles, resetWorkspace } from '../state/actions';
import { useScenarioStore } from '../state/scenario-store';
import { useUiStore } from '../state/ui-store';

export function Header() {
  const input = useRef<HTMLInputElement>(null);
  const theme = useUiStore((state) => state.theme);
  const loading = useScenarioStore((state) => state.load.status === 'loading');
  return (
    <header className="app-header">
      <div className="brand">
        <h1>Context Debugger</h1>
        <p className="caption">Decides which records an assistant may see, then ranks only inside that set — and proves every decision.</p>
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
        <button type="button" onClick={() => input.current?.click()} disabled={loading}>
          Open files…
        </button>
        <button type="button" className="secondary" onClick={() => void resetWorkspace()} disabled={loading}>
          Reset to built-in scenarios
        </button>
        <button type="button" className="secondary" aria-pressed={theme === 'dark'} onClick={() => useUiStore.setState({ theme: theme === 'dark' ? 'light' : 'dark' })}>
          Dark theme
        </button>
      </div>
    </header>
  );
}
