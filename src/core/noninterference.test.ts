import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCompiler, type Compiler } from './compile';
import { createRecordSet } from './passes/validate';
import { buildContract, buildRecord, valueOf } from './test-support/builders';
import { noninterferenceArbitrary, noninterferenceDifferences } from './test-support/noninterference';
import { propertyParameters } from './test-support/arbitraries';
import { sharedDriver } from './test-support/node-driver';

const RUNS = 400;
const TIMEOUT_MS = 240_000;

let compiler: Compiler;

beforeAll(async () => {
  compiler = createCompiler(await sharedDriver());
});

describe('noninterference', () => {
  it(
    'changing, adding or removing records that fail a gate changes nothing the caller gets',
    () => {
      let checked = 0;
      fc.assert(
        fc.property(noninterferenceArbitrary, (input) => {
          const differences = noninterferenceDifferences(compiler, input);
          fc.pre(differences !== null);
          checked += 1;
          expect(differences).toEqual([]);
        }),
        propertyParameters(RUNS),
      );
      // Most generated cases have a record to change; a generator drifting into discards would test nothing.
      expect(checked).toBeGreaterThan(RUNS / 2);
    },
    TIMEOUT_MS,
  );

  it('holds on the case the issue measured: denied records that match the query leave scores and order alone', () => {
    const contract = buildContract({ query: 'refund policy window', denyLabels: ['legal_hold'], tokenBudget: 25 });
    const admitted = [
      buildRecord({ id: 'a', title: 'Refund window', text: 'refund window of thirty days', tokens: 10 }),
      buildRecord({ id: 'b', title: 'Policy notes', text: 'refund policy refund policy notes', tokens: 10 }),
      buildRecord({ id: 'c', title: 'Window', text: 'policy window', tokens: 10 }),
    ];
    const hidden = Array.from({ length: 40 }, (_, index) => buildRecord({ id: `hold-${index}`, title: 'Refund policy', text: 'refund refund refund policy', access: { labels: ['legal_hold'] } }));
    const alone = valueOf(compiler.compile({ contract, recordSet: createRecordSet(admitted) }));
    const crowded = valueOf(compiler.compile({ contract, recordSet: createRecordSet([...admitted, ...hidden]) }));
    const ranked = (outcome: typeof alone) => outcome.trace.filter((row) => row.rank !== null).map((row) => [row.id, row.rank, row.score]);
    expect(ranked(crowded)).toEqual(ranked(alone));
    expect(crowded.receipt.selected).toEqual(alone.receipt.selected);
    expect(crowded.receipt.ranking).toEqual(alone.receipt.ranking);
  });
});
