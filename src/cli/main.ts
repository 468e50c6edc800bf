import '../shared/jitless-zod';
import { EXIT, type CliCommand, type CliIo, type ExitCode } from './command';
import { checkCommand } from './commands/check';
import { compileCommand } from './commands/compile';
import { conformanceCommand } from './commands/conformance';
import { diffCommand } from './commands/diff';
import { drillCommand } from './commands/drill';
import { evalCommand } from './commands/eval';
import { loadCommand } from './commands/load';
import { provenanceCommand } from './commands/provenance';
import { testCommand } from './commands/test';
import { terminalSafe } from './terminal';

const COMMANDS: readonly CliCommand[] = [compileCommand, drillCommand, diffCommand, checkCommand, testCommand, evalCommand, loadCommand, conformanceCommand, provenanceCommand];

function overview(): string {
  const width = COMMANDS.reduce((widest, command) => Math.max(widest, command.name.length), 0);
  return [
    'usage: context-compiler <command> [options]   (context-compiler <command> --help for details)',
    '',
    ...COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
  ].join('\n');
}

/** Runs one command. Nothing it prints carries a raw control character, and nothing it throws reaches the user as a stack trace. */
export async function main(args: readonly string[], rawIo: CliIo): Promise<ExitCode> {
  const io = terminalSafe(rawIo);
  try {
    return await dispatch(args, io);
  } catch (error) {
    // A bug or an exhausted resource: say what happened in one line and exit as for unusable input.
    const what = error instanceof RangeError ? 'ran out of room (an input may be too large or too deeply nested)' : 'stopped unexpectedly';
    io.stderr(`error: context-compiler ${what}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}\n`);
    return EXIT.invalid;
  }
}

async function dispatch(args: readonly string[], io: CliIo): Promise<ExitCode> {
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
