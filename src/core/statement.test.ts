import { sha256 } from './test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { canonicalJson } from './canonical';
import { createSqliteCompiler, type SqliteCompiler } from '../adapters/sqlite/compiler';
import { receiptSchema } from './format/receipt';
import { packetWithManifest, receiptIdOf } from './phases/7-attest/attest';
import {
  RECORD_SET_DIGEST,
  receiptPredicateType,
  receiptStatement,
  serialiseStatement,
  STATEMENT_TYPE,
} from './statement';
import { buildContract, buildRecord, buildRecordSet, valueOf } from './test-support/builders';
import { sharedDriver } from './test-support/node-driver';

/** What in-toto's Statement v1 requires (spec/v1/statement.md, resource_descriptor.md, field_types.md). */
const typeUri = z.string().refine((value) => {
  const url = new URL(value);
  return url.protocol === url.protocol.toLowerCase() && url.host === url.host.toLowerCase();
}, 'a URI whose scheme and authority are lower case');
const statementV1 = z.object({
  _type: z.literal('https://in-toto.io/Statement/v1'),
  subject: z
    .array(
      z.object({
        name: z.string().optional(),
        digest: z
          .record(z.string(), z.string().regex(/^[0-9a-f]+$/))
          .refine((digest) => Object.keys(digest).length > 0),
      }),
    )
    .min(1),
  predicateType: typeUri,
  predicate: z.record(z.string(), z.unknown()).optional(),
});

let compiler: SqliteCompiler;
beforeAll(async () => {
  compiler = createSqliteCompiler(sha256, await sharedDriver());
});

describe('receiptStatement', () => {
  it('wraps a receipt in an in-toto Statement v1 whose subjects are the packet text and the record set', async () => {
    const outcome = valueOf(
      await compiler.compile({
        contract: buildContract(),
        recordSet: buildRecordSet([buildRecord({ id: 'a', text: 'refund policy' })]),
      }),
    );
    if (outcome.status !== 'packet') throw new Error('expected a packet');
    const packetText = packetWithManifest(outcome.packet, outcome.receipt);
    const statement = receiptStatement(sha256, outcome.receipt, packetText);
    expect(statementV1.safeParse(statement).success).toBe(true);
    expect(statement._type).toBe(STATEMENT_TYPE);
    expect(statement.subject).toEqual([
      { name: 'packet.txt', digest: { sha256: sha256.hex(packetText) }, mediaType: 'text/plain; charset=utf-8' },
      { name: 'record-set', digest: { [RECORD_SET_DIGEST]: outcome.receipt.recordSetDigest } },
    ]);
    expect(statement.predicateType).toBe('https://context-compiler.invalid/receipt/v5');
  });

  it('carries the receipt unchanged: it parses and its id still verifies from the predicate alone', async () => {
    const outcome = valueOf(
      await compiler.compile({
        contract: buildContract(),
        recordSet: buildRecordSet([buildRecord({ id: 'a', text: 'refund policy' })]),
      }),
    );
    const written = serialiseStatement(receiptStatement(sha256, outcome.receipt, null));
    expect(written.endsWith('\n')).toBe(true);
    const read = JSON.parse(written) as { predicate: unknown };
    expect(canonicalJson(read)).toBe(written.trimEnd());
    const predicate = receiptSchema.parse(read.predicate);
    const { receiptId, ...body } = predicate;
    expect(receiptIdOf(sha256, body)).toBe(receiptId);
    expect(canonicalJson(predicate)).toBe(canonicalJson(outcome.receipt));
  });

  it('names only the record set when no packet was emitted', async () => {
    const outcome = valueOf(
      await compiler.compile({
        contract: buildContract({ requiredRecords: ['ghost'] }),
        recordSet: buildRecordSet([buildRecord({ id: 'a' })]),
      }),
    );
    expect(outcome.status).toBe('fail_closed');
    const statement = receiptStatement(sha256, outcome.receipt, null);
    expect(statementV1.safeParse(statement).success).toBe(true);
    expect(statement.subject.map((subject) => subject.name)).toEqual(['record-set']);
  });

  it('versions the predicate type with the receipt schema', () => {
    expect(receiptPredicateType('context-compiler/5')).toBe('https://context-compiler.invalid/receipt/v5');
  });
});
