import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, findLoneSurrogate, hasLoneSurrogate } from './canonical';
import { receiptSchema } from './format/receipt';
import { propertyParameters } from './test-support/arbitraries';

/** The IEEE 754 double with these bits. */
function fromBits(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

describe('canonicalJson against RFC 8785 (JCS)', () => {
  it('writes the example of section 3.2.2 (ECMAScript numbers, minimal string escapes, sorted keys)', () => {
    const input = `{
      "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\"\\/",
      "literals": [null, true, false]
    }`;
    expect(canonicalJson(JSON.parse(input))).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('sorts the keys of section 3.2.3 by UTF-16 code units, so an astral character sorts before U+FB33', () => {
    const input = `{
      "\\u20ac": "Euro Sign",
      "\\r": "Carriage Return",
      "\\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\\ud83d\\ude00": "Emoji: Grinning Face",
      "\\u0080": "Control",
      "\\u00f6": "Latin Small Letter O With Diaeresis"
    }`;
    // Read back, "1" would be enumerated first (an array index), so the order is checked on the text itself.
    expect(canonicalJson(JSON.parse(input))).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","ö":"Latin Small Letter O With Diaeresis","€":"Euro Sign","😀":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it('writes every number of appendix B as ECMAScript prints it', () => {
    const samples: readonly (readonly [string, string])[] = [
      ['0000000000000000', '0'],
      ['8000000000000000', '0'],
      ['0000000000000001', '5e-324'],
      ['8000000000000001', '-5e-324'],
      ['7fefffffffffffff', '1.7976931348623157e+308'],
      ['ffefffffffffffff', '-1.7976931348623157e+308'],
      ['4340000000000000', '9007199254740992'],
      ['c340000000000000', '-9007199254740992'],
      ['4430000000000000', '295147905179352830000'],
      ['44b52d02c7e14af5', '9.999999999999997e+22'],
      ['44b52d02c7e14af6', '1e+23'],
      ['44b52d02c7e14af7', '1.0000000000000001e+23'],
      ['444b1ae4d6e2ef4e', '999999999999999700000'],
      ['444b1ae4d6e2ef4f', '999999999999999900000'],
      ['444b1ae4d6e2ef50', '1e+21'],
      ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
      ['3eb0c6f7a0b5ed8d', '0.000001'],
      ['41b3de4355555553', '333333333.3333332'],
      ['41b3de4355555554', '333333333.33333325'],
      ['41b3de4355555555', '333333333.3333333'],
      ['41b3de4355555556', '333333333.3333334'],
      ['41b3de4355555557', '333333333.33333343'],
      ['becbf647612f3696', '-0.0000033333333333333333'],
      ['43143ff3c1cb0959', '1424953923781206.2'],
    ];
    for (const [bits, expected] of samples) expect(canonicalJson(fromBits(bits)), bits).toBe(expected);
  });

  it('refuses what appendix B marks as errors: NaN and the infinities', () => {
    for (const bits of ['7fffffffffffffff', '7ff0000000000000', 'fff0000000000000'])
      expect(() => canonicalJson({ n: fromBits(bits) })).toThrow(TypeError);
  });

  it('escapes only what section 3.2.2.2 names: the quote, the backslash and U+0000 to U+001F (short forms where JSON has them, else lowercase \\u00hh)', () => {
    let controls = '';
    for (let code = 0; code < 0x20; code += 1) controls += String.fromCharCode(code);
    expect(canonicalJson(controls)).toBe(
      '"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000b\\f\\r\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f"',
    );
    // DEL, the line and paragraph separators, a slash and markup are written as they are.
    expect(canonicalJson('\u007f\u2028\u2029/</script>"\\')).toBe('"\u007f\u2028\u2029/</script>\\"\\\\"');
    expect(
      canonicalJson({
        '\u20ac': 'Euro Sign',
        1: 'One',
        '\u0080': 'Control\u007f',
        '\ud83d\ude02': 'Smiley',
        '</script>': 'Browser Challenge',
      }),
    ).toBe('{"1":"One","</script>":"Browser Challenge","\u0080":"Control\u007f","€":"Euro Sign","😂":"Smiley"}');
  });

  it('refuses a lone surrogate anywhere (I-JSON), in a value or a key, and keeps a proper pair', () => {
    for (const bad of ['\ud800', 'a\udc00b', '\ude00\ud83d', 'x\udbff']) {
      expect(hasLoneSurrogate(bad)).toBe(true);
      expect(() => canonicalJson(bad)).toThrow(/lone surrogate/);
      expect(() => canonicalJson({ [bad]: 1 })).toThrow(/lone surrogate/);
      expect(() => canonicalJson([{ a: [bad] }])).toThrow(/lone surrogate/);
    }
    expect(canonicalJson('\ud83d\ude00\udbff\udfff')).toBe('"😀\udbff\udfff"');
    // A backslash followed by "ud800" is six ordinary characters, not a surrogate.
    expect(canonicalJson({ path: '\\ud800' })).toBe('{"path":"\\\\ud800"}');
  });

  it('carries integers beyond 2^53 only as strings: a bigint is refused, the string is kept digit for digit', () => {
    expect(() => canonicalJson({ big: 9007199254740993n })).toThrow(/bigint/);
    expect(canonicalJson({ big: '9007199254740993' })).toBe('{"big":"9007199254740993"}');
    // JSON.parse has already rounded such an integer; the receipt format refuses every unsafe integer it reads.
    const receipt = { tokensUsed: 9007199254740992 };
    expect(receiptSchema.shape.tokensUsed.safeParse(receipt.tokensUsed).success).toBe(false);
    expect(receiptSchema.shape.tokensUsed.safeParse(9007199254740991).success).toBe(true);
  });

  it('orders keys that look like array indices as strings, not numbers', () => {
    expect(canonicalJson({ 9: 'a', 10: 'b', 1: 'c', b: 1, B: 2, '': 3 })).toBe(
      '{"":3,"1":"c","10":"b","9":"a","B":2,"b":1}',
    );
  });

  it('drops undefined members and writes undefined array items as null, as JSON.stringify does', () => {
    expect(canonicalJson({ a: undefined, b: [undefined, 1], c: {} })).toBe('{"b":[null,1],"c":{}}');
  });

  it('refuses values JSON has no form for', () => {
    expect(() => canonicalJson({ f: () => 1 })).toThrow(TypeError);
    expect(() => canonicalJson(Symbol('s'))).toThrow(TypeError);
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
  });

  it('equals JSON.stringify of the value with its keys re-inserted in code-unit order, for any JSON value', () => {
    const sortDeep = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(sortDeep);
      if (value === null || typeof value !== 'object') return value;
      // Without a prototype, a "__proto__" key (fast-check generates one now and then) is an own key here too.
      const sorted = Object.create(null) as Record<string, unknown>;
      for (const key of Object.keys(value).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
        sorted[key] = sortDeep((value as Record<string, unknown>)[key]);
      return sorted;
    };
    // Integer-like keys are enumerated first whatever the insertion order, so the oracle is only exact without them.
    const key = fc.string({ unit: 'grapheme-composite' }).filter((text) => !/^(0|[1-9]\d*)$/.test(text));
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.string({ unit: 'grapheme-composite' }),
        tie('array'),
        tie('object'),
      ),
      array: fc.array(tie('value'), { maxLength: 5 }),
      object: fc.dictionary(key, tie('value'), { maxKeys: 5 }),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        const canonical = canonicalJson(value);
        expect(canonical).toBe(JSON.stringify(sortDeep(value)));
        expect(canonicalJson(JSON.parse(canonical))).toBe(canonical);
      }),
      propertyParameters(500),
    );
  });

  it('writes a "__proto__" key like any other', () => {
    const value = JSON.parse('{"b":1,"__proto__":{"x":[2]},"a":null}') as unknown;
    expect(canonicalJson(value)).toBe('{"__proto__":{"x":[2]},"a":null,"b":1}');
  });

  it('agrees with a plain recursive writer when keys look like array indices', () => {
    const reference = (value: unknown): string => {
      if (value === null || typeof value !== 'object') return JSON.stringify(value);
      if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
      const keys = Object.keys(value).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${keys.map((key) => `${JSON.stringify(key)}:${reference((value as Record<string, unknown>)[key])}`).join(',')}}`;
    };
    const key = fc.oneof(fc.nat({ max: 30 }).map(String), fc.constantFrom('a', 'B', '01', '-1', '1.5', ''));
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.integer(),
        fc.string(),
        tie('array'),
        tie('object'),
      ),
      array: fc.array(tie('value'), { maxLength: 4 }),
      object: fc.dictionary(key, tie('value'), { maxKeys: 6 }),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        expect(canonicalJson(value)).toBe(reference(value));
      }),
      propertyParameters(300),
    );
  });
});

describe('findLoneSurrogate', () => {
  it('names the path of the first string or key holding one', () => {
    expect(findLoneSurrogate({ a: ['ok', { b: 'x\ud800' }] })).toEqual(['a', 1, 'b']);
    expect(findLoneSurrogate({ ok: { 'k\udc00': 1 } })).toEqual(['ok', 'k\udc00']);
    expect(findLoneSurrogate({ a: '😀', b: ['\u00e9'] })).toBeNull();
  });

  it('skips the walk when the source text has no surrogate escape, and finds one that an escape made', () => {
    const text = '{"text":"a\\ud800b"}';
    expect(findLoneSurrogate(JSON.parse(text), text)).toEqual(['text']);
    expect(findLoneSurrogate(JSON.parse('{"text":"\\ud83d\\ude00"}'), '{"text":"\\ud83d\\ude00"}')).toBeNull();
    // Without an escape in the text the value is not read at all.
    expect(findLoneSurrogate({ text: '\ud800' }, '{"text":"plain"}')).toBeNull();
  });
});
