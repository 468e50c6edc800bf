import type { SavedWorkspace } from '../protocol';
import type { WorkspaceStorage } from '../workspace/workspace-storage';

/** Workspace storage in memory, for session tests: it keeps the last workspace written and counts the writes. */
export function memoryStorage(initial?: unknown): WorkspaceStorage & { writes: () => number; saved: () => unknown } {
  let value: unknown = initial;
  let writes = 0;
  return {
    read: async () => (value === undefined ? undefined : { workspace: value, filesMissing: false }),
    write: async (workspace: SavedWorkspace) => {
      writes += 1;
      value = workspace;
    },
    clear: async () => {
      value = undefined;
    },
    watch: () => undefined,
    writes: () => writes,
    saved: () => value,
  };
}
