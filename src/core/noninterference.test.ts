import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCompiler, type Compiler } from './compile';
import { createRecordSet } from './passes/validate';
import { buildContract, buildRecord, valueOf } from './test-support/builders';
import { noninterferenceArbitrary, noninterferenceDifferences } from './test-support/noninterference';
import { discloseOutcome } from './disclosure';
import type { SourceRecord } from './format/record';
import { recordsNamedBy } from './reasons';
import type { CompileOutcome } from './result';
import {
  applyWithheldMutations,
  crossingCaseArbitrary,
  crossingSupersessions,
  userViewDifferences,
  withheldCaseArbitrary,
  withheldIdsOf,
  withoutCrossingLinks,
  type MutatedRecords,
  type WithheldCase,
} from './test-support/withheld-mutations';
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

/**
 * A case and its mutation compiled before and after, or null when it is not about withheld records: it does
 * not compile to begin with, nothing was changed, or a changed record is no longer withheld (an edit of its
 * access gave it to the caller). The case starts with no withheld record superseding a visible one.
 */
function compiledPair(input: WithheldCase): { before: CompileOutcome; after: CompileOutcome; mutated: MutatedRecords; withheldAfter: Set<string> } | null {
  const withheld = withheldIdsOf(compiler, input.contract, input.records);
  if (withheld === null) return null;
  const base = withoutCrossingLinks(input.records, withheld);
  const before = valueOf(compiler.compile({ contract: input.contract, recordSet: createRecordSet(base) }));
  const mutated = applyWithheldMutations(input, base, withheld);
  if (mutated === null) return null;
  const after = compiler.compile({ contract: input.contract, recordSet: createRecordSet(mutated.records) });
  // Records the caller may not see never stop the caller's compilation.
  if (!after.ok) throw new Error(`the mutated withheld records stopped the compilation: ${after.error.code} ${after.error.message}`);
  const withheldAfter = withheldIdsOf(compiler, input.contract, mutated.records) ?? new Set<string>();
  const present = new Set(mutated.records.map((record) => record.id));
  if ([...mutated.touched].some((id) => present.has(id) && !withheldAfter.has(id))) return null;
  return { before, after: after.value, mutated, withheldAfter };
}

/** Which ways of breaking links a mutated record set holds among its withheld records. */
function brokenAmong(records: readonly SourceRecord[], touched: ReadonlySet<string>): string[] {
  const ids = new Set(records.map((record) => record.id));
  const kinds: string[] = [];
  for (const record of records) {
    if (!touched.has(record.id)) continue;
    if (record.supersedes.some((target) => !ids.has(target))) kinds.push('dangling');
    if (record.supersedes.includes(record.id)) kinds.push('self');
    if (record.supersedes.some((target) => target !== record.id && records.find((other) => other.id === target)?.supersedes.includes(record.id))) kinds.push('cycle');
  }
  return kinds;
}

describe('noninterference of withheld records with the user view', () => {
  it(
    'changing any field of withheld records, adding or removing them, or breaking their supersession links changes nothing in the user view but the withheld count',
    () => {
      let checked = 0;
      const broken = new Map<string, number>();
      fc.assert(
        fc.property(withheldCaseArbitrary, (input) => {
          const pair = compiledPair(input);
          fc.pre(pair !== null);
          checked += 1;
          for (const kind of new Set(brokenAmong(pair.mutated.records, pair.mutated.touched))) broken.set(kind, (broken.get(kind) ?? 0) + 1);
          expect(userViewDifferences(pair.before, pair.after)).toEqual([]);
        }),
        propertyParameters(RUNS),
      );
      expect(checked).toBeGreaterThan(RUNS / 2);
      // The generator breaks links in every way, often enough that the property is about them too.
      for (const kind of ['dangling', 'self', 'cycle']) expect(broken.get(kind) ?? 0, `${kind} links`).toBeGreaterThan(RUNS / 20);
    },
    TIMEOUT_MS,
  );

  it(
    'the declared exception is the only one: the user view differs only where a withheld record supersedes a visible one, and that row says so without naming it',
    () => {
      let differed = 0;
      let worded = 0;
      fc.assert(
        fc.property(crossingCaseArbitrary, (input) => {
          const pair = compiledPair(input);
          fc.pre(pair !== null);
          const crossing = crossingSupersessions(pair.mutated.records, pair.withheldAfter);
          const differences = userViewDifferences(pair.before, pair.after);
          if (crossing.length === 0) {
            expect(differences).toEqual([]);
            return;
          }
          if (differences.length > 0) differed += 1;
          const user = discloseOutcome(pair.after, 'user');
          for (const { successor, superseded } of crossing) {
            const diagnostic = pair.after.trace.find((row) => row.id === superseded);
            if (diagnostic === undefined || !recordsNamedBy(diagnostic).includes(successor)) continue;
            worded += 1;
            expect(user.rows.find((row) => row.id === superseded)).toMatchObject({ fact: 'SUPERSEDED_BY_WITHHELD', args: {} });
          }
          expect(JSON.stringify(user)).not.toContain(`"${crossing[0]?.successor}"`);
        }),
        propertyParameters(RUNS),
      );
      // Cases that take the exception, and rows that show it: neither count may drift to nothing.
      expect(differed).toBeGreaterThan(RUNS / 20);
      expect(worded).toBeGreaterThan(RUNS / 20);
    },
    TIMEOUT_MS,
  );
});
