import { sha256 } from '../../test-support/sha256';
import { describe, expect, it } from 'vitest';
import {
  buildContract,
  buildRecord,
  errorOf,
  resolveOrThrow,
  valueOf,
  type ContractOverrides,
} from '../../test-support/builders';
import { buildAdmissionPlan, PLAN_OPERATORS, planDigest, type AdmissionPlan, type PlanClause } from './admission-plan';
import { acceptAnswer, ALL_CAPABILITIES, checkAdapterFor, type AdapterIdentity, type Capability } from './adapter';

function planOf(overrides: ContractOverrides = {}): AdmissionPlan {
  const resolution = resolveOrThrow(buildContract(overrides), [buildRecord()]);
  return buildAdmissionPlan(resolution.contract, resolution.brokenLinks);
}

function adapterWith(
  capabilities: readonly Capability[] = ALL_CAPABILITIES,
  operators = PLAN_OPERATORS,
): AdapterIdentity {
  return {
    name: 'test',
    adapterVersion: '0',
    version: '0',
    capabilities: new Set(capabilities),
    operators: new Set(operators),
  };
}

describe('the admission plan', () => {
  it('keeps every gate as its own clause, in gate order, with typed operands', () => {
    const plan = planOf({ typedEvidenceOnly: true, denyLabels: ['hr'] });
    expect(plan.clauses.map((clause) => clause.gate)).toEqual([
      'project',
      'scope',
      'identity',
      'time',
      'supersession',
      'supersession',
      'lifecycle',
      'source',
      'authority',
      'review',
      'provenance',
      'sensitivity',
      'authorisation',
      'authorisation',
      'deny',
      'evidence',
    ]);
    expect(plan.clauses.find((clause) => clause.gate === 'deny')).toEqual({
      gate: 'deny',
      op: 'list-disjoint',
      field: 'labels',
      set: { domain: 'label', values: ['hr'] },
    });
    expect(plan.clauses.find((clause) => clause.gate === 'time')).toEqual({
      gate: 'time',
      op: 'in-force-at',
      at: { type: 'decision-time', epochMs: Date.parse('2026-08-30T12:00:00Z') },
    });
  });

  it('has one digest for one meaning: set order does not change it, any gate value does', () => {
    const base = planDigest(sha256, planOf({ scopes: ['support', 'billing'] }));
    expect(planDigest(sha256, planOf({ scopes: ['billing', 'support'] }))).toBe(base);
    expect(base).toMatch(/^sha256:[0-9a-f]{64}$/);
    const changed: ContractOverrides[] = [
      { scopes: ['support'] },
      { denyLabels: ['hr'] },
      { asOf: '2026-08-30T12:00:00.001Z' },
      { purpose: 'billing' },
      { principals: [{ id: 'dana', kind: 'human', roles: ['agent', 'lead'] }] },
      { forbiddenSensitivity: ['secret'] },
      { typedEvidenceOnly: true },
    ];
    for (const overrides of changed)
      expect(
        planDigest(sha256, planOf({ scopes: ['support', 'billing'], ...overrides })),
        JSON.stringify(overrides),
      ).not.toBe(base);
    // The query, budget and task are not admission: the same plan.
    expect(
      planDigest(
        sha256,
        planOf({ scopes: ['support', 'billing'], query: 'other words', tokenBudget: 5, task: 'another task' }),
      ),
    ).toBe(base);
  });
});

describe('checkAdapterFor', () => {
  it('accepts an adapter that keeps every capability and lowers every operator', () => {
    expect(checkAdapterFor(planOf(), adapterWith()).ok).toBe(true);
  });

  it('refuses with ADAPTER_INCAPABLE, naming what is lost, when the adapter lacks a capability the plan needs', () => {
    for (const lacking of ALL_CAPABILITIES) {
      const error = errorOf(
        checkAdapterFor(planOf(), adapterWith(ALL_CAPABILITIES.filter((capability) => capability !== lacking))),
      );
      expect(error).toMatchObject({ pass: 'admit', code: 'ADAPTER_INCAPABLE' });
      expect(error.message).toContain(lacking);
    }
  });

  it('fails the plan with LOWERING_UNSUPPORTED on an operator the adapter does not lower, or one no adapter knows', () => {
    expect(
      errorOf(
        checkAdapterFor(
          planOf(),
          adapterWith(
            ALL_CAPABILITIES,
            PLAN_OPERATORS.filter((op) => op !== 'list-disjoint'),
          ),
        ),
      ),
    ).toMatchObject({ code: 'LOWERING_UNSUPPORTED' });
    const plan = planOf();
    const unknown = {
      kind: plan.kind,
      version: plan.version,
      clauses: [...plan.clauses, { gate: 'deny', op: 'fuzzy-match', field: 'labels' } as unknown as PlanClause],
    };
    expect(errorOf(checkAdapterFor(unknown, adapterWith())).message).toContain('fuzzy-match');
  });

  it('fails a plan whose operand is of another type than its field (a purpose compared with labels)', () => {
    const plan = planOf();
    const clauses = plan.clauses.map((clause): PlanClause =>
      clause.op === 'list-disjoint' ? { ...clause, set: { domain: 'purpose', values: ['x'] } } : clause,
    );
    expect(errorOf(checkAdapterFor({ ...plan, clauses }, adapterWith()))).toMatchObject({
      code: 'LOWERING_UNSUPPORTED',
    });
  });
});

describe('acceptAnswer', () => {
  const adapter = adapterWith();
  it('takes the candidates of a complete answer that echoes this plan, and names the adapter and the echoed digest for the receipt', () => {
    const accepted = valueOf(
      acceptAnswer(adapter, 'sha256:a', {
        status: 'complete',
        candidates: new Set(['x']),
        predicateDigest: 'sha256:a',
      }),
    );
    expect([...accepted.candidates]).toEqual(['x']);
    expect(accepted.admission).toEqual({ adapter: 'test', adapterVersion: '0', planDigest: 'sha256:a' });
  });

  it('refuses an answer to another plan (a replayed plan) with ADAPTER_MISMATCH', () => {
    expect(
      errorOf(
        acceptAnswer(adapter, 'sha256:a', {
          status: 'complete',
          candidates: new Set(['x']),
          predicateDigest: 'sha256:b',
        }),
      ),
    ).toMatchObject({ code: 'ADAPTER_MISMATCH' });
  });

  it('refuses an incomplete answer with ADAPTER_INCOMPLETE, saying why', () => {
    const error = errorOf(
      acceptAnswer(adapter, 'sha256:a', {
        status: 'incomplete',
        problem: 'the statement timed out',
        predicateDigest: 'sha256:a',
      }),
    );
    expect(error).toMatchObject({ code: 'ADAPTER_INCOMPLETE' });
    expect(error.message).toContain('timed out');
  });
});
