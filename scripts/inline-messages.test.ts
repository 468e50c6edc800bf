import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Every message is a code and its arguments, worded by the catalogue (src/core/messages*.ts, issues.ts, reasons.ts).
// A sentence written beside it is a string or template literal with words in it (a space: a one-word literal is a tag
// such as `status: 'idle'`) given as a message, reason or fatal line, a usage error, an app notice, status or "opened"
// line, a line on stderr (also behind a condition), a failure value (`err(...)`) or a note pushed for the user.
// Wording from outside the catalogue (zod's, the JSON parser's, a thrown error's) arrives as a value, never a literal,
// so it needs no exception.
const ROOT = join(import.meta.dirname, '..');
const MESSAGE_START = new RegExp(
  [
    String.raw`\b(?:(?:message|reason|fatal|\w*[nN]otice|status|opened)\s*[:=]`,
    String.raw`|(?:usageError|err|notes\.push)\(`,
    String.raw`|\.stderr(?:\.write)?\((?:[^'"\`;]*?\?)?)`,
    String.raw`\s*(['"\`])`,
  ].join(''),
  'g',
);

/** A literal's own text from just after its opening quote: a template's `${…}` parts are code, not its words. */
function literalWords(source: string, from: number, quote: string): string {
  let words = '';
  let depth = 0;
  for (let at = from; at < source.length; at += 1) {
    const char = source[at];
    if (depth > 0) {
      if (char === '{') depth += 1;
      else if (char === '}') depth -= 1;
    } else if (char === '\\') at += 1;
    else if (char === quote) return words;
    else if (quote === '`' && char === '$' && source[at + 1] === '{') {
      depth = 1;
      at += 1;
    } else words += char;
  }
  return words;
}

/** Each literal with words in it given where a message is made, as its lead and its words. */
function inlineMessages(source: string): string[] {
  const found: string[] = [];
  for (const start of source.matchAll(MESSAGE_START)) {
    const words = literalWords(source, start.index + start[0].length, start[1] ?? '');
    if (/\s/.test(words)) found.push(`${start[0].replace(/\s+/g, ' ')}${words}`);
  }
  return found;
}

// A helper's parameter named for a message: a sentence given to it where it is called is a message written inline,
// though no `message:` stands beside the literal.
const MESSAGE_PARAMETER = /^(?:message|reason|fatal|\w*[nN]otice|status)$/;

/** A literal's own words, through parentheses, a condition or a fallback: a template's `${…}` parts are code. */
function wordsGiven(node: ts.Expression): string[] {
  if (ts.isParenthesizedExpression(node)) return wordsGiven(node.expression);
  if (ts.isConditionalExpression(node)) return [...wordsGiven(node.whenTrue), ...wordsGiven(node.whenFalse)];
  if (
    ts.isBinaryExpression(node) &&
    [ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(node.operatorToken.kind)
  )
    return wordsGiven(node.right);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isTemplateExpression(node))
    return [node.head.text + node.templateSpans.map((span) => span.literal.text).join('')];
  return [];
}

/**
 * Each literal with words in it given to a message parameter of a function the file declares, as the call and words.
 */
function messagesPassed(source: string): string[] {
  const tree = ts.createSourceFile('source.tsx', source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const messageAt = new Map<string, number>();
  const declare = (name: ts.Node, parameters: ts.NodeArray<ts.ParameterDeclaration>) => {
    const at = parameters.findIndex((param) => ts.isIdentifier(param.name) && MESSAGE_PARAMETER.test(param.name.text));
    if (ts.isIdentifier(name) && at >= 0) messageAt.set(name.text, at);
  };
  const found: string[] = [];
  const declarations = (node: ts.Node) => {
    if (ts.isFunctionDeclaration(node) && node.name) declare(node.name, node.parameters);
    if (ts.isVariableDeclaration(node) && node.initializer) {
      const value = node.initializer;
      if (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) declare(node.name, value.parameters);
    }
    ts.forEachChild(node, declarations);
  };
  const calls = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      const given = node.arguments[messageAt.get(node.expression.text) ?? -1];
      for (const words of given ? wordsGiven(given) : [])
        if (/\s/.test(words)) found.push(`${node.expression.text}(…${words})`);
    }
    ts.forEachChild(node, calls);
  };
  declarations(tree);
  calls(tree);
  return found;
}

function sourceFiles(): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'src'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file));
}

describe('messages', () => {
  const files = sourceFiles();
  const inline = files.flatMap((file) => {
    const source = readFileSync(join(ROOT, file), 'utf8');
    return [...inlineMessages(source), ...messagesPassed(source)].map((message) => `${file}: ${message}`);
  });

  it('are worded by the catalogue, not written inline', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(inline).toEqual([]);
  });

  it('given to a helper that makes the message are found, through a condition or a fallback', () => {
    const source = [
      'const inForce = async (entry: Entry, history: History, message: string) => ({ ok: true, message });',
      'function undo() {',
      '  return inForce(entry, history, `Undone: back to revision ${history.at}.`);',
      '}',
      'const edited = inForce(entry, history, changeId === null ? `Edited ${id}.` : wordMessage(code, args));',
      "const stopped = inForce(entry, history, event.message || 'the helper could not start');",
      "const tagged = inForce(entry, history, 'idle');",
      "const worded = inForce(entry, history, wordMessage('RECORD_EDIT_UNDONE', { revision: 1 }));",
    ].join('\n');
    expect(messagesPassed(source)).toEqual([
      'inForce(…Undone: back to revision .)',
      'inForce(…Edited .)',
      'inForce(…the helper could not start)',
    ]);
  });
});
