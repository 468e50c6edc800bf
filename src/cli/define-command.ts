import type { CliCommand, CliIo, ExitCode } from './command';
import type { MessageArgList, MessageCode, MessageWords } from '../core/messages';
import { readCommandLine, usageError, type CommandValues, type OptionSpec, type PositionalRule } from './options';

/** What the shared preamble hands a command's body once its command line has been read. */
export interface CommandLine<Values, Positionals> {
  readonly values: Values;
  readonly positionals: Positionals;
  /** Refuses the command line: the problem, then this command's usage, on stderr; the usage exit code. */
  readonly usageError: <C extends MessageCode>(code: C, ...args: MessageArgList<C>) => ExitCode;
}

/** A command as it declares itself: its options, positional rule, usage and help text, and its body. */
export interface CommandDefinition<T extends OptionSpec, P> {
  readonly name: string;
  /** One line for `--help`. */
  readonly summary: string;
  /** The usage block printed by `<command> --help` and after a usage error. */
  readonly usage: string;
  readonly options: T;
  readonly positionals: PositionalRule<P>;
  run(line: CommandLine<CommandValues<T>, P>, io: CliIo): Promise<ExitCode>;
}

/**
 * Every command's preamble in one place: the body runs only on a command line `readCommandLine` accepted;
 * `--help`, unknown flags, missing values and refused positionals are answered here, the same for all.
 */
export function defineCommand<T extends OptionSpec, P>(definition: CommandDefinition<T, P>): CliCommand {
  const { name, summary, usage } = definition;
  return {
    name,
    summary,
    usage,
    async run(args, io) {
      const line = readCommandLine(args, io, definition);
      if (!line.ok) return line.exit;
      return definition.run(
        {
          values: line.values,
          positionals: line.positionals,
          usageError: (code, ...args) => usageError(io, usage, { code, args: args[0] ?? {} } as MessageWords),
        },
        io,
      );
    },
  };
}
