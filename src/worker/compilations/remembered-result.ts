import { z } from 'zod';
import { canonicalJson } from '../../core/canonical';
import type { Sha256 } from '../../core/fingerprints';
import { savedWorkspaceSchema, type RememberedResult, type SavedWorkspace } from '../protocol';
import type { RememberedEntry, ResultMemory, WorkspaceStorage } from '../workspace/workspace-storage';

/**
 * The result a page last showed, kept beside the saved workspace so that a reload can show it at once while the
 * worker restores the database and compiles the same inputs again to check it. It is keyed by those inputs: the
 * worker's build (its script's name carries a hash of the compiler in a production build), the loads by their ids
 * in the workspace database, the contract edits and the selection. A saved workspace with another key, or a load
 * without a database id (nothing then says its files are the same), shows nothing remembered.
 */

/**
 * Only the envelope is checked here: the key names the build that wrote the result, and a build reads what it wrote.
 */
const rememberedEntrySchema = z.object({
  key: z.string(),
  result: z.object({
    view: z.object({ receiptId: z.string().nullable(), userViewId: z.string().nullable() }),
    firstPage: z.object({ rows: z.array(z.unknown()) }),
  }),
});

/** The key of the inputs `workspace` compiles from, or null when one of its loads cannot be named (no database id). */
export function inputsKeyOf(sha256: Sha256, build: string, workspace: SavedWorkspace): string | null {
  const loads = [];
  for (const load of workspace.loads) {
    if (load.stored === undefined) return null;
    loads.push({
      baseKey: load.baseKey,
      stored: load.stored,
      files: load.files.map(({ name, blob }) => ({ name, bytes: blob.size })),
    });
  }
  return sha256.hex(
    canonicalJson({ build, loads, contractEdits: workspace.contractEdits, selection: workspace.selection }),
  );
}

/**
 * The remembered result for the workspace storage holds now, or null: none kept, another workspace's, a workspace
 * whose files are missing or that this version cannot read, or storage that failed (the compile then says why).
 */
export async function readRememberedResult(
  sha256: Sha256,
  storage: WorkspaceStorage & ResultMemory,
  build: string,
): Promise<RememberedResult | null> {
  try {
    const [stored, remembered] = await Promise.all([storage.read(), storage.readRemembered()]);
    if (stored === undefined || stored.filesMissing) return null;
    const workspace = savedWorkspaceSchema.safeParse(stored.workspace);
    const entry = rememberedEntrySchema.safeParse(remembered);
    if (!workspace.success || !entry.success || entry.data.key !== inputsKeyOf(sha256, build, workspace.data))
      return null;
    return (remembered as RememberedEntry).result;
  } catch {
    return null;
  }
}
