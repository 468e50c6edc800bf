import { z } from 'zod';
import { scenarioEditSchema } from '../scenarios/record-edits';

/** What is kept in IndexedDB. Read back through this schema: storage is a boundary like any file. */
export const savedLoadSchema = z.strictObject({
  /** The scenario selected when the files were loaded: a lone records or contract file completes it. */
  baseKey: z.string(),
  files: z.array(z.strictObject({ name: z.string(), blob: z.instanceof(Blob) })).min(1),
  /**
   * The load's id in the workspace database: its record store keeps the load's records files there, as
   * validated, once each is stored in full (in the background after the load); absent without a database on disk.
   */
  stored: z.string().optional(),
});

export const savedWorkspaceSchema = z.strictObject({
  version: z.literal(1),
  loads: z.array(savedLoadSchema),
  contractEdits: z.record(z.string(), z.unknown()),
  /**
   * Records replaced and changes authored in the app, per scenario key (src/scenarios/record-edits.ts); absent when
   * none.
   */
  recordEdits: z.record(z.string(), scenarioEditSchema).optional(),
  selection: z.strictObject({
    scenarioKey: z.string(),
    controls: z.array(z.string()),
    lateChanges: z.array(z.string()),
  }),
  /** The suites open in the Tests panel, as their files; absent when none is open. */
  suites: z.array(z.strictObject({ name: z.string(), text: z.string() })).optional(),
});

export type SavedLoad = z.output<typeof savedLoadSchema>;
export type SavedWorkspace = z.output<typeof savedWorkspaceSchema>;
