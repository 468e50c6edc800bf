import { describe, expect, it } from 'vitest';
import { colourHeadlines } from './colour';

const bracket = (format: string | readonly string[], text: string) => `<${[format].flat().join('+')}>${text}</>`;

describe('colourHeadlines', () => {
  it('colours only the headline word at the start of a line', () => {
    expect(
      colourHeadlines(
        'PACKET EMITTED: 4 records\nFAIL-CLOSED mentioned later\nFAIL workshop › case\nok   workshop › other\n',
        bracket,
      ),
    ).toBe(
      '<bold+green>PACKET EMITTED</>: 4 records\nFAIL-CLOSED mentioned later\n<red>FAIL</> workshop › case\n<green>ok  </> workshop › other\n'.replace(
        'FAIL-CLOSED mentioned',
        '<bold+red>FAIL-CLOSED</> mentioned',
      ),
    );
  });

  it("leaves a headline word inside a line, and a record's text, as it is", () => {
    expect(colourHeadlines('  id ADR-1 says PACKET EMITTED\n  STALE elsewhere', bracket)).toBe(
      '  id ADR-1 says PACKET EMITTED\n  STALE elsewhere',
    );
  });
});
