import '../shared/jitless-zod';
import { EXIT, type CliCommand, type CliIo, type ExitCode } from './command';
import { checkCommand } from './commands/check-command';
import { compileCommand } from './commands/compile-command';
import { auditCommand } from './commands/audit-command';
import { conformanceCommand } from './commands/conformance-command';
import { diffCommand } from './commands/diff-command';
import { drillCommand } from './commands/drill-command';
import { evalCommand } from './commands/eval-command';
import { loadCommand } from './commands/load-command';
import { provenanceCommand } from './commands/provenance-command';
import { serveCommand } from './commands/serve-command';
import { testCommand } from './commands/test-command';
import { usageError } from './options';
import { STANDARD_INPUT } from './read-file';
import { terminalSafe } from './terminal';
import { wordMessage, wordsText, type MessageWords } from '../core/messages';
import { ENGINE_VERSION } from '../core/version';

const COMMANDS: readonly CliCommand[] = [
  compileCommand,
  drillCommand,
  diffCommand,
  checkCommand,
  testCommand,
  evalCommand,
  loadCommand,
  auditCommand,
  conformanceCommand,
  provenanceCommand,
  serveCommand,
];

function overview(): string {
  const width = COMMANDS.reduce((widest, command) => Math.max(widest, command.name.length), 0);
  return [
    'usage: context-compiler <command> [options]   (context-compiler help <command> for details)',
    `       context-compiler --version                 (${ENGINE_VERSION})`,
    '',
    ...COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    'exit: 0 done (packet emitted, may continue, every case passed) · 1 invalid input or usage · 2 fail-closed,',
    '      no packet (drill: blocked) · 3 drill: recompile required · 4 test: an expectation does not hold',
    '      · 5 the database could not be reached',
    '',
  ].join('\n');
}

/** What a run that threw says: out of room for a RangeError (a stack or an array too large), otherwise stopped. */
function stoppedWords(error: unknown): MessageWords {
  const reason = error instanceof Error ? `${error.name}: ${firstLine(error.message)}` : firstLine(String(error));
  return error instanceof RangeError
    ? { code: 'CLI_OUT_OF_ROOM', args: { reason } }
    : { code: 'CLI_STOPPED', args: { reason } };
}

const firstLine = (text: string) => text.split('\n', 1)[0] ?? '';

/**
 * Runs one command. Nothing it prints carries a raw control character, and nothing it throws reaches the user as a
 * stack trace.
 */
export async function main(args: readonly string[], rawIo: CliIo): Promise<ExitCode> {
  const io = terminalSafe({ ...rawIo, jsonErrors: args.includes('--json') });
  try {
    return await dispatch(args, io);
  } catch (error) {
    // A bug or an exhausted resource: say what happened in one line (the error's name and first words, never its
    // stack) and exit as for unusable input.
    const words = stoppedWords(error);
    const message = wordsText(words);
    if (io.jsonErrors === true)
      io.stdout(`${JSON.stringify({ error: { code: 'INTERNAL', message, words } }, null, 2)}\n`);
    else io.stderr(`${wordMessage('ERROR_LINE', { problem: message })}\n`);
    return EXIT.invalid;
  }
}

async function dispatch(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const [name, ...rest] = args;
  if (name === '--version' || name === '-V') {
    io.stdout(`${ENGINE_VERSION}\n`);
    return EXIT.ok;
  }
  if (name === 'help' && rest.length > 0) {
    const command = COMMANDS.find((candidate) => candidate.name === rest[0]);
    if (!command)
      return usageError(io, overview().trimEnd(), { code: 'UNKNOWN_COMMAND', args: { command: rest[0] ?? '' } });
    return command.run(['--help'], io);
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(overview());
    return name === undefined ? EXIT.invalid : EXIT.ok;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (rest.filter((arg) => arg === STANDARD_INPUT).length > 1)
    return usageError(io, command?.usage ?? overview().trimEnd(), { code: 'STANDARD_INPUT_ONCE', args: {} });
  if (!command) return usageError(io, overview().trimEnd(), { code: 'UNKNOWN_COMMAND', args: { command: name } });
  return command.run(rest, io);
}
