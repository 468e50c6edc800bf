import { beforeAll, describe, expect, it } from 'vitest';
import { runErrorSemantics } from './error-semantics';
import { openTestDatabase, POSTGRES_URL, type TestDatabase } from '../postgres/test-server';
import { type Tokeniser } from '../postgres/tokens';
import { createUnicodeTokeniser } from '../postgres/unicode61';
import { postgresUnderTest, referenceCompile, sqliteUnderTest } from './adapters';
import { runConformanceSuite, type AdapterUnderTest, type SuiteFinding } from './conformance-suite';

function expectAllPassed(findings: readonly SuiteFinding[]) {
  for (const finding of findings)
    expect(finding.passed, `${finding.adapter} ${finding.section}: ${finding.what}`).toBe(true);
  expect(findings.map((finding) => finding.section)).toEqual(['conformance', 'mutation']);
}

describe('the conformance suite (a release gate for every adapter)', () => {
  it('SQLite: the same admitted sets, reason codes and receipts as the reference, and every mutant killed', async () => {
    expectAllPassed(await runConformanceSuite([await sqliteUnderTest()], await referenceCompile()));
  });

  describe.skipIf(POSTGRES_URL === undefined)('PostgreSQL', () => {
    let database: TestDatabase;
    let tokeniser: Tokeniser;
    beforeAll(async () => {
      database = await openTestDatabase();
      tokeniser = createUnicodeTokeniser();
    });

    it('the same admitted sets, reason codes and receipts as the reference, and every mutant killed', async () => {
      expectAllPassed(await runConformanceSuite([postgresUnderTest(database, tokeniser)], await referenceCompile()));
    });

    it('a timeout, a dropped connection and a partial result end in ADAPTER_INCOMPLETE and no packet; an unknown operator fails the plan', async () => {
      const findings = await runErrorSemantics(database, () => database.reopen(), tokeniser);
      expect(findings).toHaveLength(4);
      for (const item of findings) expect(item.passed, item.what).toBe(true);
    });
  });
});

describe('the suite itself', () => {
  it('fails an adapter whose lowering loses the deny clause, and names the cases it got wrong', async () => {
    const sound = await sqliteUnderTest();
    const inner = await sound.adapter();
    const broken: AdapterUnderTest = {
      ...sound,
      name: 'sqlite without deny',
      adapter: async () => ({
        ...inner,
        admit: (plan, digest) =>
          inner.admit({ ...plan, clauses: plan.clauses.filter((clause) => clause.gate !== 'deny') }, digest),
      }),
    };
    const [conformance] = await runConformanceSuite([broken], await referenceCompile(), { mutations: false });
    expect(conformance?.passed).toBe(false);
    expect(conformance?.what).toContain('deny alone: deny labels among look-alikes: ADAPTER_MISMATCH');
  });
});
