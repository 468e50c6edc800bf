import { parseArgs, type ParseArgsConfig } from 'node:util';
import { z } from 'zod';
import { err, ok, type CompileError, type Result } from '../core/errors';
import { EXIT, type CliIo, type ExitCode } from './command';
import { renderError } from './render';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export const inputOptionSpec = {
  scenario: { type: 'string' },
  records: { type: 'string' },
  contract: { type: 'string' },
  control: { type: 'string', multiple: true, default: [] },
  'late-change': { type: 'string', multiple: true, default: [] },
  json: { type: 'boolean', default: false },
  view: { type: 'string', default: 'diagnostic' },
} as const satisfies OptionSpec;

/** Every command takes `--help` (`-h`). */
const helpOptionSpec = { help: { type: 'boolean', short: 'h', default: false } } as const satisfies OptionSpec;

export const audienceSchema = z.enum(['diagnostic', 'user']);

export type ParsedArgs<T extends OptionSpec> = ReturnType<typeof parseArgs<{ options: T; strict: true; allowPositionals: true }>>;

/** The parsed option values a command's body sees: its own options and `--help`. */
export type CommandValues<T extends OptionSpec> = ParsedArgs<T & typeof helpOptionSpec>['values'];

/** What a command makes of its positional arguments: its own value, or the usage error that names the problem. */
export type PositionalRule<P> = (given: readonly string[]) => Result<P, string>;

export const noPositionals: PositionalRule<readonly []> = (given) => (given.length === 0 ? ok([] as const) : err(`unexpected argument ${given[0]}`));

// Read at run time: the parsed values' type cannot be resolved while the command's options are a type parameter.
function asksForHelp(values: object): boolean {
  return 'help' in values && values.help === true;
}

/** A usage error: the problem, then the command's usage, on stderr. */
export function usageError(io: CliIo, usage: string, message: string): ExitCode {
  io.stderr(`${message}\n${usage}\n`);
  return EXIT.invalid;
}

/** An input that cannot be used: the error, which names its file, line and field, on stderr. */
export function inputError(io: CliIo, error: CompileError): ExitCode {
  io.stderr(renderError(error));
  return EXIT.invalid;
}

/**
 * Every command's preamble. Strict parsing: an unknown flag or a missing value is a usage error, never
 * silently ignored. `--help` prints the usage and wins over any other argument; then the positionals must
 * pass the command's rule. `exit` means the command has already answered and returns that code.
 */
export function readCommandLine<T extends OptionSpec, P>(
  args: readonly string[],
  io: CliIo,
  command: { readonly usage: string; readonly options: T; readonly positionals: PositionalRule<P> },
): { ok: true; values: CommandValues<T>; positionals: P } | { ok: false; exit: ExitCode } {
  let parsed: ParsedArgs<T & typeof helpOptionSpec>;
  try {
    parsed = parseArgs({ args: [...args], options: { ...command.options, ...helpOptionSpec }, strict: true, allowPositionals: true });
  } catch (error) {
    return { ok: false, exit: usageError(io, command.usage, error instanceof Error ? error.message : String(error)) };
  }
  if (asksForHelp(parsed.values)) {
    io.stdout(`${command.usage}\n`);
    return { ok: false, exit: EXIT.ok };
  }
  const positionals = command.positionals(parsed.positionals);
  if (!positionals.ok) return { ok: false, exit: usageError(io, command.usage, positionals.error) };
  return { ok: true, values: parsed.values, positionals: positionals.value };
}
