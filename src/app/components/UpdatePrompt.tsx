/** A new version is waiting; it is never swapped in under a user who is mid-task. */
export function UpdatePrompt({ visible, onUpdate, onDismiss }: { visible: boolean; onUpdate: () => void; onDismiss: () => void }) {
  if (!visible) return null;
  return (
    <div className="update-prompt" role="alertdialog" aria-label="Update available" aria-describedby="update-text">
      <p id="update-text">Update available: a newer version of the Context Debugger has been downloaded.</p>
      <div className="button-row">
        <button type="button" onClick={onUpdate}>
          Reload to update
        </button>
        <button type="button" className="secondary" onClick={onDismiss}>
          Later
        </button>
      </div>
    </div>
  );
}
