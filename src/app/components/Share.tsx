import { useRef } from 'react';
import { formatIssue } from '../../core/errors';
import { openLink, shareWorkspace } from '../state/workspace-actions';
import { useScenarioStore } from '../state/scenario-store';
import { copyBlankLink, dismissShareNotice, openShareDialog, useShareStore } from '../state/share';
import { ConfirmDialog } from './ConfirmDialog';
import { whatResetLoses } from './Header';
import { useModalDialog } from './use-modal-dialog';

/** The "Share" dialog: a link that carries the whole workspace in its fragment, and a blank-session link. */
export function ShareDialog() {
  const { dialogOpen, link, status } = useShareStore();
  const first = useRef<HTMLButtonElement>(null);
  const ref = useModalDialog(dialogOpen, () => first.current?.focus());
  return (
    <dialog
      ref={ref}
      className="share-dialog"
      aria-labelledby="share-heading"
      onCancel={(event) => {
        event.preventDefault();
        openShareDialog(false);
      }}
    >
      {dialogOpen ? (
        <>
          <h2 id="share-heading">Share this workspace</h2>
          <p>
            The link holds the selected scenario, its controls and late changes, every edited contract and the loaded
            files (up to 256 KB of files; none from the user view), and the screen: view, tab, pinned baseline and
            drill. It is compressed into the part of the address after “#”. That part never reaches a server: opening
            the link rebuilds the workspace in the browser and compiles the same receipts.
          </p>
          <div className="button-row">
            <button type="button" ref={first} onClick={() => void shareWorkspace()}>
              Copy share link
            </button>
            <button type="button" className="secondary" onClick={() => void copyBlankLink()}>
              Copy blank-session link
            </button>
          </div>
          <p role="status" data-testid="share-status">
            {status}
          </p>
          {link ? (
            <label className="field">
              <span>Link</span>
              <input
                type="text"
                readOnly
                value={link}
                data-testid="share-link"
                onFocus={(event) => event.target.select()}
              />
            </label>
          ) : null}
          <div className="button-row">
            <button type="button" className="secondary" onClick={() => openShareDialog(false)}>
              Close
            </button>
          </div>
        </>
      ) : null}
    </dialog>
  );
}

/** A link waiting for a yes, a refused link (with every problem, nothing changed), or what an opened link did. */
export function ShareNotice() {
  const { pending, refusal, opened } = useShareStore();
  const workspace = useScenarioStore((state) => state.workspace);
  return (
    <>
      <ConfirmDialog
        open={pending !== null}
        title={pending?.kind === 'blank' ? 'Start a blank session?' : 'Open the shared workspace?'}
        confirmLabel={pending?.kind === 'blank' ? 'Start blank session' : 'Open shared workspace'}
        onCancel={() => useShareStore.setState({ pending: null })}
        onConfirm={() => {
          if (pending) void openLink(pending);
        }}
      >
        <p>
          The link replaces this browser’s workspace.{' '}
          {pending?.kind === 'share' && pending.carries ? `${pending.carries} ` : ''}
          {whatResetLoses(workspace)}
        </p>
      </ConfirmDialog>
      {refusal ? (
        <div className="load-status load-errors" role="alert" data-testid="share-refused">
          <strong>The share link was not opened: nothing in this workspace has changed.</strong>
          <ul>
            {refusal.map((issue, index) => (
              <li key={index}>{formatIssue(issue)}</li>
            ))}
          </ul>
          <button type="button" className="secondary" onClick={dismissShareNotice}>
            Dismiss
          </button>
        </div>
      ) : opened ? (
        <div className="load-status" role="status" data-testid="share-opened">
          <p>{opened}</p>
          <button type="button" className="secondary" onClick={dismissShareNotice}>
            Dismiss
          </button>
        </div>
      ) : null}
    </>
  );
}
