import { parseArgs, type ParseArgsConfig } from 'node:util';
import { z } from 'zod';
import { err, ok, type CompileError, type Result } from '../core/errors';
import { reasonOf, wordsText, type MessageWords } from '../core/messages';
import { ATTESTATIONS } from '../core/result';
import { nearestNames } from '../core/suggest';
import { EXIT, type CliIo, type ExitCode } from './command';
import { reportError } from './render';

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

export const attestationSchema = z.enum(ATTESTATIONS);

export type ParsedArgs<T extends OptionSpec> = ReturnType<
  typeof parseArgs<{ options: T; strict: true; allowPositionals: true }>
>;

/** The parsed option values a command's body sees: its own options and `--help`. */
export type CommandValues<T extends OptionSpec> = ParsedArgs<T & typeof helpOptionSpec>['values'];

/** What a command makes of its positional arguments: its own value, or the usage error that names the problem. */
export type PositionalRule<P> = (given: readonly string[]) => Result<P, MessageWords>;

export const noPositionals: PositionalRule<readonly []> = (given) =>
  given.length === 0 ? ok([] as const) : err({ code: 'UNEXPECTED_ARGUMENT', args: { argument: given[0] ?? '' } });

// Read at run time: the parsed values' type cannot be resolved while the command's options are a type parameter.
function asksForHelp(values: object): boolean {
  return 'help' in values && values.help === true;
}

/**
 * A usage error: the problem, then the command's usage, on stderr; with `--json`, the problem as a JSON error on
 * stdout, with the catalogue's code and arguments it words.
 */
export function usageError(io: CliIo, usage: string, words: MessageWords): ExitCode {
  const message = wordsText(words);
  if (io.jsonErrors === true) io.stdout(`${JSON.stringify({ error: { code: 'USAGE', message, words } }, null, 2)}\n`);
  else io.stderr(`${message}\n${usage}\n`);
  return EXIT.invalid;
}

/** An input that cannot be used: the error, which names its file, line and field, on stderr. */
export function inputError(io: CliIo, error: CompileError): ExitCode {
  reportError(io, error);
  return EXIT.invalid;
}

/**
 * What a refused command line is told. An unknown option is named with the nearest option the command has;
 * Node's own sentence would advise quoting it as a positional argument, which no command takes.
 */
function parseProblem(command: string, names: readonly string[], error: unknown): MessageWords {
  const reason = reasonOf(error);
  const unknown = /^Unknown option '(-{1,2}[^']+)'/.exec(reason)?.[1];
  if (unknown === undefined) return { code: 'COMMAND_LINE_REFUSED', args: { reason } };
  const nearest = nearestNames(unknown.replace(/^-+/, ''), names).map((name) => `--${name}`);
  return { code: 'UNKNOWN_OPTION_FOR', args: { option: unknown, command, nearest } };
}

/**
 * Every command's preamble. Strict parsing: an unknown flag or a missing value is a usage error, never
 * silently ignored. `--help` prints the usage and wins over any other argument; then the positionals must
 * pass the command's rule. `exit` means the command has already answered and returns that code.
 */
export function readCommandLine<T extends OptionSpec, P>(
  args: readonly string[],
  io: CliIo,
  command: {
    readonly name: string;
    readonly usage: string;
    readonly options: T;
    readonly positionals: PositionalRule<P>;
  },
): { ok: true; values: CommandValues<T>; positionals: P } | { ok: false; exit: ExitCode } {
  let parsed: ParsedArgs<T & typeof helpOptionSpec>;
  const options = { ...command.options, ...helpOptionSpec };
  try {
    parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals: true });
  } catch (error) {
    return { ok: false, exit: usageError(io, command.usage, parseProblem(command.name, Object.keys(options), error)) };
  }
  if (asksForHelp(parsed.values)) {
    io.stdout(`${command.usage}\n`);
    return { ok: false, exit: EXIT.ok };
  }
  const positionals = command.positionals(parsed.positionals);
  if (!positionals.ok) return { ok: false, exit: usageError(io, command.usage, positionals.error) };
  return { ok: true, values: parsed.values, positionals: positionals.value };
}
