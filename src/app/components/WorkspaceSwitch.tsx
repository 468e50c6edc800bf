import { useUiStore, WORKSPACES, type WorkspaceId } from '../state/ui-store';

export function openWorkspace(workspace: WorkspaceId): void {
  useUiStore.setState({ workspace });
}

/** Switches the page between the debugger's rails, the fire drill and the Evaluation view; visible at every width. */
export function WorkspaceSwitch() {
  const current = useUiStore((state) => state.workspace);
  return (
    <nav className="workspace-switch" aria-label="Workspace" id="workspace-switch">
      {WORKSPACES.map((workspace) => (
        <button
          key={workspace.id}
          type="button"
          aria-pressed={current === workspace.id}
          onClick={() => openWorkspace(workspace.id)}
        >
          {workspace.label}
        </button>
      ))}
    </nav>
  );
}
