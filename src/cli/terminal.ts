import { escapeText } from '../core/format/json-text';
import type { CliIo } from './command';

/**
 * Escapes every control character in what the CLI prints, except the newlines that lay it out: ids, field
 * names and record text are the input's, and an escape sequence in them could retitle the window, clear the
 * screen or forge a line. JSON output keeps its meaning: these characters can only occur inside its strings.
 */
export function escapeForTerminal(text: string): string {
  return text.includes('\n') ? text.split('\n').map(escapeText).join('\n') : escapeText(text);
}

export function terminalSafe(io: CliIo): CliIo {
  return {
    ...io,
    stdout: (text) => io.stdout(escapeForTerminal(text)),
    stderr: (text) => io.stderr(escapeForTerminal(text)),
  };
}
