import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCompiler, type CompileRequest, type Compiler } from './compile';
import type { Contract } from './format/contract';
import type { SourceRecord } from './format/record';
import { serialiseReceipt } from './passes/attest';
import { createRecordSet } from './passes/validate';
import { caseArbitrary, propertyParameters } from './test-support/arbitraries';
import { freshDriver, sharedDriver } from './test-support/node-driver';

/** Each run compiles every step twice (kept compiler, fresh database): the fresh one is the slow part. */
const RUNS = 60;
const TIMEOUT_MS = 240_000;

let kept: Compiler;

beforeAll(async () => {
  kept = createCompiler(await sharedDriver());
});

type Step =
  | { readonly kind: 'replace-record' | 'append-record' | 'drop-record' | 'flip-lifecycle' | 'add-label'; readonly position: number }
  | { readonly kind: 'other-contract' | 'other-query' | 'other-budget' | 'other-as-of' | 'same-again' };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('replace-record' as const, 'append-record' as const, 'drop-record' as const, 'flip-lifecycle' as const, 'add-label' as const),
    position: fc.nat(20),
  }),
  fc.record({ kind: fc.constantFrom('other-contract' as const, 'other-query' as const, 'other-budget' as const, 'other-as-of' as const, 'same-again' as const) }),
);

function applyStep(step: Step, contract: Contract, records: readonly SourceRecord[], other: { contract: Contract; records: readonly SourceRecord[] }) {
  switch (step.kind) {
    case 'replace-record': {
      // The other case numbers its records the same way (r0, r1, …), so this is a new version of the same id.
      const replacement = other.records[step.position % Math.max(other.records.length, 1)];
      if (replacement === undefined) return { contract, records };
      const at = records.findIndex((record) => record.id === replacement.id);
      return { contract, records: at < 0 ? records : records.map((record, index) => (index === at ? replacement : record)) };
    }
    case 'append-record': {
      const source = other.records[step.position % Math.max(other.records.length, 1)];
      if (source === undefined) return { contract, records };
      return { contract, records: [...records, { ...source, id: `${source.id}-copy-${records.length}`, supersedes: [] }] };
    }
    // Metadata-only changes, as most controls make: the supersession links and the text stay as they were.
    case 'flip-lifecycle':
      return { contract, records: patchAt(records, step.position, (record) => ({ ...record, lifecycle: record.lifecycle === 'active' ? 'draft' : 'active' })) };
    case 'add-label':
      return { contract, records: patchAt(records, step.position, (record) => ({ ...record, access: { ...record.access, labels: [...new Set([...record.access.labels, 'investigation'])] } })) };
    case 'drop-record':
      return { contract, records: records.filter((_, index) => index !== step.position % Math.max(records.length, 1)) };
    case 'other-contract':
      return { contract: other.contract, records };
    case 'other-query':
      return { contract: { ...contract, query: other.contract.query }, records };
    case 'other-budget':
      return { contract: { ...contract, tokenBudget: Math.max(1, Math.floor(contract.tokenBudget / 2)) }, records };
    case 'other-as-of':
      return { contract: { ...contract, asOf: other.contract.asOf === contract.asOf ? '2026-08-31' : other.contract.asOf }, records };
    case 'same-again':
      return { contract, records };
  }
}

function patchAt(records: readonly SourceRecord[], position: number, patch: (record: SourceRecord) => SourceRecord): readonly SourceRecord[] {
  const at = position % Math.max(records.length, 1);
  return records.map((record, index) => (index === at ? patch(record) : record));
}

/** Everything a compilation shows: the receipt bytes, the trace rows, the counts and the baselines; or the error. */
function observable(compiler: Compiler, request: CompileRequest): unknown {
  const result = compiler.compile(request);
  if (!result.ok) return { error: result.error };
  const { receipt, trace, counts, status, admitted } = result.value;
  return { status, receipt: serialiseReceipt(receipt), trace, counts, admitted: [...admitted].sort(), baselines: compiler.baselines(request, result.value) };
}

describe('a compiler that reuses its previous work', () => {
  it(
    'produces exactly what a fresh compiler on a fresh database produces, step after step',
    async () => {
      await fc.assert(
        fc.asyncProperty(caseArbitrary, caseArbitrary, fc.array(stepArbitrary, { minLength: 1, maxLength: 6 }), async (first, other, steps) => {
          let contract = first.contract;
          let records: readonly SourceRecord[] = first.records;
          for (const step of [{ kind: 'same-again' } as const, ...steps]) {
            ({ contract, records } = applyStep(step, contract, records, other));
            const request = { contract, recordSet: createRecordSet(records) };
            const fresh = createCompiler(await freshDriver());
            expect(observable(kept, request)).toEqual(observable(fresh, request));
          }
        }),
        propertyParameters(RUNS),
      );
    },
    TIMEOUT_MS,
  );
});
