// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useModalDialog } from './use-modal-dialog';

let setOpen: (open: boolean) => void = () => {};

function Harness({
  focusFirst,
  withOpener = true,
}: {
  focusFirst?: (dialog: HTMLDialogElement) => void;
  withOpener?: boolean;
}) {
  const [open, set] = useState(false);
  setOpen = set;
  const ref = useModalDialog(open, focusFirst);
  return (
    <>
      {withOpener ? <button type="button">Opener</button> : null}
      <button type="button">Elsewhere</button>
      <dialog ref={ref} aria-label="Question">
        <button type="button">First</button>
        <button type="button">Chosen</button>
      </dialog>
    </>
  );
}

const dialog = () => screen.getByRole<HTMLDialogElement>('dialog', { hidden: true });

describe('useModalDialog', () => {
  afterEach(cleanup);

  it('shows the dialog as a modal and gives the focus to the element the caller picks', () => {
    const focusFirst = vi.fn((_dialog: HTMLDialogElement) => screen.getByRole('button', { name: 'Chosen' }).focus());
    render(<Harness focusFirst={focusFirst} />);
    expect(dialog().open).toBe(false);
    expect(focusFirst).not.toHaveBeenCalled();
    screen.getByRole('button', { name: 'Opener' }).focus();
    const showModal = vi.spyOn(dialog(), 'showModal');
    act(() => setOpen(true));
    expect(showModal).toHaveBeenCalledTimes(1);
    expect(dialog().open).toBe(true);
    expect(focusFirst).toHaveBeenCalledExactlyOnceWith(dialog());
    expect(screen.getByRole('button', { name: 'Chosen' })).toHaveFocus();
  });

  it('closes the dialog and gives the focus back to what had it when it opened', () => {
    render(<Harness focusFirst={() => screen.getByRole('button', { name: 'Chosen' }).focus()} />);
    const opener = screen.getByRole('button', { name: 'Opener' });
    opener.focus();
    act(() => setOpen(true));
    act(() => setOpen(false));
    expect(dialog().open).toBe(false);
    expect(opener).toHaveFocus();
    // A second round remembers the new opener, not the first.
    const elsewhere = screen.getByRole('button', { name: 'Elsewhere' });
    elsewhere.focus();
    act(() => setOpen(true));
    act(() => setOpen(false));
    expect(elsewhere).toHaveFocus();
  });

  it('gives the focus back also when the browser closed the dialog before open turned false', () => {
    render(<Harness />);
    const opener = screen.getByRole('button', { name: 'Opener' });
    opener.focus();
    act(() => setOpen(true));
    act(() => dialog().close());
    screen.getByRole('button', { name: 'Elsewhere' }).focus();
    act(() => setOpen(false));
    expect(opener).toHaveFocus();
  });

  it('leaves the focus alone when the opener has left the page, and focuses nothing itself without a choice', () => {
    const { rerender } = render(<Harness />);
    screen.getByRole('button', { name: 'Opener' }).focus();
    act(() => setOpen(true));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Opener' }));
    rerender(<Harness withOpener={false} />);
    const chosen = screen.getByRole('button', { name: 'Chosen', hidden: true });
    chosen.focus();
    const focus = vi.spyOn(HTMLElement.prototype, 'focus');
    act(() => setOpen(false));
    expect(focus).not.toHaveBeenCalled();
    focus.mockRestore();
  });

  it('does not show the dialog again while it stays open', () => {
    const focusFirst = vi.fn();
    const { rerender } = render(<Harness focusFirst={focusFirst} />);
    act(() => setOpen(true));
    const showModal = vi.spyOn(dialog(), 'showModal');
    rerender(<Harness focusFirst={focusFirst} />);
    expect(showModal).not.toHaveBeenCalled();
    expect(focusFirst).toHaveBeenCalledTimes(1);
  });
});
