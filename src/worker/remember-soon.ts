import type { Audience } from '../core/disclosure';
import { factContextOf } from '../core/reasons';
import { DEFAULT_TRACE_QUERY, TRACE_PAGE_SIZE } from '../shared/trace-page';
import type { Compilations } from './compilations';
import { inputsKeyOf } from './remembered-result';
import type { ResultMemory } from './workspace-storage';
import { filterAndSortTrace, traceWindow } from './trace-windows';
import { measuredAsync } from './user-timing';
import type { Workspace } from './workspace';

/**
 * How long after the last result shown it is remembered: a burst of toggles writes once, and the write (a view and
 * one trace page, well under a megabyte) never comes between a click and its result.
 */
export const REMEMBER_AFTER_MS = 1_000;

export interface RememberDeps {
  /** Where the result last shown is kept for the next boot, and the build that keys it; null keeps nothing. */
  readonly remember: { readonly memory: ResultMemory; readonly build: string } | null;
  readonly saves: boolean;
  readonly workspace: Workspace;
  readonly compilations: () => Compilations;
}

/**
 * Keeps what the page shows now for the next boot, once results have stopped coming for REMEMBER_AFTER_MS; only
 * while the saved workspace is the one compiled (a change not yet compiled, or not saved, keeps nothing new).
 */
export function createRememberSoon({ remember, saves, workspace, compilations }: RememberDeps) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  return {
    /** The key a compilation of the saved workspace is remembered under; null when nothing is remembered. */
    inputsKey: (): string | null => (remember === null ? null : inputsKeyOf(remember.build, workspace.saved())),
    soon(audience: Audience): void {
      if (remember === null || !saves) return;
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        const compiled = compilations().last();
        const key = inputsKeyOf(remember.build, workspace.saved());
        if (
          compiled === null ||
          key === null ||
          key !== compiled.inputsKey ||
          workspace.storageState.status !== 'persistent'
        )
          return;
        const view = { ...compilations().viewOf(compiled, audience), compilation: 0 };
        const shown = compilations().disclosed(compiled, audience);
        const context = factContextOf(compiled.outcome.receipt.contract);
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
