import { sha256 } from '../../core/test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SourceRecord } from '../../core/format/record';
import { recordSetDigest } from '../../core/phases/7-attest/attest-digests';
import { createRecordSet } from '../../core/phases/1-validate/validate';
import { endsChunk } from '../../core/tree-digest';
import { conformanceCases } from '../conformance/corpus';
import { deleteRecords, loadRecordSet } from './load-records';
import { storedRecordSetDigest } from './record-set-digest';
import { openTestDatabase, POSTGRES_URL, type TestDatabase } from './test-server';
import { type Tokeniser } from './tokens';
import { createUnicodeTokeniser } from './unicode61';

const [first] = conformanceCases(0);
const base = first?.records[0] as SourceRecord;
/** Ids whose records end a digest chunk, and ids that do not: chunks of a few records each. */
const idsWhere = (ends: boolean, count: number, prefix: string) => {
  const found: string[] = [];
  for (let n = 0; found.length < count; n += 1) if (endsChunk(`${prefix}${n}`) === ends) found.push(`${prefix}${n}`);
  return found;
};
const enders = idsWhere(true, 4, 'e');
// The same prefix, so the records that end no chunk fall between those that do.
const plain = idsWhere(false, 40, 'e');
const record = (id: string, title = base.title): SourceRecord => ({ ...base, id, title });

describe.skipIf(POSTGRES_URL === undefined)('the record-set digest kept chunk by chunk by the load', () => {
  let database: TestDatabase;
  let tokeniser: Tokeniser;
  beforeAll(async () => {
    database = await openTestDatabase();
    tokeniser = createUnicodeTokeniser();
  });
  const expectDigestOf = async (records: readonly SourceRecord[]) => {
    expect(await storedRecordSetDigest(database)).toBe(
      recordSetDigest(sha256, createRecordSet(sha256, records).checked),
    );
  };
  const load = async (records: readonly SourceRecord[], mode: 'replace' | 'upsert' = 'replace') => {
    const loaded = await loadRecordSet(sha256, database, 'digest.jsonl', createRecordSet(sha256, records), tokeniser, {
      mode,
    });
    if (!loaded.ok) throw new Error(loaded.error.message);
  };

  it('equals the core digest after a load, an upsert, an inserted and a removed chunk end, records added past the last and deleted, and an id past U+FFFF', async () => {
    let records = [...plain.slice(0, 30), ...enders.slice(0, 2)].map((id) => record(id));
    await load(records);
    await expectDigestOf(records);
    expect(enders.every((id) => endsChunk(id))).toBe(true);

    records = records.map((item) => (item.id === plain[3] ? record(item.id, 'A changed title') : item));
    await load([record(plain[3] as string, 'A changed title')], 'upsert');
    await expectDigestOf(records);

    const inserted = [
      record(enders[2] as string),
      record('zz-after-every-other'),
      record('x\u{1F600}'),
      record('x\uFFFD'),
    ];
    records = [...records, ...inserted];
    await load(inserted, 'upsert');
    await expectDigestOf(records);

    // A chunk's end deleted alone: the chunk after it now starts earlier.
    for (const gone of [[enders[1] as string], ['zz-after-every-other', plain[0] as string]]) {
      expect((await deleteRecords(database, gone)).ok).toBe(true);
      records = records.filter((item) => !gone.includes(item.id));
      await expectDigestOf(records);
    }

    records = [
      ...records.filter((item) => item.id !== plain[5]),
      record(enders[3] as string),
      ...plain.slice(30).map((id) => record(id)),
    ];
    await load(records);
    await expectDigestOf(records);

    await load([]);
    await expectDigestOf([]);
  });
});
