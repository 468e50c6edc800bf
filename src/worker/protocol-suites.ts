import type { InputIssue } from '../core/errors';
import type { TestsView } from './suites/expectation-runs';

/* The Tests panel's drafts and opened suites: part of the worker's protocol (protocol.ts re-exports it). */

export interface SuiteDiffLine {
  readonly kind: 'added' | 'removed' | 'same';
  readonly text: string;
}

/** A suite as it would be written, shown as a diff against what is open before anything is kept or downloaded. */
export type SuiteDraft =
  | {
      readonly ok: true;
      readonly file: string;
      readonly text: string;
      readonly diff: readonly SuiteDiffLine[];
      /** Picked ids the view has no row for: left out of the case (withheld from this view and absent look alike). */
      readonly notShown: readonly string[];
      /** Cases left as written (a matrix is run under several sets of switches, so no one screen states it). */
      readonly unchanged: readonly string[];
    }
  | { readonly ok: false; readonly issues: readonly InputIssue[] };

export interface CaseFromScreen {
  readonly name: string;
  /** Records whose decision the case states (the packet's are stated by its order anyway). */
  readonly records: readonly string[];
  /** An open suite to add the case to; null writes a new suite for the inputs on screen. */
  readonly suite: string | null;
}

/**
 * The suites open after an open, run on the inputs on screen; `issues` name the file, line and field of each refused.
 */
export type OpenSuitesResult =
  | { readonly ok: true; readonly view: TestsView }
  | { readonly ok: false; readonly issues: readonly InputIssue[]; readonly view: TestsView };
