import type { styleText } from 'node:util';

type Style = (format: Parameters<typeof styleText>[0], text: string) => string;

/** The headlines a reader scans for, each in the colour of its meaning; everything else stays plain. */
const HEADLINES: readonly (readonly [RegExp, Parameters<typeof styleText>[0]])[] = [
  [/^PACKET EMITTED\b/, ['bold', 'green']],
  [/^FAIL-CLOSED\b/, ['bold', 'red']],
  [/^CURRENT — MAY CONTINUE\b/, ['bold', 'green']],
  [/^STALE — RECOMPILE REQUIRED\b/, ['bold', 'yellow']],
  [/^BLOCKED\b/, ['bold', 'red']],
  [/^DECISION BLOCKED\b/, ['bold', 'yellow']],
  [/^FAIL\b/, 'red'],
  [/^ok {2}/, 'green'],
  [/^skip\b/, 'dim'],
  [/^ERROR\b/, ['bold', 'red']],
];

/**
 * Colours the headline words at the start of each line of what the CLI prints. It runs on text already made
 * safe for the terminal, so a record's own text can never bring an escape sequence of its own; `style` is
 * node:util's styleText bound to the stream, which leaves the text plain where the stream is no terminal or
 * NO_COLOR is set.
 */
export function colourHeadlines(text: string, style: Style): string {
  return text
    .split('\n')
    .map((line) => {
      for (const [pattern, format] of HEADLINES) {
        const found = pattern.exec(line);
        if (found) return `${style(format, found[0])}${line.slice(found[0].length)}`;
      }
      return line;
    })
    .join('\n');
}
