import { classHighlighter, highlightCode } from '@lezer/highlight';
import { parser } from '@lezer/json';

/** A run of text and the token classes it is drawn with (`tok-string`, `tok-propertyName`, or none). */
export interface Token {
  readonly text: string;
  readonly className: string;
}

/**
 * JSON text cut into lines of classed tokens, with the same line breaks as the text, so a highlighted copy laid
 * under a textarea lines up with it. The grammar is CodeMirror's; it tolerates broken JSON, so a half-typed
 * document is still drawn.
 */
export function highlightJson(text: string): Token[][] {
  const lines: Token[][] = [[]];
  highlightCode(
    text,
    parser.parse(text),
    classHighlighter,
    (run, className) => (lines[lines.length - 1] as Token[]).push({ text: run, className }),
    () => lines.push([]),
  );
  return lines;
}

/** The text re-indented by two spaces, or null when it is not JSON (the validation says where). */
export function formatJson(text: string): string | null {
  try {
    return `${JSON.stringify(JSON.parse(text), null, 2)}\n`;
  } catch {
    return null;
  }
}
