import { beforeAll, describe, expect, it } from 'vitest';
import { createCompiler, type Compiler } from './compile';
import type { SqlDriver } from './search/driver';
import { buildContract, buildRecord, buildRecordSet, errorOf, valueOf } from './test-support/builders';
import { freshDriver, sharedDriver } from './test-support/node-driver';

let driver: SqlDriver;
let compiler: Compiler;

beforeAll(async () => {
  driver = await sharedDriver();
  compiler = createCompiler(driver);
});

const records = [buildRecord({ id: 'a', text: 'refund policy' }), buildRecord({ id: 'b', text: 'weather' }), buildRecord({ id: 'c', scope: 'legal' })];

describe('compile', () => {
  it('counts candidates, admitted, selected and excluded records', () => {
    const outcome = valueOf(compiler.compile({ contract: buildContract(), recordSet: buildRecordSet(records) }));
    expect(outcome.status).toBe('packet');
    expect(outcome.counts).toEqual({ candidates: 3, admitted: 2, selected: 1, excluded: 2 });
  });

  it('returns an error, not an outcome, when the inputs cannot be resolved or type-checked', () => {
    const identities = [{ id: 'x', aliases: ['Jo'] }, { id: 'y', aliases: ['Jo'] }];
    expect(errorOf(compiler.compile({ contract: buildContract({ subject: 'Jo', identities }), recordSet: buildRecordSet(records) })).code).toBe('AMBIGUOUS_SUBJECT');
    expect(errorOf(compiler.compile({ contract: buildContract({ typedEvidenceOnly: true }), recordSet: buildRecordSet(records) })).pass).toBe('type-check');
  });

  it('returns a divergence found while ranking as an error, never as a packet', async () => {
    const own = await freshDriver();
    // The ranking query claims a record that the admission predicate and the evaluator refuse.
    const lying = createCompiler({ ...own, all: (sql, params) => (sql.includes('record_text MATCH') ? [['c', 5]] : own.all(sql, params)) });
    expect(errorOf(lying.compile({ contract: buildContract(), recordSet: buildRecordSet(records) }))).toMatchObject({ code: 'ADMISSION_DIVERGENCE', recordId: 'c' });
  });
});
