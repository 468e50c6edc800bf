import { sha256 } from './test-support/sha256';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../adapters/sqlite/compiler';
import { discloseOutcome, isWithheldFromUser } from './disclosure';
import type { Contract } from './format/contract';
import { REVIEW_STATES, type SourceRecord } from './format/record';
import { admit, createGateContext, evaluateGates, gatesIn } from './phases/4-admit/admit';
import { serialiseReceipt } from './phases/7-attest/attest';
import { lowerResolved } from './test-support/builders';
import { resolve, type Resolution } from './phases/2-resolve/resolve';
import { createRecordSet, type RecordSet } from './phases/1-validate/validate';
import { GATE_ORDER, type GateName } from './result';
import type { SqlDriver } from '../adapters/sqlite/driver';
import { createRecordIndex } from '../adapters/sqlite/record-index';
import type { RecordIndex } from '../adapters/sqlite/record-index-api';
import { createPrng, type Prng } from '../shared/prng';
import { caseArbitrary, propertyParameters, VOCABULARY } from './test-support/arbitraries';
import { freshDriver, sharedDriver } from './test-support/node-driver';
import { propertyNamed } from './test-support/property-registry';

/** About 25 s on an idle 2-core machine; the margin is for a machine shared with other test runs. */
const DIFFERENTIAL_TIMEOUT_MS = 240_000;

/** The compiler's database; the differential below has its own record index on another one. */
let compiler: SqliteCompiler;
let differentialDriver: SqlDriver;
let index: RecordIndex;

beforeAll(async () => {
  compiler = createSqliteCompiler(sha256, await sharedDriver());
  differentialDriver = await freshDriver();
  index = createRecordIndex(differentialDriver);
});

function resolveCase(contract: Contract, recordSet: RecordSet): Resolution {
  const resolution = resolve(contract, recordSet);
  // Broken supersession links are generated and resolve; the generators rule out an ambiguous contract subject.
  if (!resolution.ok) throw new Error(`generated case does not resolve: ${resolution.error.message}`);
  return resolution.value;
}

/** The SQL side alone: the record index synced to the records, then the lowered predicate. */
function sqlAdmits(resolution: Resolution, recordSet: RecordSet): ReadonlySet<string> {
  index.sync(recordSet);
  const lowered = lowerResolved(resolution, differentialDriver.maxParameters);
  if (!lowered.ok) throw new Error(lowered.error.message);
  return index.admit(lowered.value);
}

/** Admitted ids through `admit`, after checking it reported no divergence. */
function admittedIds(contract: Contract, records: readonly SourceRecord[]): Set<string> {
  const recordSet = createRecordSet(sha256, records);
  const resolution = resolveCase(contract, recordSet);
  const admission = admit(resolution, sqlAdmits(resolution, recordSet));
  if (!admission.ok) throw new Error(`admit failed: ${admission.error.code} ${admission.error.message}`);
  return new Set(admission.value.admittedIds);
}

describe('differential: SQL lowering and TypeScript evaluator', () => {
  // The property lives in the registry, so `npm run fuzz -- --property admission-differential` runs the same one for
  // millions of cases.
  const differential = propertyNamed('admission-differential');
  it(
    `agree on the admitted set over ${differential.testRuns} generated cases`,
    async () => {
      await fc.assert(
        await differential.property({ openDatabase: freshDriver }),
        propertyParameters(differential.testRuns),
      );
    },
    DIFFERENTIAL_TIMEOUT_MS,
  );

  it('uses vocabularies in which every gate both passes and fails', () => {
    const failures = new Map<GateName, number>(GATE_ORDER.map((gate) => [gate, 0]));
    const brokenLinks = new Map<string, number>([
      ['dangling', 0],
      ['self', 0],
      ['cycle', 0],
    ]);
    let admittedRecords = 0;
    let totalRecords = 0;
    for (const { records, contract } of fc.sample(caseArbitrary, { numRuns: 2_000, seed: 7 })) {
      const resolution = resolveCase(contract, createRecordSet(sha256, records));
      const context = createGateContext(resolution.contract);
      resolution.records.forEach((item) => {
        totalRecords += 1;
        if (item.brokenLink !== null)
          brokenLinks.set(item.brokenLink.kind, (brokenLinks.get(item.brokenLink.kind) ?? 0) + 1);
        const { failed } = evaluateGates(context, item);
        if (failed === 0) admittedRecords += 1;
        else for (const gate of gatesIn(failed)) failures.set(gate, (failures.get(gate) ?? 0) + 1);
      });
    }
    for (const [gate, count] of failures) {
      expect.soft(count, `${gate} fails`).toBeGreaterThan(totalRecords / 100);
      expect.soft(count, `${gate} passes`).toBeLessThan(totalRecords * 0.99);
    }
    expect(admittedRecords, 'records admitted').toBeGreaterThan(totalRecords / 200);
    // Broken supersession links of every kind, so the differential sees the SQL side apply them.
    for (const [kind, count] of brokenLinks) expect.soft(count, `${kind} links`).toBeGreaterThan(totalRecords / 500);
  });
});

type Widening = 'principal-role' | 'record-roles' | 'record-purpose' | 'allowed-classes' | 'review-states';

function widen(
  contract: Contract,
  records: readonly SourceRecord[],
  widening: Widening,
): { contract: Contract; records: SourceRecord[] } {
  switch (widening) {
    case 'principal-role':
      return {
        contract: { ...contract, principals: contract.principals.map((p) => ({ ...p, roles: [...VOCABULARY.roles] })) },
        records: [...records],
      };
    case 'record-roles':
      return {
        contract,
        records: records.map((r) => ({ ...r, access: { ...r.access, roles: [...VOCABULARY.roles] } })),
      };
    case 'record-purpose':
      return {
        contract,
        records: records.map((r) => ({
          ...r,
          access: { ...r.access, purposes: [...new Set([...r.access.purposes, contract.purpose])] },
        })),
      };
    case 'allowed-classes':
      return {
        contract: {
          ...contract,
          allowedSourceClasses: [...VOCABULARY.sourceClasses],
          allowedAuthorityClasses: [...VOCABULARY.authorityClasses],
        },
        records: [...records],
      };
    case 'review-states':
      return { contract: { ...contract, acceptedReviewStates: [...REVIEW_STATES] }, records: [...records] };
  }
}

describe('deny dominance', () => {
  const widenings: Widening[] = [
    'principal-role',
    'record-roles',
    'record-purpose',
    'allowed-classes',
    'review-states',
  ];

  it('no permit admits a record carrying a denied label', () => {
    fc.assert(
      fc.property(caseArbitrary, fc.constantFrom(...widenings), ({ records, contract }, widening) => {
        const widened = widen(contract, records, widening);
        const denied = new Set(contract.denyLabels);
        const byId = new Map(widened.records.map((record) => [record.id, record]));
        for (const id of admittedIds(widened.contract, widened.records)) {
          expect(
            byId.get(id)?.access.labels.filter((label) => denied.has(label)) ?? [],
            `${id} after ${widening}`,
          ).toEqual([]);
        }
      }),
      propertyParameters(1_000),
    );
  });

  it('adding a deny label never widens the admitted set', () => {
    fc.assert(
      fc.property(caseArbitrary, fc.constantFrom(...VOCABULARY.labels), ({ records, contract }, label) => {
        const before = admittedIds(contract, records);
        const after = admittedIds({ ...contract, denyLabels: [...contract.denyLabels, label] }, records);
        expect([...after].filter((id) => !before.has(id))).toEqual([]);
      }),
      propertyParameters(1_000),
    );
  });
});

function shuffled<T>(prng: Prng, values: readonly T[]): T[] {
  const copy = [...values];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = prng.int(0, i);
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

function shuffleContract(prng: Prng, contract: Contract): Contract {
  return {
    ...contract,
    principals: contract.principals.map((principal) => ({ ...principal, roles: shuffled(prng, principal.roles) })),
    scopes: shuffled(prng, contract.scopes),
    identities: shuffled(prng, contract.identities).map((identity) => ({
      ...identity,
      aliases: shuffled(prng, identity.aliases),
    })),
    allowedSourceClasses: shuffled(prng, contract.allowedSourceClasses),
    allowedAuthorityClasses: shuffled(prng, contract.allowedAuthorityClasses),
    acceptedReviewStates: shuffled(prng, contract.acceptedReviewStates),
    forbiddenLifecycle: shuffled(prng, contract.forbiddenLifecycle),
    forbiddenSensitivity: shuffled(prng, contract.forbiddenSensitivity),
    denyLabels: shuffled(prng, contract.denyLabels),
    requiredRecords: shuffled(prng, contract.requiredRecords),
    requiredPropositions: shuffled(prng, contract.requiredPropositions).map((p) => ({
      ...p,
      acceptedClasses: shuffled(prng, p.acceptedClasses),
    })),
  };
}

function shuffleRecord(prng: Prng, record: SourceRecord): SourceRecord {
  return {
    ...record,
    supersedes: shuffled(prng, record.supersedes),
    access: {
      roles: shuffled(prng, record.access.roles),
      purposes: shuffled(prng, record.access.purposes),
      labels: shuffled(prng, record.access.labels),
    },
    evidence: record.evidence && {
      ...record.evidence,
      supports: shuffled(prng, record.evidence.supports),
      contradicts: shuffled(prng, record.evidence.contradicts),
    },
  };
}

async function receiptBytes(
  using: SqliteCompiler,
  contract: Contract,
  records: readonly SourceRecord[],
): Promise<string> {
  const outcome = await using.compile({ contract, recordSet: createRecordSet(sha256, records) });
  if (!outcome.ok) return `error ${outcome.error.code}: ${outcome.error.message}`;
  return serialiseReceipt(outcome.value.receipt);
}

describe('order independence', () => {
  it('shuffling records and every set-like list changes no byte of the receipt', async () => {
    await fc.assert(
      fc.asyncProperty(caseArbitrary, fc.integer(), async ({ records, contract }, seed) => {
        const prng = createPrng(seed);
        const original = await receiptBytes(compiler, contract, records);
        const reordered = await receiptBytes(
          compiler,
          shuffleContract(prng, contract),
          shuffled(prng, records).map((record) => shuffleRecord(prng, record)),
        );
        expect(reordered).toBe(original);
      }),
      propertyParameters(300),
    );
  });
});

describe('receipt determinism', () => {
  it('compiling the same inputs twice gives byte-identical receipts', async () => {
    await fc.assert(
      fc.asyncProperty(caseArbitrary, async ({ records, contract }) => {
        expect(await receiptBytes(compiler, contract, records)).toBe(await receiptBytes(compiler, contract, records));
      }),
      propertyParameters(300),
    );
  });

  it('a fresh database gives the same receipt as a long-used one', async () => {
    await fc.assert(
      fc.asyncProperty(caseArbitrary, async ({ records, contract }) => {
        const fresh = createSqliteCompiler(sha256, await freshDriver());
        expect(await receiptBytes(fresh, contract, records)).toBe(await receiptBytes(compiler, contract, records));
      }),
      propertyParameters(25),
    );
  });
});

describe('compiled packets', () => {
  it('carry only admitted records, required ones first, within the budget', async () => {
    await fc.assert(
      fc.asyncProperty(caseArbitrary, async ({ records, contract }) => {
        const outcome = await compiler.compile({ contract, recordSet: createRecordSet(sha256, records) });
        if (!outcome.ok || outcome.value.status !== 'packet') return;
        const admitted = admittedIds(contract, records);
        const ids = outcome.value.packet.entries.map((entry) => entry.id);
        expect(ids.filter((id) => !admitted.has(id))).toEqual([]);
        expect(outcome.value.packet.tokensUsed).toBeLessThanOrEqual(contract.tokenBudget);
        const required = [...new Set(contract.requiredRecords)].sort();
        expect(ids.slice(0, required.length)).toEqual(required);
      }),
      propertyParameters(300),
    );
  });
});

describe('disclosure', () => {
  it('the user view never names a record withheld for authorisation or deny', async () => {
    await fc.assert(
      fc.asyncProperty(caseArbitrary, async ({ records, contract }) => {
        const outcome = await compiler.compile({ contract, recordSet: createRecordSet(sha256, records) });
        if (!outcome.ok) return;
        const withheld = new Set(outcome.value.trace.filter(isWithheldFromUser).map((row) => row.id));
        const named = new Set(JSON.stringify(discloseOutcome(outcome.value, 'user')).split(/[^\w-]+/));
        expect([...withheld].filter((id) => named.has(id))).toEqual([]);
      }),
      propertyParameters(500),
    );
  });
});
