import type { Audience } from '../core/disclosure';
import type { InputIssue } from '../core/errors';
import type { BaselinePin } from './protocol-debugger';
import type { DrillState, WorkspaceSnapshot } from './protocol-workspace';

/**
 * A share link's fragment (after `#`), or why none was made (files over the limit, link too long, files in the user
 * view).
 */
export type ShareLinkResult =
  | {
      readonly ok: true;
      readonly fragment: string;
      readonly fileBytes: number;
      readonly files: number;
      readonly edits: number;
    }
  | { readonly ok: false; readonly message: string };

/** A link decoded and validated, not yet applied: what it carries, for the question before it replaces a workspace. */
export type ShareCheck =
  | { readonly ok: true; readonly files: number; readonly edits: number; readonly scenarioKey: string }
  | { readonly ok: false; readonly issues: readonly InputIssue[] };

/** The page's part of the screen a link carries; the worker adds the pinned baseline and the drill it holds. */
export interface ScreenShown {
  readonly audience: Audience;
  readonly workspace: 'debugger' | 'drill' | 'evaluation' | 'tests';
  readonly view: 'contract' | 'compare' | 'trace';
  /** A drill verdict is on screen for the compilation on screen. */
  readonly attempted: boolean;
}

/**
 * The screen an opened link asks for, with the baseline and frozen receipt the worker compiled again and pinned or
 * froze.
 */
export interface OpenedScreen extends ScreenShown {
  readonly baseline: BaselinePin | null;
  /** The drill as the worker holds it now (a receipt frozen before the link stays when the link froze none). */
  readonly drill: DrillState;
  /** What of the screen could not be brought back, and why. */
  readonly notes: readonly string[];
}

export type ShareOpenResult =
  | { readonly ok: true; readonly snapshot: WorkspaceSnapshot; readonly screen: OpenedScreen | null }
  | { readonly ok: false; readonly issues: readonly InputIssue[] };
