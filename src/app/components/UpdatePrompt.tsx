import { useEffect, useRef } from 'react';

/**
 * A new version is waiting; it is never swapped in under a user who is mid-task. It takes the focus, and gives it back
 * on Later.
 */
export function UpdatePrompt({
  visible,
  onUpdate,
  onDismiss,
}: {
  visible: boolean;
  onUpdate: () => void;
  onDismiss: () => void;
}) {
  const reload = useRef<HTMLButtonElement>(null);
  const opener = useRef<Element | null>(null);
  useEffect(() => {
    if (!visible) return;
    opener.current = document.activeElement;
    reload.current?.focus();
  }, [visible]);
  if (!visible) return null;
  return (
    <div className="update-prompt" role="alertdialog" aria-label="Update available" aria-describedby="update-text">
      <p id="update-text">Update available: a newer version of Context Compiler has been downloaded.</p>
      <div className="button-row">
        <button type="button" onClick={onUpdate} ref={reload}>
          Reload to update
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            onDismiss();
            if (opener.current instanceof HTMLElement && opener.current !== document.body) opener.current.focus();
          }}
        >
          Later
        </button>
      </div>
    </div>
  );
}
