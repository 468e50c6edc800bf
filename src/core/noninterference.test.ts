import { sha256 } from './test-support/sha256';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSqliteCompiler, type SqliteCompiler } from '../adapters/sqlite/compiler';
import { createRecordSet, parseRecordsJsonl } from './phases/1-validate/validate';
import { buildUserView } from './user-view';
import {
  DEFECTS,
  malformedCaseArbitrary,
  malformedWithheldFile,
  recordsFileOf,
  withOtherSecrets,
  type MalformedCase,
} from './test-support/malformed-withheld';
import { buildContract, buildRecord, valueOf } from './test-support/builders';
import { noninterferenceArbitrary, noninterferenceDifferences } from './test-support/noninterference';
import { discloseOutcome } from './disclosure';
import type { SourceRecord } from './format/record';
import { recordsNamedBy } from './reasons';
import type { CompileOutcome } from './result';
import {
  userViewOf,
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
import { propertyNamed } from './test-support/property-registry';
import { freshDriver, sharedDriver } from './test-support/node-driver';

const RUNS = 400;
const TIMEOUT_MS = 240_000;

let compiler: SqliteCompiler;

beforeAll(async () => {
  compiler = createSqliteCompiler(sha256, await sharedDriver());
});

describe('noninterference', () => {
  it(
    'changing, adding or removing records that fail a gate changes nothing the caller gets',
    async () => {
      let checked = 0;
      await fc.assert(
        fc.asyncProperty(noninterferenceArbitrary, async (input) => {
          const differences = await noninterferenceDifferences(compiler, input);
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

  it(
    'for a candidates receipt too: only the counts of the rows it leaves out may move, and it names no refused record',
    async () => {
      const candidates = propertyNamed('noninterference-candidates');
      await fc.assert(
        await candidates.property({ openDatabase: freshDriver }),
        propertyParameters(candidates.testRuns),
      );
    },
    TIMEOUT_MS,
  );

  it('holds on the case the issue measured: denied records that match the query leave scores and order alone', async () => {
    const contract = buildContract({ query: 'refund policy window', denyLabels: ['legal_hold'], tokenBudget: 25 });
    const admitted = [
      buildRecord({ id: 'a', title: 'Refund window', text: 'refund window of thirty days', tokens: 10 }),
      buildRecord({ id: 'b', title: 'Policy notes', text: 'refund policy refund policy notes', tokens: 10 }),
      buildRecord({ id: 'c', title: 'Window', text: 'policy window', tokens: 10 }),
    ];
    const hidden = Array.from({ length: 40 }, (_, index) =>
      buildRecord({
        id: `hold-${index}`,
        title: 'Refund policy',
        text: 'refund refund refund policy',
        access: { labels: ['legal_hold'] },
      }),
    );
    const alone = valueOf(await compiler.compile({ contract, recordSet: createRecordSet(sha256, admitted) }));
    const crowded = valueOf(
      await compiler.compile({ contract, recordSet: createRecordSet(sha256, [...admitted, ...hidden]) }),
    );
    const ranked = (outcome: typeof alone) => outcome.ranked.map((entry) => [entry.id, entry.rank, entry.score]);
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
async function compiledPair(input: WithheldCase): Promise<{
  before: CompileOutcome;
  after: CompileOutcome;
  mutated: MutatedRecords;
  withheldAfter: Set<string>;
} | null> {
  const withheld = await withheldIdsOf(compiler, input.contract, input.records);
  if (withheld === null) return null;
  const base = withoutCrossingLinks(input.records, withheld);
  const before = valueOf(
    await compiler.compile({ contract: input.contract, recordSet: createRecordSet(sha256, base) }),
  );
  const mutated = applyWithheldMutations(input, base, withheld);
  if (mutated === null) return null;
  const after = await compiler.compile({
    contract: input.contract,
    recordSet: createRecordSet(sha256, mutated.records),
  });
  // Records the caller may not see never stop the caller's compilation.
  if (!after.ok)
    throw new Error(`the mutated withheld records stopped the compilation: ${after.error.code} ${after.error.message}`);
  const withheldAfter = (await withheldIdsOf(compiler, input.contract, mutated.records)) ?? new Set<string>();
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
    if (
      record.supersedes.some(
        (target) =>
          target !== record.id && records.find((other) => other.id === target)?.supersedes.includes(record.id),
      )
    )
      kinds.push('cycle');
  }
  return kinds;
}

describe('noninterference of withheld records with the user view', () => {
  it(
    'changing any field of withheld records, adding or removing them, or breaking their supersession links changes nothing in the user view but the withheld count',
    async () => {
      let checked = 0;
      const broken = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(withheldCaseArbitrary, async (input) => {
          const pair = await compiledPair(input);
          fc.pre(pair !== null);
          checked += 1;
          for (const kind of new Set(brokenAmong(pair.mutated.records, pair.mutated.touched)))
            broken.set(kind, (broken.get(kind) ?? 0) + 1);
          expect(userViewDifferences(pair.before, pair.after)).toEqual([]);
        }),
        propertyParameters(RUNS),
      );
      expect(checked).toBeGreaterThan(RUNS / 2);
      // The generator breaks links in every way, often enough that the property is about them too.
      for (const kind of ['dangling', 'self', 'cycle'])
        expect(broken.get(kind) ?? 0, `${kind} links`).toBeGreaterThan(RUNS / 20);
    },
    TIMEOUT_MS,
  );

  it(
    'the declared exception is the only one: the user view differs only where a withheld record supersedes a visible one, and that row says so without naming it',
    async () => {
      let differed = 0;
      let worded = 0;
      await fc.assert(
        fc.asyncProperty(crossingCaseArbitrary, async (input) => {
          const pair = await compiledPair(input);
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
            expect(user.rows.find((row) => row.id === superseded)).toMatchObject({
              fact: 'SUPERSEDED_BY_WITHHELD',
              args: {},
            });
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

/** The user view of records read from a JSONL file: its model, its document without the count, and the count. */
async function userViewFromFile(contract: MalformedCase['contract'], text: string) {
  const compiled = await compiler.compile({
    contract,
    recordSet: valueOf(parseRecordsJsonl(sha256, 'records.jsonl', text)),
  });
  // A record the caller may not see never stops the caller's compilation, however malformed.
  if (!compiled.ok)
    throw new Error(`the records file stopped the compilation: ${compiled.error.code} ${compiled.error.message}`);
  const view = discloseOutcome(compiled.value, 'user');
  const { withheldCount, withheldNotice: _notice, ...document } = buildUserView(sha256, compiled.value, view).document;
  return {
    outcome: compiled.value,
    document,
    withheldCount,
    shown: JSON.stringify({ model: userViewOf(compiled.value), document, notice: view.withheldNotice }),
  };
}

describe('noninterference of withheld records that cannot be read or judged', () => {
  it(
    'a malformed or duplicate withheld line changes nothing in the user view but the withheld count, whatever it holds, and nothing of it shows',
    async () => {
      const defects = new Map<string, number>();
      const ways = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(malformedCaseArbitrary, async (raw) => {
          const prepared = await malformedWithheldFile(
            raw,
            async (input) =>
              (await compiler.compile({ contract: input.contract, recordSet: createRecordSet(sha256, input.records) }))
                .ok,
          );
          fc.pre(prepared !== null);
          const { input, file } = prepared;
          const before = await userViewFromFile(input.contract, recordsFileOf(input, false).text);
          const after = await userViewFromFile(input.contract, file.text);
          const other = await userViewFromFile(input.contract, recordsFileOf(withOtherSecrets(input), true).text);
          expect(userViewDifferences(before.outcome, after.outcome)).toEqual([]);
          expect(after.document).toEqual(before.document);
          expect(other.document).toEqual(after.document);
          expect(other.withheldCount).toBe(after.withheldCount);
          // Counted among the withheld: the one declared way they show.
          expect(after.withheldCount).toBe(before.withheldCount + file.added.length);
          for (const line of input.lines) expect(after.shown).not.toContain(line.secret);
          for (const { defect, by } of file.added) {
            defects.set(defect, (defects.get(defect) ?? 0) + 1);
            ways.set(by, (ways.get(by) ?? 0) + 1);
          }
        }),
        propertyParameters(RUNS),
      );
      for (const defect of DEFECTS) expect(defects.get(defect) ?? 0, defect).toBeGreaterThan(RUNS / 100);
      for (const way of ['deny-label', 'missing-role', 'missing-purpose'])
        expect(ways.get(way) ?? 0, way).toBeGreaterThan(RUNS / 100);
    },
    TIMEOUT_MS,
  );

  it("on the issue's cases: a withheld duplicate of a visible id, and a withheld line that is not JSON, leave the visible record standing and show nothing", async () => {
    const contract = buildContract({ denyLabels: ['legal_hold'] });
    const visible = buildRecord({ id: 'LGL-0001', title: 'Refund policy', text: 'refund policy window' });
    const hidden = buildRecord({
      id: 'LGL-0001',
      title: 'Merger with Acme',
      text: 'merger',
      access: { labels: ['legal_hold'] },
    });
    const broken = JSON.stringify(
      buildRecord({ id: 'LGL-0007', title: 'E merger with Acme', access: { labels: ['legal_hold'] } }),
    ).replace('"text":', ' oops, "text":');
    for (const lines of [
      [hidden, visible].map((record) => JSON.stringify(record)),
      [JSON.stringify(visible), JSON.stringify(hidden), broken],
    ]) {
      const { outcome, shown, withheldCount } = await userViewFromFile(contract, lines.join('\n'));
      expect(outcome.receipt.selected).toEqual(['LGL-0001']);
      expect(outcome.status === 'packet' ? outcome.packet.entries[0]?.title : null).toBe('Refund policy');
      expect(withheldCount).toBe(lines.length - 1);
      expect(shown).not.toMatch(/Merger|merger with Acme|line \d/);
      expect(
        discloseOutcome(outcome, 'diagnostic').unreadable.flatMap((item) => item.issues.map((issue) => issue.code)),
      ).toEqual(lines.length === 2 ? ['DUPLICATE_ID'] : ['DUPLICATE_ID', 'NOT_JSON']);
    }
  });
});
