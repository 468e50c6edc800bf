import { sha256 } from './test-support/sha256';
import fc from 'fast-check';
import { invisibleCodePoints, isNfc } from './format/identifier';
import { describe, expect, it } from 'vitest';
import { canonicalJson, sortedSet } from './canonical';
import { CanonicalBytes } from './canonical-bytes';
import { canonicalRecordBytes, contentHashOf, recordFingerprint, type Sha256 } from './fingerprints';
import { recordSchema, type RecordInput, type SourceRecord } from './format/record';
import { buildRecord } from './test-support/builders';

/** The fingerprint's definition, written the slow way: the generic canonical JSON of the normalised record. */
function genericForm(record: SourceRecord, textHash: string): string {
  return canonicalJson({
    ...record,
    text: textHash,
    supersedes: sortedSet(record.supersedes),
    access: {
      roles: sortedSet(record.access.roles),
      purposes: sortedSet(record.access.purposes),
      labels: sortedSet(record.access.labels),
    },
    evidence: record.evidence && {
      class: record.evidence.class,
      supports: sortedSet(record.evidence.supports),
      contradicts: sortedSet(record.evidence.contradicts),
    },
  });
}

const HASH = `sha256:${'ab'.repeat(32)}`;
const utf8 = (text: string) => new TextEncoder().encode(text);
// Graphemes, and any code point: control characters, quotes and backslashes (escaped), astral ones (a pair).
const anyText = fc.oneof(
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }),
);
// Identifiers hold no invisible character and are in NFC (src/core/format/identifier.ts).
const anyName = anyText
  .map((value) => value.normalize('NFC'))
  .filter((value) => invisibleCodePoints(value).length === 0 && isNfc(value));
const anyId = anyName.map((value) => value.replace(/\s/g, '_'));
const names = fc.array(anyName, { maxLength: 4 });

const recordArbitrary = fc
  .record({
    id: anyId,
    title: anyText,
    text: fc.string({ unit: 'grapheme' }),
    tokens: fc.nat({ max: 10_000_000 }),
    subject: fc.option(anyName),
    validTo: fc.option(fc.constantFrom('2026-01-01', '2026-08-30T09:00:00+02:00')),
    supersedes: fc.array(anyId, { maxLength: 3 }),
    provenance: fc.option(fc.record({ origin: anyText, contentHash: fc.constant(HASH) })),
    roles: names.filter((list) => list.length > 0),
    purposes: names.filter((list) => list.length > 0),
    labels: names,
    evidence: fc.option(fc.record({ class: anyName, supports: names, contradicts: names })),
    relevance: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true })),
  })
  .map(({ roles, purposes, labels, ...body }): SourceRecord => {
    const input: RecordInput = {
      ...body,
      project: 'p',
      scope: 's',
      knownAt: '2026-01-01',
      validFrom: '2026-01-01T00:00:00Z',
      lifecycle: 'active',
      sourceClass: 'doc',
      authorityClass: 'policy',
      reviewState: 'approved',
      sensitivity: 'internal',
      access: { roles, purposes, labels },
    };
    return recordSchema.parse(input);
  });

describe('recordFingerprint', () => {
  // One scratch for every call, as a reader passes: each call must overwrite what the last one wrote.
  const scratch = new CanonicalBytes();
  it('writes exactly the generic canonical JSON for any validated record', () => {
    fc.assert(
      fc.property(recordArbitrary, (record) => {
        expect(canonicalRecordBytes(record, HASH, scratch)).toEqual(utf8(genericForm(record, HASH)));
      }),
      { numRuns: 500 },
    );
  });

  it('leaves a record of another shape to the generic path, with the same fingerprint', () => {
    const record = buildRecord({ id: 'r1' });
    const widened = { ...record, note: 'not a record field' } as unknown as SourceRecord;
    expect(canonicalRecordBytes(widened, HASH, scratch)).toBeNull();
    expect(recordFingerprint(sha256, widened, HASH, scratch)).toBe(sha256.hex(genericForm(widened, HASH)));
    const missing = { ...record, relevance: undefined } as unknown as SourceRecord;
    expect(canonicalRecordBytes(missing, HASH, scratch)).toBeNull();
  });

  it('leaves a lone surrogate to the generic path, which refuses it', () => {
    const record = { ...buildRecord({ id: 'r1' }), title: 'half a pair \ud83d' };
    expect(canonicalRecordBytes(record, HASH, scratch)).toBeNull();
    expect(() => recordFingerprint(sha256, record, HASH, scratch)).toThrow(/lone surrogate/);
  });

  it('gives each record of a batch its own fingerprint, whichever path each takes', () => {
    const records = Array.from({ length: 9 }, (_, index) =>
      buildRecord({ id: `r${index}`, text: 'x'.repeat(index * 40) }),
    );
    const widened = { ...records[4]!, note: 'generic path' } as unknown as SourceRecord;
    const batch = [...records.slice(0, 4), widened, ...records.slice(5)];
    const hashes = batch.map((_, index) => `sha256:${String(index).repeat(64).slice(0, 64)}`);
    expect(batch.map((record, index) => recordFingerprint(sha256, record, hashes[index]!, scratch))).toEqual(
      batch.map((record, index) => sha256.hex(genericForm(record, hashes[index]!))),
    );
  });

  it('does not depend on the order of set-like lists', () => {
    const a = buildRecord({
      id: 'r1',
      supersedes: ['b', 'a'],
      access: { roles: ['y', 'x'], purposes: ['q', 'p'], labels: ['l2', 'l1'] },
    });
    const b = buildRecord({
      id: 'r1',
      supersedes: ['a', 'b'],
      access: { roles: ['x', 'y'], purposes: ['p', 'q'], labels: ['l1', 'l2'] },
    });
    expect(recordFingerprint(sha256, a, HASH, scratch)).toBe(recordFingerprint(sha256, b, HASH, scratch));
  });
});

// Each implementation is tested where it lives: src/lib/node-sha256.test.ts, src/lib/hash-wasm.test.ts.
describe('the content hash', () => {
  it('prefixes the digest of the SHA-256 it is given', () => {
    expect(contentHashOf(sha256, 'abc')).toBe(
      'sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  it('hashes through the implementation it is given and no other', () => {
    const fake: Sha256 = {
      hex: (text) => `fake:${text}`,
      hexOfBytes: (bytes) => `fake bytes:${bytes.length}`,
      digest: () => sha256.digest(),
    };
    expect(contentHashOf(fake, 'abc')).toBe('sha256:fake:abc');
    expect(contentHashOf(sha256, 'abc')).not.toBe('sha256:fake:abc');
  });
});
