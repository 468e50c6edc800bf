import { sha256 } from './test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../adapters/sqlite/compiler';
import type { SqlDriver } from '../adapters/sqlite/driver';
import { buildContract, buildRecord, buildRecordSet, errorOf, valueOf } from './test-support/builders';
import { freshDriver, sharedDriver } from './test-support/node-driver';

let driver: SqlDriver;
let compiler: SqliteCompiler;

beforeAll(async () => {
  driver = await sharedDriver();
  compiler = createSqliteCompiler(sha256, driver);
});

const records = [
  buildRecord({ id: 'a', text: 'refund policy' }),
  buildRecord({ id: 'b', text: 'weather' }),
  buildRecord({ id: 'c', scope: 'legal' }),
];

describe('compile', () => {
  it('counts candidates, admitted, selected and excluded records', async () => {
    const outcome = valueOf(await compiler.compile({ contract: buildContract(), recordSet: buildRecordSet(records) }));
    expect(outcome.status).toBe('packet');
    expect(outcome.counts).toEqual({ candidates: 3, admitted: 2, selected: 1, excluded: 2 });
  });

  it('returns an error, not an outcome, when the inputs cannot be resolved or type-checked', async () => {
    const identities = [
      { id: 'x', aliases: ['Jo'] },
      { id: 'y', aliases: ['Jo'] },
    ];
    expect(
      errorOf(
        await compiler.compile({
          contract: buildContract({ subject: 'Jo', identities }),
          recordSet: buildRecordSet(records),
        }),
      ).code,
    ).toBe('AMBIGUOUS_SUBJECT');
    expect(
      errorOf(
        await compiler.compile({
          contract: buildContract({ typedEvidenceOnly: true }),
          recordSet: buildRecordSet(records),
        }),
      ).pass,
    ).toBe('type-check');
  });

  it('ranks only admitted records: a ranking that puts a refused record first cannot bring it into the packet', async () => {
    const own = await freshDriver();
    // The ranking query claims the refused record c is the best match (rows are read by rowid); admission decided c
    // separately.
    const rowidOf = (id: string) => Number(own.all('SELECT rowid FROM records WHERE id = ?', [id])[0]?.[0]);
    const lying = createSqliteCompiler(sha256, {
      ...own,
      all: (sql, params) =>
        sql.includes('-bm25(admitted_text')
          ? [
              [
                JSON.stringify([
                  [rowidOf('c'), 5],
                  [rowidOf('a'), 1],
                ]),
              ],
            ]
          : own.all(sql, params),
    });
    const request = { contract: buildContract(), recordSet: buildRecordSet(records) };
    const outcome = valueOf(await lying.compile(request));
    expect(outcome.status === 'packet' && outcome.packet.entries.map((entry) => entry.id)).toEqual(['a']);
    expect(outcome.trace.find((row) => row.id === 'c')).toMatchObject({ decision: 'excluded', code: 'EXCLUDE_SCOPE' });
    expect(outcome.ranked.map((entry) => entry.id)).toEqual(['a']);
    expect(lying.baselines(request, outcome).naive.illegal).toEqual(['c']);
  });

  it('re-admits a record that a separate index call changed before the compile', async () => {
    const own = createSqliteCompiler(sha256, await freshDriver());
    const contract = buildContract({ denyLabels: ['investigation'] });
    const before = buildRecordSet(records);
    own.index(before);
    expect(
      valueOf(await own.compile({ contract, recordSet: before })).trace.find((row) => row.id === 'a'),
    ).toMatchObject({ decision: 'selected' });
    // A toggle as the app does it: index first (it reports progress), then compile the same record set.
    const relabelled = buildRecordSet([
      buildRecord({ id: 'a', text: 'refund policy', access: { labels: ['investigation'] } }),
      records[1]!,
      records[2]!,
    ]);
    own.index(relabelled);
    const after = valueOf(await own.compile({ contract, recordSet: relabelled }));
    expect(after.trace.find((row) => row.id === 'a')).toMatchObject({ code: 'EXCLUDE_DENY_LABEL' });
  });
});

describe('broken supersession links', () => {
  const rowOf = (outcome: Awaited<ReturnType<typeof compileRecords>>, id: string) =>
    outcome.trace.find((row) => row.id === id);
  async function compileRecords(
    list: Parameters<typeof buildRecordSet>[0],
    overrides: Parameters<typeof buildContract>[0] = {},
  ) {
    return valueOf(
      await compiler.compile({
        contract: buildContract({ denyLabels: ['legal_hold'], ...overrides }),
        recordSet: buildRecordSet(list),
      }),
    );
  }

  it('exclude only the records involved, with their own codes, and the packet is emitted (the case the issue measured)', async () => {
    const withheld = { access: { labels: ['legal_hold'] } };
    const outcome = await compileRecords([
      ...records,
      buildRecord({ id: 'X-deny-00000', ...withheld, supersedes: ['NOPE-1'] }),
      buildRecord({ id: 'X-deny-1', ...withheld, supersedes: ['X-deny-2'] }),
      buildRecord({ id: 'X-deny-2', ...withheld, supersedes: ['X-deny-1'] }),
      buildRecord({ id: 'd', text: 'refund policy', supersedes: ['d'] }),
      buildRecord({ id: 'e', text: 'refund policy', supersedes: ['NOPE-2'] }),
    ]);
    expect(outcome.status === 'packet' && outcome.packet.entries.map((entry) => entry.id)).toEqual(['a']);
    expect(rowOf(outcome, 'X-deny-00000')).toMatchObject({
      code: 'EXCLUDE_DANGLING_SUPERSESSION',
      fact: 'SUPERSEDES_MISSING',
      args: { targets: ['NOPE-1'] },
      gates: ['supersession', 'deny'],
    });
    expect(rowOf(outcome, 'X-deny-1')).toMatchObject({
      code: 'EXCLUDE_SUPERSESSION_CYCLE',
      fact: 'ON_SUPERSESSION_CYCLE',
      args: { successors: ['X-deny-2'] },
    });
    expect(rowOf(outcome, 'd')).toMatchObject({
      code: 'EXCLUDE_SUPERSESSION_CYCLE',
      fact: 'SUPERSEDES_ITSELF',
      gates: ['supersession'],
    });
    expect(rowOf(outcome, 'e')).toMatchObject({ code: 'EXCLUDE_DANGLING_SUPERSESSION', args: { targets: ['NOPE-2'] } });
  });

  it('keep the valid links of a broken record in force: what it supersedes never passes as current', async () => {
    const outcome = await compileRecords([
      buildRecord({ id: 'old', text: 'refund policy' }),
      buildRecord({ id: 'new', text: 'refund policy', supersedes: ['old', 'NOPE'] }),
    ]);
    expect(rowOf(outcome, 'old')).toMatchObject({ code: 'EXCLUDE_SUPERSEDED', args: { successor: 'new' } });
    expect(rowOf(outcome, 'new')).toMatchObject({ code: 'EXCLUDE_DANGLING_SUPERSESSION' });
    expect(outcome.admitted.size).toBe(0);
  });

  it('fail closed when a required record is among the broken ones, naming its reason', async () => {
    const outcome = await compileRecords([...records, buildRecord({ id: 'need', supersedes: ['NOPE'] })], {
      requiredRecords: ['need'],
    });
    expect(outcome.status).toBe('fail_closed');
    expect(outcome.status === 'fail_closed' && outcome.failure).toMatchObject({
      code: 'REQUIRED_ILLEGAL',
      recordId: 'need',
      message:
        'Required record need fails the supersession gate (supersedes NOPE, not among the records): no packet is emitted.',
    });
  });
});
