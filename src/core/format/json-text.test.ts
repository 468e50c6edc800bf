import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeText, lineOfPath, MAX_JSON_DEPTH, parseJsonText, quoteValue, stripBom } from './json-text';

describe('parseJsonText', () => {
  it('reads JSON as JSON.parse does, with or without a byte order mark', () => {
    expect(parseJsonText('{"a":1,"b":[true,null,"x:y"]}')).toEqual({
      ok: true,
      value: { a: 1, b: [true, null, 'x:y'] },
    });
    expect(parseJsonText('\uFEFF{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(stripBom('\uFEFF\uFEFFx')).toBe('\uFEFFx');
  });

  it('refuses a key given twice, naming the key, its path and both lines', () => {
    const text = '{\n  "access": {\n    "roles": ["a"],\n    "roles": []\n  }\n}';
    expect(parseJsonText(text)).toEqual({
      ok: false,
      error: { kind: 'duplicate-key', key: 'roles', path: ['access', 'roles'], line: 4, firstLine: 3 },
    });
    expect(parseJsonText('{"tokens":30,"tokens":0}')).toMatchObject({
      ok: false,
      error: { kind: 'duplicate-key', key: 'tokens', path: ['tokens'], line: 1 },
    });
  });

  it('finds duplicates inside arrays and under keys that contain colons or escapes', () => {
    expect(parseJsonText('[{"a":1},{"b:c":"d:e","b:c":2}]')).toMatchObject({
      ok: false,
      error: { key: 'b:c', path: [1, 'b:c'] },
    });
    // The escaped colon makes the cheap count unreliable; the exact scan still sees no duplicate.
    expect(parseJsonText('{"a\\u003ab":"x\\u003Ay","c":1}')).toEqual({ ok: true, value: { 'a:b': 'x:y', c: 1 } });
    expect(parseJsonText('{"k":"\\u003a","k":1}')).toMatchObject({ ok: false, error: { key: 'k' } });
    // Two spellings of one key are one key.
    expect(parseJsonText('{"ab":1,"a\\u0062":2}')).toMatchObject({ ok: false, error: { key: 'ab' } });
    expect(parseJsonText('{"__proto__":1,"__proto__":2}')).toMatchObject({ ok: false, error: { key: '__proto__' } });
  });

  it('agrees with an exact duplicate check on generated JSON', () => {
    const key = fc.constantFrom('a', 'b', 'a:b', ':', 'c\\u003a', '__proto__');
    const leaf = fc.oneof(fc.constantFrom(1, null, true, 'x', 'y:z', ':'), fc.string());
    const tree = fc.letrec<{ node: string }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf.map((value) => JSON.stringify(value)),
        fc.array(tie('node'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
        fc
          .array(fc.tuple(key, tie('node')), { maxLength: 4 })
          .map((members) => `{${members.map(([k, v]) => `"${k}":${v}`).join(',')}}`),
      ),
    })).node;
    fc.assert(
      fc.property(tree, (text) => {
        const result = parseJsonText(text);
        expect(result.ok).toBe(!hasDuplicateKey(text));
      }),
      { numRuns: 2_000, seed: 13 },
    );
  });

  it('gives the line of a syntax error and shows the text around it, escaped', () => {
    const result = parseJsonText('{\n  "a": 1,\n  "b": \u001b[2J }\n}');
    expect(result.ok).toBe(false);
    if (result.ok || result.error.kind !== 'syntax') throw new Error('expected a syntax error');
    expect(result.error.line).toBe(3);
    expect(result.error.excerpt).toContain('\\u001b[2J');
    expect(parseJsonText('{"id":"ADR-1","text":"cut off her')).toMatchObject({
      ok: false,
      error: { kind: 'syntax', line: 1 },
    });
  });

  it(`refuses nesting deeper than ${MAX_JSON_DEPTH} levels without overflowing the stack`, () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    expect(parseJsonText(deep)).toMatchObject({ ok: false, error: { kind: 'too-deep' } });
    const justRight = `${'{"a":'.repeat(MAX_JSON_DEPTH - 1)}1${'}'.repeat(MAX_JSON_DEPTH - 1)}`;
    expect(parseJsonText(justRight).ok).toBe(true);
  });
});

/** An independent check: re-serialise each object and compare its key count with the text's. */
function hasDuplicateKey(text: string): boolean {
  let duplicate = false;
  JSON.parse(text, function (this: unknown, _key, value: unknown) {
    return value;
  });
  // A reviver sees the parsed value only, so count members from the text with a tokenizer instead.
  const stack: Set<string>[] = [];
  const expectKey: boolean[] = [];
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at];
    if (char === '"') {
      let end = at + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const token = JSON.parse(text.slice(at, end + 1)) as string;
      if (expectKey[expectKey.length - 1] && text[end + 1] === ':') {
        const keys = stack[stack.length - 1];
        if (keys?.has(token)) duplicate = true;
        keys?.add(token);
      }
      at = end;
    } else if (char === '{') {
      stack.push(new Set());
      expectKey.push(true);
    } else if (char === '[') {
      stack.push(new Set());
      expectKey.push(false);
    } else if (char === '}' || char === ']') {
      stack.pop();
      expectKey.pop();
    }
  }
  return duplicate;
}

describe('lineOfPath', () => {
  const text = '{\n  "contract": {\n    "task": "x",\n    "scopes": [\n      "a",\n      7\n    ]\n  }\n}';
  it('maps a JSON path to the line of its value', () => {
    expect(lineOfPath(text, ['contract', 'task'])).toBe(3);
    expect(lineOfPath(text, ['contract', 'scopes', 1])).toBe(6);
  });
  it('places a missing field at the object that should hold it', () => {
    expect(lineOfPath(text, ['contract', 'principals'])).toBe(2);
  });
});

describe('escapeText and quoteValue', () => {
  it('escape every control character, including terminal escape sequences', () => {
    expect(escapeText('\u001b]0;owned\u0007\u001b[2J\u009b\u202e')).toBe(
      '\\u001b]0;owned\\u0007\\u001b[2J\\u009b\\u202e',
    );
    expect(escapeText('ADR-0234 ✓')).toBe('ADR-0234 ✓');
  });
  it('repeat a value escaped and shortened', () => {
    expect(quoteValue('2026-02-30')).toBe('"2026-02-30"');
    expect(quoteValue('x'.repeat(1_000))).toMatch(/^"x+… \(1000 characters\)$/);
    expect(quoteValue('\u001b[31m')).toBe('"\\u001b[31m"');
    expect(quoteValue([1, 2])).toBe('an array of 2 items');
    expect(quoteValue(undefined)).toBe('nothing');
  });
});
