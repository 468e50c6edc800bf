import { sha256InNode } from '../../lib/node-sha256';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRecordSet } from '../../core/phases/1-validate/validate';
import type { AdmissionPlan, PlanClause } from '../../core/phases/4-admit/admission-plan';
import { planDigest } from '../../core/phases/4-admit/admission-plan';
import type { AdmittingStore } from '../../core/phases/4-admit/adapter';
import { openTestDatabase, POSTGRES_URL } from '../postgres/test-server';
import { createUnicodeTokeniser } from '../postgres/unicode61';
import { postgresUnderTest, sqliteUnderTest } from './adapters';
import { conformanceCases } from './corpus';
import type { AdapterUnderTest } from './conformance-suite';

/**
 * Plans no contract can produce (the formats require at least one role, purpose, scope and class), written
 * by hand: an adapter is handed a plan, not a contract, and must still read an empty set as empty.
 */
const EMPTY_SETS: readonly { readonly name: string; readonly clause: PlanClause; readonly admitsAll: boolean }[] = [
  {
    name: 'no allowed scope',
    clause: { gate: 'scope', op: 'member-of', field: 'scope', set: { domain: 'scope', values: [] } },
    admitsAll: false,
  },
  {
    name: 'no forbidden lifecycle',
    clause: { gate: 'lifecycle', op: 'not-member-of', field: 'lifecycle', set: { domain: 'lifecycle', values: [] } },
    admitsAll: true,
  },
  {
    name: 'no deny label',
    clause: { gate: 'deny', op: 'list-disjoint', field: 'labels', set: { domain: 'label', values: [] } },
    admitsAll: true,
  },
  {
    name: 'a principal with no roles',
    clause: {
      gate: 'authorisation',
      op: 'every-group-meets-list',
      field: 'roles',
      groups: [
        { domain: 'role', values: ['agent'] },
        { domain: 'role', values: [] },
      ],
    },
    admitsAll: false,
  },
  {
    name: 'no principal at all',
    clause: { gate: 'authorisation', op: 'every-group-meets-list', field: 'roles', groups: [] },
    admitsAll: true,
  },
  {
    name: 'no required record and no accepted class',
    clause: {
      gate: 'evidence',
      op: 'required-or-accepted-evidence',
      required: { domain: 'record-id', values: [] },
      accepted: [],
    },
    admitsAll: false,
  },
];

async function admittedBy(adapter: AdmittingStore, clause: PlanClause): Promise<number> {
  const plan: AdmissionPlan = { kind: 'admission-plan', version: 1, clauses: [clause] };
  const answer = await adapter.admit(plan, planDigest(sha256InNode, plan));
  if (!answer.ok || answer.value.status !== 'complete') throw new Error('no complete answer');
  return answer.value.candidates.size;
}

function checks(under: () => AdapterUnderTest) {
  const corpus = conformanceCases(0).find((item) => item.name.startsWith('deny alone: no deny'));
  for (const { name, clause, admitsAll } of EMPTY_SETS) {
    it(`${name}: ${admitsAll ? 'every record' : 'no record'}`, async () => {
      const adapter = under();
      await adapter.load(createRecordSet(sha256InNode, corpus?.records ?? []));
      expect(await admittedBy(await adapter.adapter(), clause)).toBe(admitsAll ? corpus?.records.length : 0);
    });
  }
}

describe('empty sets in a plan', () => {
  describe('SQLite', () => {
    let under: AdapterUnderTest;
    beforeAll(async () => {
      under = await sqliteUnderTest();
    });
    checks(() => under);
  });
  describe.skipIf(POSTGRES_URL === undefined)('PostgreSQL', () => {
    let under: AdapterUnderTest;
    beforeAll(async () => {
      under = postgresUnderTest(await openTestDatabase(), createUnicodeTokeniser());
    });
    checks(() => under);
  });
});
