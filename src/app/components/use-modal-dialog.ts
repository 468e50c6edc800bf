import { useEffect, useEffectEvent, useRef, type RefObject } from 'react';

/**
 * A native modal dialog shown while `open` is true: the browser traps the focus inside it. `focusFirst`
 * moves the focus once it is shown (without it, the browser's choice stands). When `open` turns false
 * the focus goes back to whatever had it when the dialog opened, if that is still on the page, also when
 * the browser had already closed the dialog itself. Put the returned ref on the `<dialog>`.
 */
export function useModalDialog(
  open: boolean,
  focusFirst?: (dialog: HTMLDialogElement) => void,
): RefObject<HTMLDialogElement | null> {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  // The caller's latest choice, without making each render's new function re-run the effect.
  const shown = useEffectEvent((dialog: HTMLDialogElement) => focusFirst?.(dialog));
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      dialog.showModal();
      shown(dialog);
    } else if (!open) {
      if (dialog.open) dialog.close();
      const previous = opener.current;
      opener.current = null;
      if (previous instanceof HTMLElement && previous.isConnected) previous.focus();
    }
  }, [open]);
  return ref;
}
