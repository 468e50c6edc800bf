import { sha256 } from '../../test-support/sha256';
import { describe, expect, it } from 'vitest';
import { buildContract, buildRecord, errorOf, unreadableOf } from '../../test-support/builders';
import { MAX_LINE_CHARS } from '../../format/json-text';
import { createJsonlRecordReader, parseContractJson, parseRecordsJsonl, parseScenarioJson } from './validate';

/** Hostile and unlucky input: byte order marks, duplicate keys, the bad value repeated, lines for JSON documents. */
const line = (overrides: Parameters<typeof buildRecord>[0] = {}) => JSON.stringify(buildRecord(overrides));
const BOM = '\uFEFF';
const noSibling = () => null;

describe('a UTF-8 byte order mark', () => {
  it('is accepted at the start of a records file, however the text is cut into chunks', () => {
    const text = `${BOM}${line({ id: 'a' })}\n${line({ id: 'b' })}\n`;
    for (const size of [1, 2, 7, text.length]) {
      const reader = createJsonlRecordReader(sha256, 'r.jsonl');
      for (let offset = 0; offset < text.length; offset += size) reader.push(text.slice(offset, offset + size));
      const result = reader.finish();
      expect(result.ok && result.value.records.map((record) => record.id)).toEqual(['a', 'b']);
    }
  });

  it('is accepted at the start of a contract and a scenario', () => {
    expect(parseContractJson('c.json', `${BOM}${JSON.stringify(buildContract())}`).ok).toBe(true);
    const scenario = { id: 's', title: 'S', contract: buildContract(), records: [buildRecord({ id: 'a' })] };
    expect(parseScenarioJson(sha256, 's.json', `${BOM}${JSON.stringify(scenario, null, 2)}`, noSibling).ok).toBe(true);
  });
});

describe('duplicate keys', () => {
  it('are refused in a records line, naming the key, the line and the path', () => {
    const twice = line({ id: 'b', tokens: 30 }).replace('"tokens":30', '"tokens":30,"tokens":0');
    const error = unreadableOf(parseRecordsJsonl(sha256, 'r.jsonl', `${line({ id: 'a' })}\n${twice}`));
    expect(error.issues).toEqual([
      {
        file: 'r.jsonl',
        line: 2,
        path: 'tokens',
        code: 'DUPLICATE_KEY',
        args: { key: '"tokens"', firstLine: null },
        message: 'duplicate key "tokens"; a key may appear once per object',
      },
    ]);
  });

  it('are refused when nested, with the JSON path', () => {
    const nested = line({ id: 'a' }).replace('"labels":[]', '"labels":[],"labels":["hr"]');
    expect(unreadableOf(parseRecordsJsonl(sha256, 'r.jsonl', nested)).issues?.[0]).toMatchObject({
      line: 1,
      path: 'access.labels',
    });
  });

  it('are refused in a contract and a scenario, with the line of the second key', () => {
    const contract = JSON.stringify(buildContract({ tokenBudget: 100 }), null, 2).replace(
      '"tokenBudget": 100',
      '"tokenBudget": 100,\n  "tokenBudget": 999999',
    );
    const error = errorOf(parseContractJson('c.json', contract));
    const expectedLine = contract.split('\n').findIndex((text) => text.includes('999999')) + 1;
    expect(error.issues).toEqual([
      {
        file: 'c.json',
        line: expectedLine,
        path: 'tokenBudget',
        code: 'DUPLICATE_KEY',
        args: { key: '"tokenBudget"', firstLine: expectedLine - 1 },
        message: `duplicate key "tokenBudget": first given at line ${expectedLine - 1}; a key may appear once per object`,
      },
    ]);
    const scenario = JSON.stringify({
      id: 's',
      title: 'S',
      contract: buildContract(),
      records: [buildRecord({ id: 'a' })],
    }).replace('"title":"S"', '"title":"S","title":"T"');
    expect(errorOf(parseScenarioJson(sha256, 's.json', scenario, noSibling)).issues?.[0]).toMatchObject({
      line: 1,
      path: 'title',
      message: expect.stringMatching(/^duplicate key "title"/),
    });
  });
});

describe('messages repeat the bad value and JSON documents give lines', () => {
  it('repeats a bad value, escaped and shortened', () => {
    const bad = JSON.stringify({ ...buildRecord({ id: 'a' }), knownAt: '2026-02-30' });
    expect(unreadableOf(parseRecordsJsonl(sha256, 'r.jsonl', bad)).issues?.[0]?.message).toMatch(
      /\(got "2026-02-30"\)$/,
    );
    const hostile = JSON.stringify({
      ...buildRecord({ id: 'a' }),
      lifecycle: `\u001b]0;owned\u0007${'x'.repeat(500)}`,
    });
    const message = unreadableOf(parseRecordsJsonl(sha256, 'r.jsonl', hostile)).issues?.[0]?.message ?? '';
    expect(message).toContain('\\u001b]0;owned\\u0007');
    expect(message).not.toMatch(/[\u0000-\u001f]/);
    expect(message.length).toBeLessThan(300);
  });

  it('says a required field is missing, at the line of the object that lacks it', () => {
    const { task: _task, ...rest } = buildContract();
    const text = JSON.stringify(rest, null, 2);
    const error = errorOf(parseContractJson('c.json', text));
    expect(error.message).toBe('c.json: not a valid contract: 1 problem');
    expect(error.issues).toEqual([
      {
        file: 'c.json',
        line: 1,
        path: 'task',
        code: 'FIELD_MISSING',
        args: { expected: 'string' },
        message: 'required field missing (expected string)',
      },
    ]);
  });

  it('gives the line of a field deep in a scenario, and of an unknown field', () => {
    const scenario = {
      id: 's',
      title: 'S',
      contract: buildContract(),
      records: [buildRecord({ id: 'a' }), { ...buildRecord({ id: 'b' }), tokens: -1 }],
    };
    const text = JSON.stringify(scenario, null, 2);
    const tokensLine = text.split('\n').findIndex((row) => row.includes('"tokens": -1')) + 1;
    expect(errorOf(parseScenarioJson(sha256, 's.json', text, noSibling)).issues?.[0]).toMatchObject({
      line: tokensLine,
      path: 'records[1].tokens',
      message: expect.stringMatching(/\(got -1\)$/),
    });
    const extra = JSON.stringify(
      { ...scenario, records: [buildRecord({ id: 'a' })], contract: { ...buildContract(), colour: 'red' } },
      null,
      2,
    );
    const colourLine = extra.split('\n').findIndex((row) => row.includes('"colour"')) + 1;
    expect(errorOf(parseScenarioJson(sha256, 's.json', extra, noSibling)).issues?.[0]).toMatchObject({
      line: colourLine,
      path: 'contract',
      message: 'unknown field "colour": not part of the format',
    });
  });

  it('names a truncated last line and a very long line by number', () => {
    const truncated = `${line({ id: 'a' })}\n${line({ id: 'b' }).slice(0, 40)}`;
    expect(unreadableOf(parseRecordsJsonl(sha256, 'r.jsonl', truncated)).issues?.[0]).toMatchObject({
      line: 2,
      path: '(root)',
      message: expect.stringMatching(/^not valid JSON: Unterminated string/),
    });
    const long = `${line({ id: 'a' })}\n${line({ id: 'b', text: 'y'.repeat(2_000_000) }).slice(0, -1)}`;
    const issue = unreadableOf(parseRecordsJsonl(sha256, 'r.jsonl', long)).issues?.[0];
    expect(issue).toMatchObject({ line: 2, path: '(root)' });
    expect(issue?.message.length).toBeLessThan(300);
  });
});

describe('a records line over the length limit', () => {
  it('is refused with the limit stated, without holding the line, and the lines after it are still read', () => {
    const limit = MAX_LINE_CHARS;
    const reader = createJsonlRecordReader(sha256, 'r.jsonl');
    reader.push(`${line({ id: 'a' })}\n`);
    const slab = 'x'.repeat(1 << 24);
    for (let written = 0; written <= limit; written += slab.length) reader.push(slab);
    reader.push(`\n${line({ id: 'b' })}\n{"id":`);
    const read = reader.finish();
    // The lines after it are read: b is a record, and the cut-off last line is unreadable too.
    expect(read.ok && read.value.ids).toEqual(['a', 'b']);
    const error = unreadableOf(read);
    expect(error.issues).toEqual([
      {
        file: 'r.jsonl',
        line: 2,
        path: '(root)',
        code: 'LINE_TOO_LONG',
        args: { max: 134_217_728 },
        message: 'line longer than 134,217,728 characters, the most a records line may have',
      },
      expect.objectContaining({ line: 4, path: '(root)' }),
    ]);
  });
});
