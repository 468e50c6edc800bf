import { describe, expect, it } from 'vitest';
import { copyLine } from './copy-rows';

describe('copyLine', () => {
  it("escapes the four characters COPY's text format reads as delimiters, and nothing else", () => {
    expect(copyLine(['a\\b', 'c\nd', 'e\rf', 'g\th', 'plain "quoted" text', 7, true, null])).toBe(
      'a\\\\b\tc\\nd\te\\rf\tg\\th\tplain "quoted" text\t7\ttrue\t\\N\n',
    );
  });

  it('escapes every occurrence, value after value, with no state left from the value before', () => {
    const special = '\t\\\n\r\t';
    const escaped = '\\t\\\\\\n\\r\\t';
    expect(copyLine([special, special, 'x', special])).toBe(`${escaped}\t${escaped}\tx\t${escaped}\n`);
    expect(copyLine([special])).toBe(`${escaped}\n`);
  });
});
