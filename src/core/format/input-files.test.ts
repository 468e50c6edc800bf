import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { renderRecordParser } from '../../../scripts/generate-record-parser';
import { propertyParameters } from '../test-support/arbitraries';
import { buildRecord } from '../test-support/builders';
import { recordSchema } from './record';
import { compiledRecordSchema } from './input-files';
import generatedSource from './record-parser.generated.ts?raw';
import { parseRecordInput } from './record-parser.generated';

const HASH = `sha256:${'a'.repeat(64)}`;
/** Values on both sides of every rule of the record format, for any field. */
const VALUES: readonly unknown[] = [
  null,
  '',
  ' ',
  'a b',
  'x',
  'x'.repeat(200),
  'x'.repeat(201),
  '😀'.repeat(200),
  '😀'.repeat(201),
  '\ud800',
  0,
  -1,
  1.5,
  10_000_000,
  10_000_001,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  [],
  [''],
  ['a'],
  ['a b'],
  [1],
  ['x'.repeat(201)],
  {},
  [{}],
  '2026-02-30',
  '2026-08-30',
  '2026-08-30T09:00:00Z',
  '2026-08-30T09:00:00+02:00',
  '2026-08-30T09:00',
  'active',
  'approved',
  HASH,
  { origin: 'x', contentHash: HASH },
  { origin: '', contentHash: HASH },
  { origin: 'x', contentHash: 'sha256:AA' },
  { origin: 'x', contentHash: HASH, extra: 1 },
  { roles: ['a'], purposes: ['b'] },
  { roles: [], purposes: ['b'] },
  { roles: ['a'], purposes: ['b'], labels: ['c'] },
  { roles: ['a'], purposes: ['b'], extra: 1 },
  { class: 'email' },
  { class: 'email', supports: ['p'], contradicts: [] },
  { class: '', supports: 'p' },
  { class: 'email', extra: 1 },
];
const KEYS = [...Object.keys(recordSchema.shape), 'extra', '__proto__'];

type Change = readonly [key: string, valueIndex: number | undefined];

/** A valid record with some fields removed or replaced, decoded from JSON as a line of a records file would be. */
function changed(changes: readonly Change[]): Record<string, unknown> {
  const input = JSON.parse(JSON.stringify(buildRecord({ id: 'rec-1', subject: 'cust-1', relevance: 0.5 }))) as Record<
    string,
    unknown
  >;
  for (const [key, valueIndex] of changes) {
    if (valueIndex === undefined) delete input[key];
    else
      Object.defineProperty(input, key, {
        value: VALUES[valueIndex],
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return input;
}

function expectSameParse(input: unknown): void {
  const compiled = compiledRecordSchema.safeParse(input);
  const runtime = recordSchema.safeParse(input);
  expect(compiled.success).toBe(runtime.success);
  expect(compiled.data).toStrictEqual(runtime.data);
  expect(JSON.stringify(compiled.data)).toBe(JSON.stringify(runtime.data));
  expect(compiled.error?.issues).toEqual(runtime.error?.issues);
}

describe('the compiled record parser', () => {
  it('is what scripts/generate-record-parser.ts generates from the record schema', () => {
    expect(
      generatedSource,
      'src/core/format/record-parser.generated.ts is out of date: run npx tsx scripts/generate-record-parser.ts',
    ).toBe(renderRecordParser());
  });

  it('answers a valid record itself, with fresh defaults', () => {
    const {
      validTo: _validTo,
      supersedes: _supersedes,
      evidence: _evidence,
      relevance: _relevance,
      ...input
    } = buildRecord();
    const first = parseRecordInput(input);
    const second = parseRecordInput(input);
    expect(first).not.toBe(z.INVALID);
    expect(first).toStrictEqual(recordSchema.parse(input));
    if (first === z.INVALID || second === z.INVALID) return;
    expect(first.supersedes).not.toBe(second.supersedes);
    expect(first.access).not.toBe(input.access);
  });

  it('parses exactly as the record schema does when any one field is removed or set to any value', () => {
    for (const key of KEYS) {
      expectSameParse(changed([[key, undefined]]));
      for (const valueIndex of VALUES.keys()) expectSameParse(changed([[key, valueIndex]]));
    }
  });

  it('parses exactly as the record schema does: same record, same key order, same issues', () => {
    const change = fc.tuple(fc.constantFrom(...KEYS), fc.option(fc.constantFrom(...VALUES.keys()), { nil: undefined }));
    fc.assert(
      fc.property(fc.array(change, { minLength: 2, maxLength: 4 }), (changes) => expectSameParse(changed(changes))),
      propertyParameters(1_000),
    );
  });
});
