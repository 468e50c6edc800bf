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

  it('ranks only admitted records: a ranking that puts a refused record first cannot bring it into the packet', async () => {
    const own = await freshDriver();
    // The ranking query claims the refused record c is the best match (rows are read by rowid); admission decided c separately.
    const rowidOf = (id: string) => Number(own.all('SELECT rowid FROM records WHERE id = ?', [id])[0]?.[0]);
    const lying = createCompiler({ ...own, all: (sql, params) => (sql.includes('-bm25(admitted_text') ? [[JSON.stringify([[rowidOf('c'), 5], [rowidOf('a'), 1]])]] : own.all(sql, params)) });
    const request = { contract: buildContract(), recordSet: buildRecordSet(records) };
    const outcome = valueOf(lying.compile(request));
    expect(outcome.status === 'packet' && outcome.packet.entries.map((entry) => entry.id)).toEqual(['a']);
    expect(outcome.trace.find((row) => row.id === 'c')).toMatchObject({ decision: 'excluded', code: 'EXCLUDE_SCOPE', rank: null });
    expect(lying.baselines(request, outcome).naive.illegal).toEqual(['c']);
  });

  it('re-admits a record that a separate index call changed before the compile', async () => {
    const own = createCompiler(await freshDriver());
    const contract = buildContract({ denyLabels: ['investigation'] });
    const before = buildRecordSet(records);
    own.index(before);
    expect(valueOf(own.compile({ contract, recordSet: before })).trace.find((row) => row.id === 'a')).toMatchObject({ decision: 'selected' });
    // A toggle as the app does it: index first (it reports progress), then compile the same record set.
    const relabelled = buildRecordSet([buildRecord({ id: 'a', text: 'refund policy', access: { labels: ['investigation'] } }), records[1]!, records[2]!]);
    own.index(relabelled);
    const after = valueOf(own.compile({ contract, recordSet: relabelled }));
    expect(after.trace.find((row) => row.id === 'a')).toMatchObject({ code: 'EXCLUDE_DENY_LABEL' });
  });
});
