import { beforeAll, describe, expect, it } from 'vitest';
import type { SqlDriver } from '../search/driver';
import { createRecordIndex, type RecordIndex } from '../search/record-index';
import { buildContract, buildRecord, errorOf, resolveOrThrow, valueOf } from '../test-support/builders';
import { sharedDriver } from '../test-support/node-driver';
import { admit } from './admit';

let driver: SqlDriver;
let index: RecordIndex;

beforeAll(async () => {
  driver = await sharedDriver();
  index = createRecordIndex(driver);
});

const ADMISSION_QUERY = 'SELECT r.id FROM records r WHERE';

/** A driver whose read of the SQL-admitted rows answers differently from the real index. */
function disagreeingDriver(rewrite: (ids: string[]) => string[]): SqlDriver {
  return {
    ...driver,
    all(sql, params) {
      const rows = driver.all(sql, params);
      if (!sql.startsWith(ADMISSION_QUERY)) return rows;
      return rewrite(rows.map(([id]) => String(id))).map((id) => [id]);
    },
  };
}

describe('admit', () => {
  const records = [buildRecord({ id: 'a' }), buildRecord({ id: 'b', scope: 'legal' }), buildRecord({ id: 'c' })];

  it('returns the admitted set and a verdict for every record when both sides agree', () => {
    index.sync(records);
    const admission = valueOf(admit(resolveOrThrow(buildContract(), records), driver));
    expect([...admission.admitted].sort()).toEqual(['a', 'c']);
    expect(admission.verdictOf('b')).toMatchObject({ admitted: false, first: { code: 'EXCLUDE_SCOPE' } });
  });

  it('stops with ADMISSION_DIVERGENCE when SQL drops a record the evaluator admits', () => {
    index.sync(records);
    const error = errorOf(admit(resolveOrThrow(buildContract(), records), disagreeingDriver((ids) => ids.filter((id) => id !== 'c'))));
    expect(error).toMatchObject({ pass: 'admit', code: 'ADMISSION_DIVERGENCE', recordId: 'c', fact: 'the evaluator admits it but the SQL lowering did not return it' });
  });

  it('stops when SQL admits a record the evaluator refuses, quoting the evaluator', () => {
    index.sync(records);
    const error = errorOf(admit(resolveOrThrow(buildContract(), records), disagreeingDriver((ids) => [...ids, 'b'])));
    expect(error).toMatchObject({ code: 'ADMISSION_DIVERGENCE', recordId: 'b' });
    expect(error.fact).toMatch(/SQL admitted it but the evaluator refuses it \(scope legal/);
  });

  it('stops when the index holds a different version of a record than the one being compiled', () => {
    const indexed = [buildRecord({ id: 'a' })];
    index.sync(indexed);
    const compiled = [buildRecord({ id: 'a', project: 'borealis' })];
    expect(errorOf(admit(resolveOrThrow(buildContract(), compiled), driver))).toMatchObject({ code: 'ADMISSION_DIVERGENCE', recordId: 'a' });
  });

  it('stops when the index holds a record that is not in the supplied set', () => {
    index.sync([buildRecord({ id: 'a' }), buildRecord({ id: 'stray' })]);
    const error = errorOf(admit(resolveOrThrow(buildContract(), [buildRecord({ id: 'a' })]), driver));
    expect(error).toMatchObject({ code: 'ADMISSION_DIVERGENCE', recordId: 'stray', fact: 'the SQL index returned a record that is not in the supplied set' });
  });
});
