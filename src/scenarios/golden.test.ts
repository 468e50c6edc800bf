import { sha256 } from '../core/test-support/sha256';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { readScenarioFile } from '../cli/read-scenario';
import { createSqliteCompiler, type SqliteCompiler } from '../adapters/sqlite/compiler';
import { compareStrings } from '../core/canonical';
import { drill } from '../core/drill';
import type { LoadedScenario } from '../core/phases/1-validate/validate';
import { factContextOf, renderFact } from '../core/reasons';
import type { BaselinePacket, Baselines, CompileOutcome } from '../core/result';
import { openInMemoryDatabase } from '../sqlite/load-sqlite';
import { BUILTIN_SCENARIOS, builtinScenarioPath } from './builtin';
import { prepareScenario, type ScenarioSelection } from '../core/compile';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const updating = process.env.UPDATE_GOLDEN === '1';
const REGENERATE = 'UPDATE_GOLDEN=1 npx vitest run src/scenarios/golden.test.ts';

interface Variant {
  readonly name: string;
  readonly selection: ScenarioSelection;
}

/** The default, each control alone, and each late change alone: the states a trainee can reach in one click. */
function variantsOf(loaded: LoadedScenario): Variant[] {
  const { controls, lateChanges } = loaded.scenario;
  return [
    { name: 'default', selection: { controls: [], lateChanges: [] } },
    ...controls.map((control) => ({
      name: `control-${control.id}`,
      selection: { controls: [control.id], lateChanges: [] },
    })),
    ...lateChanges.map((change) => ({
      name: `late-${change.id}`,
      selection: { controls: [], lateChanges: [change.id] },
    })),
  ];
}

function baselineSummary(baseline: BaselinePacket) {
  return {
    selected: baseline.selected,
    tokens: `${baseline.tokensUsed}/${baseline.tokenBudget}`,
    illegal: baseline.illegal,
    requiredMissed: baseline.requiredMissed,
  };
}

/**
 * What a reviewer reads in a golden file: every decision with its reason and score, the baselines, and the receipt id
 * that seals them.
 */
function summarise({ outcome, baselines }: Compiled) {
  const { receipt } = outcome;
  const context = factContextOf(receipt.contract);
  return {
    status: outcome.status,
    failure: receipt.failure && {
      code: receipt.failure.code,
      recordId: receipt.failure.recordId,
      fact: renderFact(receipt.failure, context),
    },
    selected: receipt.selected,
    tokens: `${receipt.tokensUsed}/${receipt.contract.tokenBudget}`,
    ranking: receipt.ranking,
    trace: Object.fromEntries(outcome.trace.map((row) => [row.id, `${row.code}: ${renderFact(row, context)}`])),
    scores: Object.fromEntries(
      [...outcome.ranked]
        .sort((a, b) => compareStrings(a.id, b.id))
        .map((entry) => [entry.id, { rank: entry.rank, score: entry.score }]),
    ),
    evidence: Object.fromEntries(
      receipt.evidence.map((slot) => [slot.proposition, { state: slot.state, records: slot.records }]),
    ),
    decisionBlockedBy: receipt.decisionBlockedBy,
    naive: baselineSummary(baselines.naive),
    postFilter: baselineSummary(baselines.postFilter),
    receiptId: receipt.receiptId,
  };
}

interface Compiled {
  readonly outcome: CompileOutcome;
  readonly baselines: Baselines;
}

interface LoadedBuiltin {
  readonly loaded: LoadedScenario;
  readonly compiler: SqliteCompiler;
}

async function loadBuiltin(id: (typeof BUILTIN_SCENARIOS)[number]['id']): Promise<LoadedBuiltin> {
  const loaded = await readScenarioFile(`${repoRoot}${builtinScenarioPath(id)}`);
  if (!loaded.ok) throw new Error(`${id}: ${loaded.error.message}`);
  return { loaded: loaded.value, compiler: createSqliteCompiler(sha256, await openInMemoryDatabase()) };
}

async function compileWithBaselines(
  { loaded, compiler }: LoadedBuiltin,
  selection: ScenarioSelection,
): Promise<Compiled> {
  const request = prepareScenario(sha256, loaded, selection);
  if (!request.ok) throw new Error(request.error.message);
  const outcome = await compiler.compile(request.value);
  if (!outcome.ok) throw new Error(`${outcome.error.code}: ${outcome.error.message}`);
  return { outcome: outcome.value, baselines: compiler.baselines(request.value, outcome.value) };
}

async function compileVariant(builtin: LoadedBuiltin, selection: ScenarioSelection): Promise<CompileOutcome> {
  return (await compileWithBaselines(builtin, selection)).outcome;
}

describe.each(BUILTIN_SCENARIOS)('golden outcomes of $id', ({ id }) => {
  const expectedFolder = `${repoRoot}fixtures/${id}/expected`;
  let builtin: LoadedBuiltin;
  beforeAll(async () => {
    builtin = await loadBuiltin(id);
  });

  it('matches every expected file, and has no expected file without a variant', async () => {
    const variants = variantsOf(builtin.loaded);
    if (updating) mkdirSync(expectedFolder, { recursive: true });
    for (const variant of variants) {
      const file = `${expectedFolder}/${variant.name}.json`;
      const actual = summarise(await compileWithBaselines(builtin, variant.selection));
      if (updating) {
        writeFileSync(file, `${JSON.stringify(actual, null, 2)}\n`);
        continue;
      }
      expect(existsSync(file), `${file} is missing; create it with ${REGENERATE}`).toBe(true);
      const expected: unknown = JSON.parse(readFileSync(file, 'utf8'));
      expect(
        actual,
        `fixtures/${id}/expected/${variant.name}.json differs; if the change is intended, regenerate with ${REGENERATE}`,
      ).toEqual(expected);
    }
    const expectedNames = readdirSync(expectedFolder)
      .map((name) => name.replace(/\.json$/, ''))
      .sort();
    expect(expectedNames).toEqual(variants.map((variant) => variant.name).sort());
  });
});

describe.each(BUILTIN_SCENARIOS)('fire drill of $id', ({ id }) => {
  let builtin: LoadedBuiltin;
  beforeAll(async () => {
    builtin = await loadBuiltin(id);
  });

  it('each late change makes the default receipt stale, and the recompiled receipt may continue', async () => {
    for (const change of builtin.loaded.scenario.lateChanges) {
      const prior = (await compileVariant(builtin, { controls: [], lateChanges: [] })).receipt;
      const current = prepareScenario(sha256, builtin.loaded, { controls: [], lateChanges: [change.id] });
      if (!current.ok) throw new Error(current.error.message);
      const stale = await drill(builtin.compiler, {
        ...current.value,
        priorReceipt: prior,
        declaredChanges: [change.id],
      });
      expect(stale.action, `${change.id}: ${stale.message}`).toBe('recompile_required');
      const recompiled = (await compileVariant(builtin, { controls: [], lateChanges: [change.id] })).receipt;
      const resumed = await drill(builtin.compiler, {
        ...current.value,
        priorReceipt: recompiled,
        declaredChanges: [change.id],
      });
      expect(resumed.action, `${change.id}: ${resumed.message}`).toBe('continue');
    }
  });
});

describe('headline facts of the built-in scenarios', () => {
  let retry: LoadedBuiltin;
  let atlas: LoadedBuiltin;
  let refund: LoadedBuiltin;
  beforeAll(async () => {
    [retry, atlas, refund] = await Promise.all([
      loadBuiltin('retry-policy'),
      loadBuiltin('atlas-credit-review'),
      loadBuiltin('refund-desk'),
    ]);
  });
  const none: ScenarioSelection = { controls: [], lateChanges: [] };

  it('retry-policy: naive top-k is all illegal and misses ADR-0234; the compiled packet protects it', async () => {
    const { outcome, baselines } = await compileWithBaselines(retry, none);
    const { naive, postFilter } = baselines;
    expect(naive.selected).toHaveLength(5);
    expect(`${naive.tokensUsed}/${naive.tokenBudget}`).toBe('90/96');
    expect(naive.illegal).toEqual(naive.selected);
    expect(naive.requiredMissed).toEqual(['ADR-0234']);
    expect(postFilter.selected).toEqual([]);
    if (outcome.status !== 'packet') throw new Error(`expected a packet, got ${outcome.failure.code}`);
    expect(outcome.packet.entries.map((entry) => entry.id)).toContain('ADR-0234');
    expect(outcome.counts).toEqual({ candidates: 13, admitted: 5, selected: 4, excluded: 9 });
    expect(outcome.packet.tokensUsed).toBe(74);
  });

  it('retry-policy: excluded records carry reasons from many different gates', async () => {
    const outcome = await compileVariant(retry, none);
    const codes = new Set(outcome.trace.filter((row) => row.decision === 'excluded').map((row) => row.code));
    expect(codes.size).toBeGreaterThanOrEqual(9);
  });

  it.each([
    ['future-reveal', 'ADR-0240', 'EXCLUDE_FUTURE'],
    ['superseded-decision', 'ADR-0198', 'EXCLUDE_SUPERSEDED'],
    ['generated-draft', 'GEN-0003', 'EXCLUDE_LIFECYCLE'],
    ['rejected-writer-plan', 'PLAN-0150', 'EXCLUDE_LIFECYCLE'],
    ['ambiguous-identity', 'NOTE-0311', 'EXCLUDE_IDENTITY'],
  ])(
    'retry-policy control %s: naive top-k swallows %s, the compiler excludes it with %s',
    async (control, poison, code) => {
      const { outcome, baselines } = await compileWithBaselines(retry, { controls: [control], lateChanges: [] });
      expect(baselines.naive.selected).toContain(poison);
      expect(outcome.trace.find((row) => row.id === poison)?.code).toBe(code);
      expect(outcome.receipt.selected).not.toContain(poison);
    },
  );

  it('retry-policy: removing required provenance fails closed with no packet', async () => {
    const outcome = await compileVariant(retry, { controls: ['remove-provenance'], lateChanges: [] });
    expect(outcome.status).toBe('fail_closed');
    expect(outcome.receipt.failure?.code).toBe('REQUIRED_MISSING_PROVENANCE');
    expect(outcome.receipt.packetFingerprint).toBeNull();
    expect(outcome.receipt.selected).toEqual([]);
  });

  it('retry-policy: a budget below the required record fails closed with REQUIRED_OVER_BUDGET', async () => {
    const outcome = await compileVariant(retry, { controls: ['tight-budget'], lateChanges: [] });
    expect(outcome.status).toBe('fail_closed');
    expect(outcome.receipt.failure?.code).toBe('REQUIRED_OVER_BUDGET');
  });

  it('retry-policy: promoting RUN-0880 still emits a packet, now with RUN-0880 required', async () => {
    const outcome = await compileVariant(retry, { controls: [], lateChanges: ['promote-run-0880'] });
    if (outcome.status !== 'packet') throw new Error(`expected a packet, got ${outcome.failure.code}`);
    expect(outcome.packet.entries.find((entry) => entry.id === 'RUN-0880')?.required).toBe(true);
    expect((await compileVariant(retry, none)).receipt.selected).not.toContain('RUN-0880');
  });

  it('atlas: waiver_valid is unknown and blocks the decision; the investigation note stays out', async () => {
    const outcome = await compileVariant(atlas, none);
    expect(outcome.status).toBe('packet');
    expect(outcome.receipt.evidence.find((slot) => slot.proposition === 'waiver_valid')?.state).toBe('unknown');
    expect(outcome.receipt.decisionBlockedBy).toEqual(['waiver_valid']);
    expect(outcome.trace.find((row) => row.id === 'N7')?.code).toBe('EXCLUDE_EVIDENCE_CLASS');
    expect(outcome.trace.find((row) => row.id === 'W-55')?.code).toBe('EXCLUDE_EXPIRED');
  });

  it('atlas: a permit to the investigation note does not beat the deny', async () => {
    const outcome = await compileVariant(atlas, { controls: ['grant-agent-permit'], lateChanges: [] });
    expect(outcome.trace.find((row) => row.id === 'X9')?.code).toBe('EXCLUDE_DENY_LABEL');
  });

  it('atlas: an officer-approved waiver makes waiver_valid supported', async () => {
    const outcome = await compileVariant(atlas, { controls: ['officer-approves-waiver'], lateChanges: [] });
    expect(outcome.receipt.evidence.find((slot) => slot.proposition === 'waiver_valid')?.state).toBe('supported');
    expect(outcome.receipt.decisionBlockedBy).toEqual([]);
  });

  it.each(['default', 'email-insists'])(
    'refund (%s): the email supports exception_requested, never exception_approved',
    async (variant) => {
      const outcome = await compileVariant(
        refund,
        variant === 'default' ? none : { controls: [variant], lateChanges: [] },
      );
      if (outcome.status !== 'packet') throw new Error(`expected a packet, got ${outcome.failure.code}`);
      const slot = (id: string) => outcome.evidence.find((candidate) => candidate.proposition === id);
      expect(slot('exception_approved')?.state).toBe('unknown');
      expect(slot('exception_approved')?.notAccepted).toEqual(['EML-5521']);
      expect(slot('exception_requested')?.state).toBe('supported');
      expect(outcome.decisionBlockedBy).toEqual(['exception_approved']);
    },
  );

  it('refund: a real approval record makes exception_approved supported', async () => {
    const outcome = await compileVariant(refund, { controls: ['real-approval'], lateChanges: [] });
    expect(outcome.receipt.evidence.find((slot) => slot.proposition === 'exception_approved')?.state).toBe('supported');
  });
});
