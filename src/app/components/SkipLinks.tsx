import { flushSync } from 'react-dom';
import { useUiStore, type ViewId, type WorkspaceId } from '../state/ui-store';

const TARGETS: readonly { id: string; label: string; workspace: WorkspaceId; view?: ViewId }[] = [
  { id: 'contract-heading', label: 'Skip to the contract', workspace: 'debugger', view: 'contract' },
  { id: 'compare-heading', label: 'Skip to the packets', workspace: 'debugger', view: 'compare' },
  { id: 'trace-search', label: 'Skip to the trace search', workspace: 'debugger', view: 'trace' },
  { id: 'drill-heading', label: 'Skip to the fire drill', workspace: 'drill' },
];

/**
 * The first stops of the Tab order, shown only when focused. A target may sit in a hidden tab or view,
 * so the link opens that view first (synchronously, so the element exists and shows) and then focuses it.
 */
export function SkipLinks() {
  const workspace = useUiStore((state) => state.workspace);
  return (
    <nav className="skip-links" aria-label="Skip links">
      {TARGETS.map((target) => (
        <a
          key={target.id}
          // The debugger stays mounted when hidden; another view exists only while open, so until then the link's
          // own address is the workspace switch, where that view is opened.
          href={`#${[workspace, 'debugger'].includes(target.workspace) ? target.id : 'workspace-switch'}`}
          onClick={(event) => {
            event.preventDefault();
            flushSync(() =>
              useUiStore.setState(
                target.view
                  ? { workspace: target.workspace, activeView: target.view }
                  : { workspace: target.workspace },
              ),
            );
            document.getElementById(target.id)?.focus();
          }}
        >
          {target.label}
        </a>
      ))}
    </nav>
  );
}
