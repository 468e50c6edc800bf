import { styleText } from 'node:util';
import { wordMessage } from '../core/messages';
import { colourHeadlines } from './colour';
import { capHeapGrowth } from './heap';
import { main } from './main';
import { escapeForTerminal } from './terminal';

/**
 * The process around `main`: the only place that touches process.argv, the streams and the exit code.
 * Bundled to dist-cli/context-compiler.mjs at build time (scripts/build-cli.mjs), which the bin runs.
 */
capHeapGrowth(process.argv[2]);

for (const stream of [process.stdout, process.stderr]) {
  // Piped into `head` or a closed pager: stop quietly instead of throwing EPIPE with a stack trace.
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    const problem = wordMessage('CANNOT_WRITE_OUTPUT', { reason: error.code ?? error.message });
    process.stderr.write(`${wordMessage('ERROR_LINE', { problem })}\n`);
    process.exit(1);
  });
}

const untilStopped = () =>
  new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });

const columns = () => Math.max(20, (process.stderr.columns ?? 80) - 1);
const progress = process.stderr.isTTY
  ? (text: string | null) =>
      process.stderr.write(text === null ? '\r\x1b[2K' : `\r\x1b[2K${escapeForTerminal(text).slice(0, columns())}`)
  : undefined;

// Colour only on a terminal that has colours (hasColors reads NO_COLOR, FORCE_COLOR and TERM): a pipe or a file gets
// plain text.
const colourful = process.stdout.isTTY === true && process.stdout.hasColors();
const styleStdout = (format: Parameters<typeof styleText>[0], text: string) =>
  colourful ? styleText(format, text, { validateStream: false }) : text;

process.exitCode = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(colourHeadlines(text, styleStdout)),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
  untilStopped,
  progress,
});
