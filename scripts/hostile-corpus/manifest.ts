import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The hostile corpus's manifest: each file's kind, what it is about and the outcome it must have. */
export const HOSTILE_DIR = fileURLToPath(new URL('../../fixtures/hostile/', import.meta.url));
export const MANIFEST_FILE = `${HOSTILE_DIR}manifest.json`;

const expectationSchema = z.strictObject({
  /**
   * CLI exit code: 0 packet (drill: continue), 1 invalid input, 2 fail-closed (drill: blocked), 3 recompile required.
   */
  exit: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
  /** The error code (exit 1), the failure code (exit 2) or the drill verdict code; null for an emitted packet. */
  code: z.string().nullable(),
  /** The file, line and JSON path the first issue must name (exit 1 from validation). */
  at: z.strictObject({ file: z.string(), line: z.number().int().positive().optional(), path: z.string() }).optional(),
  /** Words the message must contain. */
  message: z.string().optional(),
});

export const caseSchema = z.strictObject({
  file: z.string().regex(/^[\w.-]+$/),
  kind: z.enum(['records', 'contract', 'scenario', 'receipt']),
  /** What the case is about, in a line. */
  about: z.string(),
  /** Files loaded together with this one (a scenario's records file). */
  with: z.array(z.string()).default([]),
  /** Controls to switch on after loading (a scenario's patches run only then). */
  controls: z.array(z.string()).default([]),
  expect: expectationSchema,
  /** Where the app must differ from the CLI: it recognises a file from its content, the CLI takes the flag's word. */
  app: expectationSchema.partial().optional(),
  /**
   * Set while a known bug makes the case fail: the tests then require it to fail, so fixing the bug flags the entry.
   */
  knownBug: z.string().optional(),
});

export const manifestSchema = z.strictObject({
  /**
   * The valid files every case is run against: records under `contract`, a contract over `records`, receipts against
   * `scenario`.
   */
  base: z.strictObject({ records: z.string(), contract: z.string(), scenario: z.string() }),
  cases: z.array(caseSchema),
});

export type HostileCase = z.output<typeof caseSchema>;
export type HostileManifest = z.output<typeof manifestSchema>;

export function readManifest(): HostileManifest {
  return manifestSchema.parse(JSON.parse(readFileSync(MANIFEST_FILE, 'utf8')));
}
