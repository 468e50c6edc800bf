import { sha256 } from './test-support/sha256';
import { describe, expect, it } from 'vitest';
import { applyChanges } from './controls';
import { genericLateChanges, GENERIC_DENY_LABEL } from './generic-late-changes';
import { buildContract, buildRecord, buildRecordSet } from './test-support/builders';

describe('generic late changes', () => {
  const contract = buildContract({ asOf: '2026-08-30', requiredRecords: [] });
  const records = [
    buildRecord({ id: 'OLD', project: 'elsewhere' }),
    buildRecord({ id: 'LIVE' }),
    buildRecord({ id: 'OTHER' }),
  ];

  it('are a pure function of the contract and records: validity ends, a denied label, a role revoked, the as-of moved', () => {
    const changes = genericLateChanges(contract, buildRecordSet(records));
    expect(changes).toEqual(genericLateChanges(contract, buildRecordSet(records)));
    expect(changes.map((change) => change.id)).toEqual([
      'generic-validity-ends',
      'generic-deny-label',
      'generic-role-revoked',
      'generic-as-of-moves',
    ]);
    // The first record the cheap gates let in is the one that matters: not the first of the file.
    expect(changes[0]?.patches).toEqual([
      { op: 'mergeRecord', id: 'LIVE', patch: { validTo: '2026-08-29T23:59:59.999Z' } },
    ]);
    expect(changes[1]?.patches).toEqual([
      { op: 'mergeRecord', id: 'LIVE', patch: { access: { labels: [GENERIC_DENY_LABEL] } } },
      { op: 'mergeContract', patch: { denyLabels: [GENERIC_DENY_LABEL] } },
    ]);
    expect(changes[2]?.patches).toEqual([
      { op: 'mergeContract', patch: { principals: [{ id: 'dana', kind: 'human', roles: ['agent (revoked)'] }] } },
    ]);
    expect(changes[3]?.patches).toEqual([{ op: 'mergeContract', patch: { asOf: '2026-08-31' } }]);
  });

  it('each applies to the inputs they were worked out from, and a required record is the one whose validity ends', () => {
    const required = buildContract({ asOf: '2026-08-30T09:00:00Z', requiredRecords: ['OTHER'] });
    const recordSet = buildRecordSet(records);
    const changes = genericLateChanges(required, recordSet);
    expect(changes[0]?.label).toBe('Late: OTHER stops being valid');
    expect(changes[3]?.patches).toEqual([{ op: 'mergeContract', patch: { asOf: '2026-08-31T09:00:00.000Z' } }]);
    for (const change of changes) expect(applyChanges(sha256, required, recordSet, [change]).ok).toBe(true);
  });

  it('never name a record the user view withholds, nor change when one is added or removed', () => {
    const withheld = [
      buildRecord({ id: 'HELD', access: { roles: ['agent'], purposes: ['audit'], labels: [] } }),
      buildRecord({ id: 'DENIED', access: { roles: ['agent'], purposes: ['support'], labels: ['legal_hold'] } }),
    ];
    const denying = buildContract({ asOf: '2026-08-30', requiredRecords: ['HELD'], denyLabels: ['legal_hold'] });
    const visible = genericLateChanges(denying, buildRecordSet(records));
    expect(genericLateChanges(denying, buildRecordSet([...withheld, ...records]))).toEqual(visible);
    expect(JSON.stringify(visible)).not.toMatch(/HELD|DENIED/);
    // With no record the user may see, no record is named: the first record of the file is no stand-in.
    expect(genericLateChanges(denying, buildRecordSet(withheld)).map((change) => change.id)).toEqual([
      'generic-role-revoked',
      'generic-as-of-moves',
    ]);
  });

  it('still move the as-of and revoke a role when there is no record', () => {
    expect(genericLateChanges(contract, buildRecordSet([])).map((change) => change.id)).toEqual([
      'generic-role-revoked',
      'generic-as-of-moves',
    ]);
  });
});
