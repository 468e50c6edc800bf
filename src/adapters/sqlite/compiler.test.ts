import { beforeAll, describe, expect, it } from 'vitest';
import type { SourceRecord } from '../../core/format/record';
import type { SqlDriver } from './driver';
import { createRecordIndex } from './record-index';
import type { RecordIndex } from './record-index-api';
import {
  buildContract,
  buildRecord,
  buildRecordSet,
  errorOf,
  lowerResolved,
  resolveOrThrow,
  valueOf,
  type ContractOverrides,
} from '../../core/test-support/builders';
import { sharedDriver } from '../../core/test-support/node-driver';
import { admit } from '../../core/phases/4-admit/admit';

const INJECTION = "atlas' OR 1=1 --";

let driver: SqlDriver;
let index: RecordIndex;

beforeAll(async () => {
  driver = await sharedDriver();
  index = createRecordIndex(driver);
});

function admittedBySql(overrides: ContractOverrides, records: readonly SourceRecord[]): string[] {
  index.sync(buildRecordSet(records));
  const resolution = resolveOrThrow(buildContract(overrides), records);
  const sql = index.admit(valueOf(lowerResolved(resolution, driver.maxParameters)));
  valueOf(admit(resolution, sql));
  return [...sql].sort();
}

describe('lowerAdmission', () => {
  it('binds every contract value as a parameter and never splices it into the SQL', () => {
    const contract = buildContract({
      project: INJECTION,
      scopes: [INJECTION],
      purpose: INJECTION,
      denyLabels: [INJECTION],
      subject: INJECTION,
    });
    const lowered = valueOf(lowerResolved(resolveOrThrow(contract, [buildRecord()]), 999));
    expect(lowered.where).not.toContain('OR 1=1');
    expect(lowered.params).toContain(INJECTION);
  });

  it('keeps an injection attempt harmless when run against SQLite', () => {
    const records = [
      buildRecord({ id: 'a' }),
      buildRecord({ id: 'b', project: INJECTION, scope: INJECTION, access: { purposes: [INJECTION] } }),
    ];
    expect(admittedBySql({ project: INJECTION }, records)).toEqual([]);
    expect(admittedBySql({ project: INJECTION, scopes: [INJECTION], purpose: INJECTION }, records)).toEqual(['b']);
    expect(admittedBySql({ denyLabels: ["x') OR 1=1 --"] }, records)).toEqual(['a']);
  });

  it("binds each list as one value, so a contract's lists may be as long as it likes", () => {
    const scopes = Array.from({ length: 100_001 }, (_, i) => `scope-${i}`);
    const short = valueOf(lowerResolved(resolveOrThrow(buildContract(), [buildRecord()]), 999)).params.length;
    const resolved = resolveOrThrow(buildContract({ scopes: [...scopes, 'support'], denyLabels: scopes }), [
      buildRecord(),
    ]);
    expect(valueOf(lowerResolved(resolved, 999)).params.length).toBe(short + 1);
    expect(
      admittedBySql(
        {
          scopes: [...scopes, 'support'],
          principals: Array.from({ length: 500 }, (_, i) => ({
            id: `p${i}`,
            kind: 'agent' as const,
            roles: ['agent'],
          })),
        },
        [buildRecord({ id: 'a' })],
      ),
    ).toEqual(['a']);
  });

  it('refuses with LOWERING_UNSUPPORTED rather than dropping a gate when the build allows too few parameters', () => {
    const resolved = resolveOrThrow(buildContract(), [buildRecord()]);
    const needed = valueOf(lowerResolved(resolved, 10_000)).params.length;
    expect(errorOf(lowerResolved(resolved, needed - 1))).toMatchObject({ pass: 'admit', code: 'LOWERING_UNSUPPORTED' });
    expect(valueOf(lowerResolved(resolved, needed)).params).toHaveLength(needed);
  });

  it('emits the identity directory and, for a typed-evidence plan, the accepted evidence pairs for the temp tables', () => {
    const contract = buildContract({
      identities: [
        { id: 'cust-1', aliases: ['Jo'] },
        { id: 'cust-2', aliases: ['Jo'] },
      ],
      requiredPropositions: [{ id: 'p1', acceptedClasses: ['waiver', 'email'] }],
      typedEvidenceOnly: true,
    });
    const lowered = valueOf(lowerResolved(resolveOrThrow(contract, [buildRecord()]), 999));
    expect([...lowered.identityNames].sort()).toEqual([
      ['Jo', 'cust-1'],
      ['Jo', 'cust-2'],
      ['cust-1', 'cust-1'],
      ['cust-2', 'cust-2'],
    ]);
    expect(lowered.acceptedEvidence).toEqual([
      ['p1', 'email'],
      ['p1', 'waiver'],
    ]);
    expect(lowered.principalRoles).toEqual([[0, 'agent']]);
  });
});
