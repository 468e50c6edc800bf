import {
  parse as parseJsonAst,
  type AnyNode,
  type ElementNode,
  type MemberNode,
  type ValueNode,
} from '@humanwhocodes/momoa';
import { err, ok, type Result } from '../errors';
import { findLoneSurrogate } from '../canonical';

/**
 * JSON text as every format reads it: a UTF-8 byte order mark is dropped, a key given twice in one
 * object is refused (JSON.parse keeps the last one silently), nesting is bounded, and a JSON path can be
 * mapped back to its line. Native JSON.parse does the parsing; the checks cost one walk of its result.
 */

/** Deeper than any format nests (a scenario's patch values are about eight levels down); past it, a file is refused. */
export const MAX_JSON_DEPTH = 64;

/** The longest records line read: far beyond any real record, and well inside what one string may hold. */
export const MAX_LINE_CHARS = 2 ** 27;
/**
 * The largest contract, scenario or receipt read whole (a 100,000-record receipt is tens of MB); records belong in
 * JSONL, which is streamed.
 */
export const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

export type JsonPath = readonly (string | number)[];

export type JsonTextProblem =
  | { readonly kind: 'syntax'; readonly message: string; readonly line?: number; readonly excerpt?: string }
  | {
      readonly kind: 'duplicate-key';
      readonly key: string;
      readonly path: JsonPath;
      readonly line: number;
      readonly firstLine: number;
    }
  | { readonly kind: 'too-deep'; readonly path: JsonPath; readonly line?: number }
  | { readonly kind: 'lone-surrogate'; readonly path: JsonPath; readonly line?: number };

const BOM = '\uFEFF';

export function stripBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(1) : text;
}

/** Parses one JSON document (or one JSONL line); lines are 1-based within `text`. */
export function parseJsonText(input: string): Result<unknown, JsonTextProblem> {
  const text = stripBom(input);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return err(syntaxProblem(text, error));
  }
  const walked = walk(value);
  if (walked.tooDeep) {
    // The first few steps are enough to find the place; the rest would repeat `[0]` sixty times.
    const path = pathToDepth(value, MAX_JSON_DEPTH).slice(0, 8);
    const offset = offsetOfDepth(text, MAX_JSON_DEPTH + 1);
    return err({ kind: 'too-deep', path, line: offset === null ? undefined : lineAt(text, offset) });
  }
  // Every member of every object in the text has one ':' outside strings. JSON.parse keeps one member per
  // distinct key, so fewer keys in the value than such colons means a duplicate. Only a `\u003a` escape
  // can make a colon appear in a parsed string that the text does not show: then the exact scan decides.
  const duplicate =
    walked.keys + walked.colonsInStrings === countColons(text) && !ESCAPED_COLON.test(text)
      ? null
      : findDuplicateKey(text);
  if (duplicate !== null) return err(duplicate);
  // Canonical JSON cannot carry a lone surrogate; one can only come from a \uD8xx-style escape in the text.
  const surrogate = findLoneSurrogate(value, text);
  return surrogate === null
    ? ok(value)
    : err({ kind: 'lone-surrogate', path: surrogate, line: lineOfPath(text, surrogate) });
}

const ESCAPED_COLON = /\\u003a/i;

function countColons(text: string): number {
  let count = 0;
  for (let at = text.indexOf(':'); at !== -1; at = text.indexOf(':', at + 1)) count += 1;
  return count;
}

/**
 * Keys and colons inside strings over the whole value, and whether it nests too deep. Iterative: hostile nesting cannot
 * overflow the stack.
 */
function walk(root: unknown): { keys: number; colonsInStrings: number; tooDeep: boolean } {
  let keys = 0;
  let colonsInStrings = 0;
  const stack: { value: unknown; depth: number }[] = [{ value: root, depth: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value, depth } = item;
    if (typeof value === 'string') {
      if (value.length > 0) colonsInStrings += countColons(value);
    } else if (value !== null && typeof value === 'object') {
      if (depth >= MAX_JSON_DEPTH) return { keys, colonsInStrings, tooDeep: true };
      if (Array.isArray(value)) {
        for (const element of value)
          if (element !== null && typeof element === 'object') stack.push({ value: element, depth: depth + 1 });
          else if (typeof element === 'string') colonsInStrings += countColons(element);
      } else {
        for (const key in value) {
          keys += 1;
          colonsInStrings += countColons(key);
          const member = (value as Record<string, unknown>)[key];
          if (typeof member === 'string') colonsInStrings += countColons(member);
          else if (member !== null && typeof member === 'object') stack.push({ value: member, depth: depth + 1 });
        }
      }
    }
  }
  return { keys, colonsInStrings, tooDeep: false };
}

/** The path to a container at `depth`, for the error message (only run once a value is known to nest that deep). */
function pathToDepth(root: unknown, depth: number): JsonPath {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: root, path: [] }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value, path } = item;
    if (value === null || typeof value !== 'object') continue;
    if (path.length >= depth) return path;
    if (Array.isArray(value)) value.forEach((child, index) => stack.push({ value: child, path: [...path, index] }));
    else for (const [key, child] of Object.entries(value)) stack.push({ value: child, path: [...path, key] });
  }
  return [];
}

/** Where the text first opens its `depth`-th nested bracket, counted outside strings. */
function offsetOfDepth(text: string, depth: number): number | null {
  let level = 0;
  let inString = false;
  for (let at = 0; at < text.length; at += 1) {
    const char = text.charCodeAt(at);
    if (inString) {
      if (char === 0x5c) at += 1;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b || char === 0x5b) {
      level += 1;
      if (level >= depth) return at;
    } else if (char === 0x7d || char === 0x5d) level -= 1;
  }
  return null;
}

function syntaxProblem(text: string, error: unknown): JsonTextProblem {
  const raw = error instanceof Error ? error.message : String(error);
  // V8 says "… in JSON at position 12 (line 1 column 13)", or "Unexpected token 'x', "…text…" is not valid JSON"
  // with the raw text and no position; the excerpt below shows the text, escaped.
  const message = escapeText(
    raw
      .replace(/^JSON\.parse: /, '')
      .replace(/ \(line \d+ column \d+\)$/, '')
      .replace(/^(Unexpected token .*?), "[\s\S]*" is not valid JSON$/, '$1'),
  );
  const position = /at position (\d+)/.exec(message);
  const at = position ? Number(position[1]) : offsetOfSyntaxError(text);
  return at === null
    ? { kind: 'syntax', message }
    : { kind: 'syntax', message, line: lineAt(text, at), excerpt: excerptAround(text, at) };
}

/** Where a second, independent parser trips, when JSON.parse's message gives no position. */
function offsetOfSyntaxError(text: string): number | null {
  try {
    parseJsonAst(text, { mode: 'json' });
  } catch (error) {
    if (error !== null && typeof error === 'object' && 'offset' in error && typeof error.offset === 'number')
      return error.offset;
  }
  return null;
}

/** 1-based line of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  const end = Math.min(offset, text.length);
  for (let at = text.indexOf('\n'); at !== -1 && at < end; at = text.indexOf('\n', at + 1)) line += 1;
  return line;
}

/** A few characters either side of an offset, escaped, so a syntax error shows what it tripped on. */
function excerptAround(text: string, offset: number): string {
  const from = Math.max(0, offset - 20);
  const to = Math.min(text.length, offset + 20);
  return `${from > 0 ? '…' : ''}${escapeText(text.slice(from, to))}${to < text.length ? '…' : ''}`;
}

/** The exact scan: which key repeats, where. Only run when the cheap count says one might. */
function findDuplicateKey(text: string): JsonTextProblem | null {
  const document = parseJsonAst(text, { mode: 'json' });
  const stack: { node: ValueNode; path: JsonPath }[] = [{ node: document.body, path: [] }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { node, path } = item;
    if (node.type === 'Object') {
      const seen = new Map<string, number>();
      for (const member of node.members) {
        const key = member.name.type === 'String' ? member.name.value : member.name.name;
        const line = member.name.loc.start.line;
        const first = seen.get(key);
        if (first !== undefined) return { kind: 'duplicate-key', key, path: [...path, key], line, firstLine: first };
        seen.set(key, line);
      }
      for (let index = node.members.length - 1; index >= 0; index -= 1) {
        const member = node.members[index];
        if (member)
          stack.push({
            node: member.value,
            path: [...path, member.name.type === 'String' ? member.name.value : member.name.name],
          });
      }
    } else if (node.type === 'Array') {
      for (let index = node.elements.length - 1; index >= 0; index -= 1) {
        const element = node.elements[index];
        if (element) stack.push({ node: element.value, path: [...path, index] });
      }
    }
  }
  return null;
}

/** Maps JSON paths of one document to lines; the document is parsed once, on the first question (errors only). */
export interface JsonLocator {
  lineOf(path: readonly PropertyKey[]): number | undefined;
}

export function createJsonLocator(input: string): JsonLocator {
  const text = stripBom(input);
  let root: ValueNode | null | undefined;
  return {
    lineOf(path) {
      if (root === undefined) {
        try {
          root = parseJsonAst(text, { mode: 'json' }).body;
        } catch {
          root = null;
        }
      }
      if (root === null) return undefined;
      return nodeAt(root, path).loc.start.line;
    },
  };
}

/** The deepest node along `path`: a missing field is placed at the object that should hold it. */
function nodeAt(root: ValueNode, path: readonly PropertyKey[]): AnyNode {
  let node: AnyNode = root;
  for (const part of path) {
    if (node.type === 'Object') {
      const member: MemberNode | undefined = node.members.find(
        (candidate) => (candidate.name.type === 'String' ? candidate.name.value : candidate.name.name) === String(part),
      );
      if (!member) return node;
      node = member.value;
    } else if (node.type === 'Array' && typeof part === 'number') {
      const element: ElementNode | undefined = node.elements[part];
      if (!element) return node;
      node = element.value;
    } else {
      return node;
    }
  }
  return node;
}

export function lineOfPath(text: string, path: readonly PropertyKey[]): number | undefined {
  return createJsonLocator(text).lineOf(path);
}

/**
 * Escapes every character a terminal or a reader could be fooled by: C0 and C1 controls, DEL, line and
 * paragraph separators, bidirectional overrides and the byte order mark. Everything else is kept as it is.
 */
export function escapeText(text: string): string {
  return text.replace(UNSAFE_CHARACTERS, (char) => {
    switch (char) {
      case '\n':
        return '\\n';
      case '\r':
        return '\\r';
      case '\t':
        return '\\t';
      default:
        return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
    }
  });
}

// C0 controls, DEL and C1 controls, the Arabic letter mark, LRM/RLM, line/paragraph separators, bidi embeddings,
// overrides and isolates, BOM.
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** A value as an error message repeats it: JSON, escaped, at most `max` characters. */
export function quoteValue(value: unknown, max = 60): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (value !== null && typeof value === 'object') return 'an object';
  const json = escapeText(JSON.stringify(value) ?? String(value));
  return json.length <= max
    ? json
    : `${json.slice(0, max - 1)}…${typeof value === 'string' ? ` (${value.length} characters)` : ''}`;
}
