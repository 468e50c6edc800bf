import { parseArgs, type ParseArgsConfig } from 'node:util';
import { z } from 'zod';

export const inputOptionSpec = {
  scenario: { type: 'string' },
  records: { type: 'string' },
  contract: { type: 'string' },
  control: { type: 'string', multiple: true, default: [] },
  'late-change': { type: 'string', multiple: true, default: [] },
  json: { type: 'boolean', default: false },
  view: { type: 'string', default: 'diagnostic' },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsConfig['options'];

export const audienceSchema = z.enum(['diagnostic', 'user']);

export type ParsedArgs<T extends NonNullable<ParseArgsConfig['options']>> = ReturnType<typeof parseArgs<{ options: T; strict: true; allowPositionals: true }>>;

/** Strict parsing: an unknown flag or a missing value is a usage error, never silently ignored. */
export function parseCommandArgs<T extends NonNullable<ParseArgsConfig['options']>>(
  args: readonly string[],
  options: T,
): { ok: true; value: ParsedArgs<T> } | { ok: false; message: string } {
  try {
    return { ok: true, value: parseArgs({ args: [...args], options, strict: true, allowPositionals: true }) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
