import { sha256 } from '../../test-support/sha256';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentHashOf } from '../../fingerprints';
import { AS_OF, buildContract, buildRecord, errorOf, unreadableOf } from '../../test-support/builders';
import {
  checkRecord,
  createJsonlRecordReader,
  createRecordSet,
  detectFileKind,
  joinRecordParts,
  MAX_REPORTED_ISSUES,
  parseContractJson,
  parseRecordsJsonl,
  parseScenarioJson,
  validateContract,
  type RecordsPart,
} from './validate';

const line = (overrides: Parameters<typeof buildRecord>[0] = {}) => JSON.stringify(buildRecord(overrides));

describe('records JSONL', () => {
  it('reads valid lines and skips blank ones', () => {
    const result = parseRecordsJsonl(sha256, 'records.jsonl', `${line({ id: 'a' })}\n\n${line({ id: 'b' })}\n`);
    expect(result.ok && result.value.records.map((r) => r.id)).toEqual(['a', 'b']);
    expect(result.ok && result.value.locations.get('b')).toEqual({ file: 'records.jsonl', line: 3 });
  });

  it('refuses unknown fields, naming file, line, path and the field', () => {
    const bad = { ...buildRecord({ id: 'a' }), colour: 'red' };
    const error = unreadableOf(
      parseRecordsJsonl(sha256, 'records.jsonl', `${line({ id: 'z' })}\n${JSON.stringify(bad)}`),
    );
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.issues).toEqual([
      {
        file: 'records.jsonl',
        line: 2,
        path: '(root)',
        code: 'UNKNOWN_FIELDS',
        args: { fields: ['"colour"'] },
        message: 'unknown field "colour": not part of the format',
      },
    ]);
  });

  it('refuses a record without a subject key: an explicit null is required to mean "no single identity"', () => {
    const { subject: _subject, ...withoutSubject } = buildRecord({ id: 'a' });
    const [issue] = unreadableOf(parseRecordsJsonl(sha256, 'r.jsonl', JSON.stringify(withoutSubject))).issues ?? [];
    expect(issue).toMatchObject({ file: 'r.jsonl', line: 1, path: 'subject' });
    expect(parseRecordsJsonl(sha256, 'r.jsonl', JSON.stringify({ ...withoutSubject, subject: null })).ok).toBe(true);
  });

  it('names the nested JSON path and what was expected', () => {
    const bad = { ...buildRecord({ id: 'a' }), access: { roles: 'agent', purposes: ['support'] } };
    const [issue] = unreadableOf(parseRecordsJsonl(sha256, 'r.jsonl', JSON.stringify(bad))).issues ?? [];
    expect(issue).toMatchObject({ file: 'r.jsonl', line: 1, path: 'access.roles' });
    expect(issue?.message).toMatch(/array/);
    const badDate = JSON.stringify({ ...buildRecord({ id: 'a' }), knownAt: '2026-02-30' });
    expect(unreadableOf(parseRecordsJsonl(sha256, 'r.jsonl', badDate)).issues?.[0]).toMatchObject({
      path: 'knownAt',
      message: expect.stringMatching(/real ISO 8601 date/),
    });
  });

  it('gives the line of a JSON syntax error', () => {
    const error = unreadableOf(parseRecordsJsonl(sha256, 'r.jsonl', `${line({ id: 'a' })}\n{"id": "b",\n`));
    expect(error.issues?.[0]).toMatchObject({
      file: 'r.jsonl',
      line: 2,
      path: '(root)',
      message: expect.stringMatching(/^not valid JSON/),
    });
  });

  it('refuses a lone surrogate escape with its line and path, since canonical JSON cannot carry it', () => {
    const bad = line({ id: 'b', title: 'half a pair' }).replace('half a pair', 'half \\ud83d a pair');
    const error = unreadableOf(parseRecordsJsonl(sha256, 'r.jsonl', `${line({ id: 'a' })}\n${bad}`));
    expect(error.issues).toEqual([
      {
        file: 'r.jsonl',
        line: 2,
        path: 'title',
        code: 'LONE_SURROGATE',
        args: {},
        message: expect.stringMatching(/lone UTF-16 surrogate/),
      },
    ]);
    const paired = line({ id: 'b', title: 'whole' }).replace('whole', '\\ud83d\\ude00');
    expect(parseRecordsJsonl(sha256, 'r.jsonl', paired).ok).toBe(true);
  });

  it('names both lines of a duplicate id', () => {
    const error = unreadableOf(
      parseRecordsJsonl(sha256, 'r.jsonl', `${line({ id: 'a' })}\n${line({ id: 'b' })}\n${line({ id: 'a' })}`),
    );
    expect(error.code).toBe('DUPLICATE_ID');
    expect(error.issues).toEqual([
      {
        file: 'r.jsonl',
        line: 3,
        path: 'id',
        code: 'DUPLICATE_ID',
        args: { id: '"a"', first: 'line 1' },
        message: 'duplicate id "a": first defined at line 1',
      },
    ]);
  });

  it('reads lines split across chunks and CRLF endings', () => {
    const text = `${line({ id: 'a' })}\r\n${line({ id: 'b' })}\r\n`;
    const reader = createJsonlRecordReader(sha256, 'r.jsonl');
    for (let i = 0; i < text.length; i += 7) reader.push(text.slice(i, i + 7));
    const result = reader.finish();
    expect(result.ok && result.value.records.map((r) => r.id)).toEqual(['a', 'b']);
  });

  it('gives the same records, lines and issues whatever the chunk size', () => {
    const bad = JSON.stringify({ ...buildRecord({ id: 'c' }), colour: 'red' });
    const text = `${line({ id: 'a' })}\r\n\n${line({ id: 'b', text: 'é😀 ≠' })}\n${bad}\n{"id":\n${line({ id: 'a' })}\n\n${line({ id: 'd' })}`;
    const whole = parseRecordsJsonl(sha256, 'r.jsonl', text);
    expect(unreadableOf(whole).issues?.map((issue) => issue.line)).toEqual([4, 5, 6]);
    const valid = text
      .split('\n')
      .filter((_, index) => index < 3 || index > 5)
      .join('\n');
    const validWhole = parseRecordsJsonl(sha256, 'r.jsonl', valid);
    expect(validWhole.ok && [...validWhole.value.locations.values()].map((location) => location.line)).toEqual([
      1, 3, 5,
    ]);
    for (const size of [1, 2, 3, 5, 64, 257, 1_000, text.length]) {
      for (const [input, expected] of [
        [text, whole],
        [valid, validWhole],
      ] as const) {
        const reader = createJsonlRecordReader(sha256, 'r.jsonl');
        reader.push('');
        for (let offset = 0; offset < input.length; offset += size) reader.push(input.slice(offset, offset + size));
        expect(reader.finish()).toEqual(expected);
      }
    }
  });

  it('reads a last line without a newline', () => {
    const reader = createJsonlRecordReader(sha256, 'r.jsonl');
    reader.push(line({ id: 'a' }));
    expect(reader.count).toBe(0);
    const result = reader.finish();
    expect(result.ok && result.value.records).toHaveLength(1);
  });

  it(`lists at most ${MAX_REPORTED_ISSUES} issues with the total`, () => {
    const error = unreadableOf(
      parseRecordsJsonl(sha256, 'r.jsonl', Array.from({ length: 120 }, () => '{"id": 1}').join('\n')),
    );
    expect(error.issues).toHaveLength(MAX_REPORTED_ISSUES);
    expect(error.message).toMatch(/^r\.jsonl: not a valid records file: \d+ problems \(first 50 shown\)$/);
    expect(Number(/: (\d+) problems/.exec(error.message)?.[1])).toBeGreaterThan(120);
  });
});

describe('records read in parts', () => {
  const partOf = (text: string): RecordsPart => {
    const reader = createJsonlRecordReader(sha256, 'r.jsonl');
    reader.push(text);
    const part = reader.finishPart();
    if (!part.ok) throw new Error(part.error.message);
    return part.value;
  };
  /** The text cut after its `cut`th newline, each side read on its own, then joined. */
  const readInTwo = (text: string, cut: number) => {
    const at = text.split('\n').slice(0, cut).join('\n').length + 1;
    return joinRecordParts('r.jsonl', [partOf(text.slice(0, at)), partOf(text.slice(at))]);
  };

  it('joins to what one pass reads, wherever the file is cut between lines', () => {
    const lineArbitrary = fc.oneof(
      { weight: 4, arbitrary: fc.record({ text: fc.string({ unit: 'grapheme', maxLength: 12 }), crlf: fc.boolean() }) },
      { weight: 1, arbitrary: fc.constant(null) },
    );
    fc.assert(
      fc.property(
        fc.array(lineArbitrary, { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        fc.nat(),
        (lines, bom, cutSeed) => {
          const body = lines
            .map((item, index) =>
              item === null ? '' : `${line({ id: `r${index}`, text: item.text })}${item.crlf ? '\r' : ''}`,
            )
            .join('\n');
          const text = `${bom ? '\uFEFF' : ''}${body}`;
          const whole = parseRecordsJsonl(sha256, 'r.jsonl', text);
          if (!whole.ok) throw new Error(whole.error.message);
          const cut = 1 + (cutSeed % lines.length);
          expect(readInTwo(text, cut)).toEqual(whole.value);
        },
      ),
    );
  });

  it('leaves an id given in two parts to a reader that sees both', () => {
    const lines = (ids: string[]) => ids.map((id) => `${line({ id })}\n`).join('');
    expect(readInTwo(lines(['a', 'b', 'a']), 2)).toBeNull();
    expect(readInTwo(lines(['a', 'b', 'c']), 2)?.locations.get('c')).toEqual({ file: 'r.jsonl', line: 3 });
  });
});

describe('provenance', () => {
  it('is verified only when the content hash matches the text', () => {
    const good = buildRecord({ id: 'a', text: 'hello' });
    const wrong = buildRecord({
      id: 'b',
      text: 'hello',
      provenance: { origin: 'x', contentHash: contentHashOf(sha256, 'hello!') },
    });
    const none = buildRecord({ id: 'c', provenance: null });
    expect([good, wrong, none].map((record) => checkRecord(sha256, record).provenanceVerified)).toEqual([
      true,
      false,
      false,
    ]);
    expect(createRecordSet(sha256, [good, wrong, none]).checked.map((item) => item.provenanceVerified)).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('is checked for every record read from JSONL, in any chunking', () => {
    const wrong = {
      ...buildRecord({ id: 'b', text: 'hello' }),
      provenance: { origin: 'x', contentHash: contentHashOf(sha256, 'hello!') },
    };
    const text = [
      line({ id: 'a' }),
      JSON.stringify(wrong),
      line({ id: 'c', provenance: null }),
      line({ id: 'd', text: 'é😀' }),
    ].join('\n');
    for (const size of [5, text.length]) {
      const reader = createJsonlRecordReader(sha256, 'r.jsonl');
      for (let offset = 0; offset < text.length; offset += size) reader.push(text.slice(offset, offset + size));
      const result = reader.finish();
      expect(result.ok && result.value.checked.map((item) => item.provenanceVerified)).toEqual([
        true,
        false,
        false,
        true,
      ]);
      expect(result.ok && result.value.checked.map((item) => item.fingerprint)).toEqual(
        result.ok ? result.value.records.map((record) => checkRecord(sha256, record).fingerprint) : [],
      );
    }
  });
});

describe('contract JSON', () => {
  it('refuses unknown fields and names the path', () => {
    const error = errorOf(parseContractJson('contract.json', JSON.stringify({ ...buildContract(), extra: 1 })));
    expect(error.issues?.[0]).toMatchObject({
      file: 'contract.json',
      path: '(root)',
      message: expect.stringMatching(/unknown field "extra"/),
    });
    const nested = errorOf(
      parseContractJson(
        'contract.json',
        JSON.stringify({ ...buildContract(), principals: [{ id: 'x', kind: 'robot', roles: ['a'] }] }),
      ),
    );
    expect(nested.issues?.[0]?.path).toBe('principals[0].kind');
  });

  it('refuses a lone surrogate in the text or in an edited value', () => {
    const text = JSON.stringify({ ...buildContract(), task: 'TASK' }).replace('TASK', '\\udc00');
    expect(errorOf(parseContractJson('contract.json', text)).issues?.[0]).toMatchObject({
      file: 'contract.json',
      path: 'task',
      message: expect.stringMatching(/lone UTF-16 surrogate/),
    });
    expect(
      errorOf(validateContract('form', { ...buildContract(), scopes: ['ok', 'x\ud800'] })).issues?.[0],
    ).toMatchObject({ path: 'scopes[1]' });
  });

  it('gives a line for a syntax error', () => {
    const error = errorOf(parseContractJson('contract.json', '{\n  "task": "x",\n  oops\n}'));
    expect(error.issues?.[0]).toMatchObject({ file: 'contract.json', line: 3 });
  });
});

describe('scenario JSON', () => {
  const scenario = (records: unknown) => JSON.stringify({ id: 's', title: 'S', contract: buildContract(), records });

  it('reads inline records and a sibling JSONL file', () => {
    const inline = parseScenarioJson(sha256, 's.json', scenario([buildRecord({ id: 'a' })]), () => null);
    expect(inline.ok && inline.value.recordSet.records.map((r) => r.id)).toEqual(['a']);
    const sibling = parseScenarioJson(sha256, 's.json', scenario('recs.jsonl'), (name) =>
      name === 'recs.jsonl' ? line({ id: 'b' }) : null,
    );
    expect(sibling.ok && sibling.value.recordSet.records.map((r) => r.id)).toEqual(['b']);
  });

  it('says when the named records file was not supplied', () => {
    const error = errorOf(parseScenarioJson(sha256, 's.json', scenario('recs.jsonl'), () => null));
    expect(error.issues?.[0]).toMatchObject({ path: 'records', message: expect.stringMatching(/recs\.jsonl/) });
  });

  it('names both positions of a duplicate inline id', () => {
    const error = errorOf(
      parseScenarioJson(sha256, 's.json', scenario([buildRecord({ id: 'a' }), buildRecord({ id: 'a' })]), () => null),
    );
    expect(error.issues?.[0]).toMatchObject({
      path: 'records[1].id',
      message: 'duplicate id "a": first defined at records[0]',
    });
  });
});

describe('detectFileKind', () => {
  it('tells records, contract, scenario and receipt apart by content', () => {
    expect(detectFileKind(`${line({ id: 'a' })}\n${line({ id: 'b' })}`)).toBe('records');
    expect(detectFileKind(JSON.stringify(buildRecord(), null, 2))).toBe('records');
    expect(detectFileKind(JSON.stringify(buildContract(), null, 2))).toBe('contract');
    expect(detectFileKind(JSON.stringify({ id: 's', contract: buildContract(), records: [] }))).toBe('scenario');
    expect(detectFileKind(JSON.stringify({ receiptId: 'x', asOf: AS_OF }))).toBe('receipt');
  });

  it.each(['', 'hello', '[1,2]', '{"a": 1}', '{ not json', 'null'])('returns null for %j', (text) => {
    expect(detectFileKind(text)).toBeNull();
  });
});
