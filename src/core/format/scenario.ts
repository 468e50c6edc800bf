import { z } from 'zod';
import { contractSchema } from './contract';
import { idSchema, recordSchema } from './record';

/** Patches are JSON Merge Patches (RFC 7396): a null value removes the field. Results are re-validated. */
const mergePatchSchema = z.record(z.string(), z.unknown());

export const patchSchema = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('mergeRecord'), id: idSchema, patch: mergePatchSchema }),
  z.strictObject({ op: z.literal('mergeContract'), patch: mergePatchSchema }),
  z.strictObject({ op: z.literal('addRecord'), record: recordSchema }),
  z.strictObject({ op: z.literal('removeRecord'), id: idSchema }),
]);

const changeSchema = z.strictObject({
  id: idSchema,
  label: z.string().min(1).max(120),
  /** One line that tells a trainee what the toggle demonstrates. */
  explanation: z.string().min(1).max(400),
  patches: z.array(patchSchema).min(1),
});

export const controlSchema = changeSchema;
export const lateChangeSchema = changeSchema;

export const scenarioSchema = z.strictObject({
  id: idSchema,
  title: z.string().min(1),
  description: z.string().default(''),
  contract: contractSchema,
  /** Inline records, or the name of a JSONL file next to the scenario file. */
  records: z.union([z.array(recordSchema), z.string().regex(/^[^/\\]+\.jsonl$/, 'a .jsonl file name in the same folder')]),
  controls: z.array(controlSchema).default([]),
  lateChanges: z.array(lateChangeSchema).default([]),
});

export type Patch = z.output<typeof patchSchema>;
export type Control = z.output<typeof controlSchema>;
export type LateChange = z.output<typeof lateChangeSchema>;
export type ScenarioFile = z.output<typeof scenarioSchema>;
