import { useId, useRef, type ReactNode } from 'react';
import { useModalDialog } from './use-modal-dialog';

/**
 * A modal question before something that cannot be undone. The native dialog traps focus and closes on
 * Escape; Cancel has the focus first, and focus goes back to whatever opened it.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();
  // showModal focuses the first button; the safe choice should be the one Enter presses.
  const ref = useModalDialog(open, () => cancel.current?.focus());
  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      role="alertdialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      {open ? (
        <>
          <h2 id={titleId}>{title}</h2>
          <div id={bodyId}>{children}</div>
          <div className="button-row">
            <button type="button" className="danger" onClick={onConfirm}>
              {confirmLabel}
            </button>
            <button ref={cancel} type="button" className="secondary" onClick={onCancel}>
              Cancel
            </button>
          </div>
        </>
      ) : null}
    </dialog>
  );
}
