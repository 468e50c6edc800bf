import type { Sha256 } from '../../core/fingerprints';
import type { Audience, DisclosedView } from '../../core/disclosure';
import type { Receipt } from '../../core/result';
import type { CompileView } from '../protocol';
import { factContextOf } from '../../core/reasons';
import { DEFAULT_TRACE_QUERY, TRACE_PAGE_SIZE } from '../../shared/trace-page';
import { inputsKeyOf } from './remembered-result';
import type { ResultMemory } from '../workspace/workspace-storage';
import { filterAndSortTrace, traceWindow } from './compile-view';
import { measuredAsync } from '../user-timing';
import type { Workspace } from '../workspace/workspace';

/**
 * How long after the last result shown it is remembered: a burst of toggles writes once, and the write (a view and
 * one trace page, well under a megabyte) never comes between a click and its result.
 */
export const REMEMBER_AFTER_MS = 1_000;

export interface RememberDeps {
  /** The SHA-256 the session's compiler hashes with. */
  readonly sha256: Sha256;
  /** Where the result last shown is kept for the next boot, and the build that keys it; null keeps nothing. */
  readonly remember: { readonly memory: ResultMemory; readonly build: string } | null;
  readonly saves: boolean;
  readonly workspace: Pick<Workspace, 'saved' | 'value'>;
  /** The last compilation as `audience` is shown it, its views worked out only when asked; null when there is none. */
  readonly lastShown: (audience: Audience) => LastShown | null;
}

export interface LastShown {
  /** The key of the saved workspace it was compiled from, when it may be remembered. */
  readonly inputsKey: string | null;
  readonly receipt: Receipt;
  readonly view: () => CompileView;
  readonly disclosed: () => DisclosedView;
}

/**
 * Keeps what the page shows now for the next boot, once results have stopped coming for REMEMBER_AFTER_MS; only
 * while the saved workspace is the one compiled (a change not yet compiled, or not saved, keeps nothing new).
 */
export function createRememberSoon({ sha256, remember, saves, workspace, lastShown }: RememberDeps) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  return {
    /** The key a compilation of the saved workspace is remembered under; null when nothing is remembered. */
    inputsKey: (): string | null => (remember === null ? null : inputsKeyOf(sha256, remember.build, workspace.saved())),
    soon(audience: Audience): void {
      if (remember === null || !saves) return;
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        const compiled = lastShown(audience);
        const key = inputsKeyOf(sha256, remember.build, workspace.saved());
        if (
          compiled === null ||
          key === null ||
          key !== compiled.inputsKey ||
          workspace.value().storageState.status !== 'persistent'
        )
          return;
        const view = { ...compiled.view(), compilation: 0 };
        const shown = compiled.disclosed();
        const context = factContextOf(compiled.receipt.contract);
        const rows = filterAndSortTrace(shown.rows, { ...DEFAULT_TRACE_QUERY, audience }, context, shown.ranks);
        // A baseline pinned now is not pinned after a reload: the remembered rows mark no change against one.
        const firstPage = traceWindow(rows, shown.rows.length, context, shown.ranks, new Map(), 0, TRACE_PAGE_SIZE);
        // A result not remembered only means the next boot waits for its compilation.
        measuredAsync('cc:remember', () => remember.memory.writeRemembered({ key, result: { view, firstPage } })).catch(
          () => undefined,
        );
      }, REMEMBER_AFTER_MS);
    },
    cancel(): void {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
