import { sha256 } from './test-support/sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../adapters/sqlite/compiler';
import { discloseOutcome, isWithheldFromUser } from './disclosure';
import type { SourceRecord } from './format/record';
import type { CompileOutcome } from './result';
import {
  buildContract,
  buildRecord,
  buildRecordSet,
  valueOf,
  type ContractOverrides,
  type RecordOverrides,
} from './test-support/builders';
import { sharedDriver } from './test-support/node-driver';

let compiler: SqliteCompiler;

beforeAll(async () => {
  compiler = createSqliteCompiler(sha256, await sharedDriver());
});

const secret = (id: string, overrides: RecordOverrides = {}) =>
  buildRecord({ id, title: `Title ${id}-hidden`, text: `refund refund policy ${id}-body`, ...overrides });

const withheldRecords = [
  secret('denied-x', { access: { labels: ['investigation'] } }),
  secret('unauthorised-x', { access: { roles: ['auditor'] } }),
  secret('purpose-x', { access: { purposes: ['audit'] } }),
  // Fails the project gate first; the deny behind it must still hide it.
  secret('double-x', { project: 'borealis', access: { labels: ['investigation'] } }),
];
const visibleRecords = [
  buildRecord({ id: 'visible', text: 'refund policy' }),
  buildRecord({ id: 'out-of-scope', scope: 'legal', text: 'weather' }),
];
const contractOverrides: ContractOverrides = { denyLabels: ['investigation'], naiveTopK: 10 };

async function compile(
  records: readonly SourceRecord[],
  overrides: ContractOverrides = contractOverrides,
): Promise<CompileOutcome> {
  return valueOf(await compiler.compile({ contract: buildContract(overrides), recordSet: buildRecordSet(records) }));
}

function expectNothingOf(records: readonly SourceRecord[], text: string) {
  for (const record of records) {
    expect(text).not.toContain(record.id);
    expect(text).not.toContain(record.title);
    expect(text).not.toContain(record.text);
  }
}

describe('discloseOutcome', () => {
  it('never names a record excluded by authorisation or deny in the user view, also when it fails an earlier gate', async () => {
    const outcome = await compile([...visibleRecords, ...withheldRecords]);
    const view = discloseOutcome(outcome, 'user');
    expectNothingOf(withheldRecords, JSON.stringify(view));
    expect(view.rows.map((row) => row.id)).toEqual(['out-of-scope', 'visible']);
    expect(view.withheld.size).toBe(4);
    expect(view.withheldNotice).toBe('4 records are outside the authorised scope.');
  });

  it('shows everything in the diagnostic view', async () => {
    const view = discloseOutcome(await compile([...visibleRecords, ...withheldRecords]), 'diagnostic');
    expect(view.rows).toHaveLength(6);
    expect(view.withheld.size).toBe(0);
    expect(view.withheldNotice).toBeNull();
  });

  it('does not name a withheld record through a failure, a required list or another record’s fact', async () => {
    const successor = secret('successor-x', { access: { labels: ['investigation'] } });
    const superseded = buildRecord({ id: 'old-visible', text: 'refund' });
    const records = [...visibleRecords, ...withheldRecords, { ...successor, supersedes: ['old-visible'] }, superseded];
    const failed = await compile(records, { ...contractOverrides, requiredRecords: ['denied-x'] });
    expect(failed.status).toBe('fail_closed');
    const view = discloseOutcome(failed, 'user');
    expectNothingOf([...withheldRecords, successor], JSON.stringify(view));
    expect(view.failureMessage).toMatch(/cannot be processed in this workflow/);
    // The declared exception: the withheld successor still excludes the visible version, and the row says so without
    // naming it.
    expect(view.rows.find((row) => row.id === 'old-visible')).toMatchObject({
      code: 'EXCLUDE_SUPERSEDED',
      fact: 'SUPERSEDED_BY_WITHHELD',
      args: {},
    });
    expect(discloseOutcome(failed, 'diagnostic').rows.find((row) => row.id === 'old-visible')).toMatchObject({
      fact: 'SUPERSEDED_BY',
      args: { successor: 'successor-x' },
    });
  });

  it('does not name a withheld successor through the failure of the required record it supersedes', async () => {
    const successor = secret('successor-x', { access: { roles: ['auditor'] }, supersedes: ['required-old'] });
    const outcome = await compile([buildRecord({ id: 'required-old' }), successor], {
      requiredRecords: ['required-old'],
    });
    expect(outcome.status === 'fail_closed' && outcome.failure.message).toMatch(/superseded by successor-x/);
    const view = discloseOutcome(outcome, 'user');
    expectNothingOf([successor], JSON.stringify(view));
    expect(view.failureMessage).toBe(
      'A required record fails a legality gate: no packet is emitted. The requested scope cannot be processed in this workflow.',
    );
    expect(discloseOutcome(outcome, 'diagnostic').failureMessage).toMatch(/superseded by successor-x/);
  });

  it('says "superseded by a record you may not see" for a withheld successor, in force or round a cycle, and names no successor', async () => {
    const inForce = secret('successor-x', { access: { labels: ['investigation'] }, supersedes: ['old-visible'] });
    const cycle = [
      secret('cycle-x', { access: { roles: ['auditor'] }, lifecycle: 'draft', supersedes: ['cycle-visible'] }),
      buildRecord({ id: 'cycle-visible', supersedes: ['cycle-x'] }),
    ];
    const broken = buildRecord({ id: 'z-broken-visible', supersedes: ['old-visible', 'NOPE'] });
    const outcome = await compile([...visibleRecords, inForce, buildRecord({ id: 'old-visible' }), ...cycle, broken]);
    const view = discloseOutcome(outcome, 'user');
    expectNothingOf([inForce, cycle[0] as SourceRecord], JSON.stringify(view));
    const row = (id: string) => view.rows.find((candidate) => candidate.id === id);
    expect(row('cycle-visible')).toMatchObject({
      code: 'EXCLUDE_SUPERSESSION_CYCLE',
      fact: 'SUPERSEDED_BY_WITHHELD',
      args: {},
    });
    // Its smallest successor in force is withheld: the row says a record the caller may not see supersedes it.
    expect(row('old-visible')).toMatchObject({ code: 'EXCLUDE_SUPERSEDED', fact: 'SUPERSEDED_BY_WITHHELD', args: {} });
    // A visible record's own broken link names only what it names itself.
    expect(row('z-broken-visible')).toMatchObject({
      code: 'EXCLUDE_DANGLING_SUPERSESSION',
      fact: 'SUPERSEDES_MISSING',
      args: { targets: ['NOPE'] },
    });
    expect(
      discloseOutcome(outcome, 'diagnostic').rows.find((candidate) => candidate.id === 'cycle-visible'),
    ).toMatchObject({ fact: 'ON_SUPERSESSION_CYCLE', args: { successors: ['cycle-x'] } });
  });

  it('withholds by code or by any failed authorisation or deny gate', () => {
    expect(isWithheldFromUser({ code: 'EXCLUDE_PROJECT', gates: ['project', 'deny'] })).toBe(true);
    expect(isWithheldFromUser({ code: 'REQUIRED_NOT_AUTHORISED', gates: [] })).toBe(true);
    expect(isWithheldFromUser({ code: 'EXCLUDE_SCOPE', gates: ['scope', 'time'] })).toBe(false);
  });
});
