import { describe, expect, it } from 'vitest';
import { formatJson, highlightJson } from './json-highlight';

describe('highlightJson', () => {
  it('keeps every character and every line break, so the drawing lines up with the text', () => {
    const text = '{\n  "task": "Review",\n  "tokenBudget": 400,\n  "denyLabels": [true, null]\n}\n';
    const lines = highlightJson(text);
    expect(lines.map((line) => line.map((token) => token.text).join('')).join('\n')).toBe(text);
    expect(lines).toHaveLength(text.split('\n').length);
  });

  it('tells names from values', () => {
    const [, line] = highlightJson('{\n  "task": "Review",\n}');
    expect(line?.find((token) => token.text === '"task"')?.className).toBe('tok-propertyName');
    expect(line?.find((token) => token.text === '"Review"')?.className).toBe('tok-string');
  });

  it('draws broken JSON too, without losing text', () => {
    const text = '{ "task": "Rev';
    expect(
      highlightJson(text)
        .flat()
        .map((token) => token.text)
        .join(''),
    ).toBe(text);
  });
});

describe('formatJson', () => {
  it('indents by two spaces and ends with a newline', () => {
    expect(formatJson('{"a":[1,2]}')).toBe('{\n  "a": [\n    1,\n    2\n  ]\n}\n');
  });

  it('gives nothing for text that is not JSON', () => {
    expect(formatJson('{"a":')).toBeNull();
  });
});
