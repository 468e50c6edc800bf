import '../shared/jitless-zod';
import { EXIT, type CliCommand, type CliIo, type ExitCode } from './command';
import { checkCommand } from './commands/check';
import { compileCommand } from './commands/compile';
import { diffCommand } from './commands/diff';
import { drillCommand } from './commands/drill';
import { evalCommand } from './commands/eval';

const COMMANDS: readonly CliCommand[] = [compileCommand, drillCommand, diffCommand, checkCommand, evalCommand];

function overview(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  return [
    'usage: context-compiler <command> [options]   (context-compiler <command> --help for details)',
    '',
    ...COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
  ].join('\n');
}

export async function main(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const [name, ...rest] = args;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(overview());
    return name === undefined ? EXIT.invalid : EXIT.ok;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    io.stderr(`unknown command "${name}"\n${overview()}`);
    return EXIT.invalid;
  }
  return command.run(rest, io);
}
