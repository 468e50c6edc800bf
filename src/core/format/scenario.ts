import { z } from 'zod';
import { addRuleIssue } from './rule-issue';
import { contractSchema } from './contract';
import { expectationSuiteSchema } from './expectation';
import { idSchema } from './identifier';
import { recordSchema } from './record';
import { knownTourChanges, tourSchema } from './tour';

/**
 * Keys that no format has and that JavaScript treats specially (`__proto__` would set a prototype and
 * vanish; the others name functions every object inherits). A patch naming one is refused as an unknown field.
 */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Paths to every reserved key in a JSON value, walked without recursion (a patch may nest deep). */
export function reservedKeyPaths(root: unknown): (string | number)[][] {
  const found: (string | number)[][] = [];
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: root, path: [] }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value, path } = item;
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      value.forEach((element, index) => stack.push({ value: element, path: [...path, index] }));
      continue;
    }
    for (const key of Object.keys(value)) {
      if (RESERVED_KEYS.has(key)) found.push([...path, key]);
      else stack.push({ value: (value as Record<string, unknown>)[key], path: [...path, key] });
    }
  }
  return found;
}

/**
 * Patches are JSON Merge Patches (RFC 7396): a null value removes the field. Results are re-validated.
 * Reserved keys are looked for in the parsed JSON itself, before zod copies it into a record: that copy
 * drops a `__proto__` key without a word.
 */
export const mergePatchSchema = z
  .unknown()
  .superRefine((patch, ctx) => {
    for (const path of reservedKeyPaths(patch))
      ctx.addIssue({ code: 'unrecognized_keys', keys: [String(path[path.length - 1])], path: path.slice(0, -1) });
  })
  .pipe(z.record(z.string(), z.unknown()));

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
  /**
   * Records its label or explanation names besides those its patches touch. Validation refuses a text that names a
   * record of the scenario it does not declare; the user view redacts every declared record it withholds.
   */
  mentions: z.array(idSchema).optional(),
});

export const controlSchema = changeSchema;
export const lateChangeSchema = changeSchema;

/** Two changes with one id would both apply when it is switched on: ids are unique within each list. */
function uniqueIds(changes: readonly { readonly id: string }[], ctx: z.RefinementCtx): void {
  const first = new Map<string, number>();
  changes.forEach((change, index) => {
    const earlier = first.get(change.id);
    if (earlier === undefined) first.set(change.id, index);
    else addRuleIssue(ctx, [index, 'id'], 'DUPLICATE_ID', { id: JSON.stringify(change.id), first: `[${earlier}]` });
  });
}

export const scenarioSchema = z
  .strictObject({
    id: idSchema,
    title: z.string().min(1),
    description: z.string().default(''),
    contract: contractSchema,
    /** Inline records, or the name of a JSONL file next to the scenario file. */
    records: z.union([
      z.array(recordSchema),
      z.string().regex(/^[^/\\]+\.jsonl$/, 'a .jsonl file name in the same folder'),
    ]),
    controls: z.array(controlSchema).superRefine(uniqueIds).default([]),
    lateChanges: z.array(lateChangeSchema).superRefine(uniqueIds).default([]),
    /**
     * Expectation suites that travel with the scenario (an exported one carries those open in the Tests panel); the app
     * opens them.
     */
    suites: z.array(expectationSuiteSchema).optional(),
    /** Its own guided tour; without one the app builds one from its controls and late changes. */
    tour: tourSchema.optional(),
  })
  .superRefine(knownTourChanges);

export type Patch = z.output<typeof patchSchema>;
export type Control = z.output<typeof controlSchema>;
export type LateChange = z.output<typeof lateChangeSchema>;
export type ScenarioFile = z.output<typeof scenarioSchema>;
