import { z } from 'zod';
import { addRuleIssue } from './rule-issue';
import { REASONS, type ReasonCode } from '../reasons';
import { GATE_ORDER } from '../result';
import { idSchema, nameSchema } from './identifier';

/**
 * An expectation suite (`*.expect.json`): what a contract must decide, written down so that it can be
 * checked (`context-compiler test`). A suite names its inputs once; each case names the controls and late
 * changes it switches on (or several sets of them, a small matrix) and what it expects. Read it with
 * `parseExpectationSuiteJson`, which refuses reserved keys (`__proto__`) before zod would drop them.
 */

const REASON_CODES = Object.keys(REASONS) as [ReasonCode, ...ReasonCode[]];
export const reasonCodeSchema = z.enum(REASON_CODES);

const idListSchema = z.array(idSchema);

/** Facts about the compiled packet's ids; each given one must hold. */
export const selectedExpectationSchema = z
  .strictObject({
    /** Exactly these ids, in any order. */
    exactly: idListSchema.optional(),
    /** Exactly these ids, in this order (the packet's order). */
    inOrder: idListSchema.optional(),
    /** At least these ids. */
    includes: idListSchema.optional(),
    /** None of these ids. */
    excludes: idListSchema.optional(),
  })
  .refine((value) => Object.keys(value).length > 0, 'give at least one of exactly, inOrder, includes, excludes');

export const recordExpectationSchema = z
  .strictObject({
    decision: z.enum(['selected', 'excluded']).optional(),
    code: reasonCodeSchema.optional(),
    /** Exactly the gates the record fails, in any order; `[]` means it passes every gate. */
    gates: z.array(z.enum(GATE_ORDER)).optional(),
  })
  .refine((value) => Object.keys(value).length > 0, 'give at least one of decision, code, gates');

export const evidenceExpectationSchema = z.strictObject({
  state: z.enum(['supported', 'contradicted', 'unknown']),
});

/** What a compilation that emits no packet must have refused with. */
export const failureExpectationSchema = z.strictObject({
  code: reasonCodeSchema.optional(),
  /** The record the refusal names (the required record that failed, say). */
  record: idSchema.optional(),
});

/** The fire drill: freeze the case's receipt, declare these late changes, try to continue, recompile, continue. */
export const drillExpectationSchema = z
  .strictObject({
    lateChanges: idListSchema.min(1),
    /** The verdict on the frozen receipt once the changes are declared. */
    verdict: reasonCodeSchema.optional(),
    action: z.enum(['continue', 'recompile_required', 'block']).optional(),
    /** The verdict on the receipt recompiled with the changes applied. */
    afterRecompile: reasonCodeSchema.optional(),
  })
  .refine(
    (value) => value.verdict !== undefined || value.action !== undefined || value.afterRecompile !== undefined,
    'give at least one of verdict, action, afterRecompile',
  );

/** A relevance-only packet under the same budget (naive top-k, or post-filter top-k). */
export const baselineExpectationSchema = z
  .strictObject({
    /** How many records it selects. */
    selectedCount: z.int().min(0).optional(),
    /** How many of them the legality gates refuse. */
    illegal: z.int().min(0).optional(),
    /** Exactly the contract's required records it misses, in any order. */
    requiredMissed: idListSchema.optional(),
  })
  .refine((value) => Object.keys(value).length > 0, 'give at least one of selectedCount, illegal, requiredMissed');

export const OUTCOMES = ['packet', 'fail_closed'] as const;

export const expectationSchema = z
  .strictObject({
    /**
     * `fail_closed` also covers inputs the compiler refuses before admission (an ambiguous subject, say): in both, no
     * packet.
     */
    outcome: z.enum(OUTCOMES).optional(),
    /** Implies `outcome: "fail_closed"`. */
    failure: failureExpectationSchema.optional(),
    selected: selectedExpectationSchema.optional(),
    records: z.record(idSchema, recordExpectationSchema).optional(),
    evidence: z.record(nameSchema, evidenceExpectationSchema).optional(),
    drill: drillExpectationSchema.optional(),
    naive: baselineExpectationSchema.optional(),
    postFilter: baselineExpectationSchema.optional(),
  })
  .superRefine((value, ctx) => {
    if (Object.keys(value).length === 0) addRuleIssue(ctx, [], 'CASE_EXPECTS_NOTHING');
    if (value.outcome === 'packet' && value.failure !== undefined)
      addRuleIssue(ctx, ['failure'], 'FAILURE_WITH_PACKET');
  });

const changeIdsSchema = z.array(idSchema).default([]);

/** One set of switches a case is run under. */
export const controlSetSchema = z.strictObject({
  /** Shown in results instead of the list of switches. */
  name: nameSchema.optional(),
  controls: changeIdsSchema,
  lateChanges: changeIdsSchema,
});

export const expectationCaseSchema = z
  .strictObject({
    name: nameSchema,
    description: z.string().default(''),
    controls: z.array(idSchema).optional(),
    lateChanges: z.array(idSchema).optional(),
    /** Runs the same expectations under each set of switches, instead of `controls` and `lateChanges`. */
    matrix: z.array(controlSetSchema).min(1).optional(),
    /** Not run, and reported as skipped: `true`, or the reason. */
    skip: z.union([z.literal(true), nameSchema]).optional(),
    /** Run only the cases of this suite marked `only`; the others are reported as skipped. */
    only: z.literal(true).optional(),
    expect: expectationSchema,
  })
  .superRefine((value, ctx) => {
    if (value.skip !== undefined && value.only !== undefined) addRuleIssue(ctx, ['only'], 'SKIP_WITH_ONLY');
    if (value.matrix !== undefined && (value.controls !== undefined || value.lateChanges !== undefined))
      addRuleIssue(ctx, ['matrix'], 'MATRIX_WITH_SWITCHES');
  });

/** A file name or relative path, read from the suite's folder. */
const relativeFileSchema = z.string().min(1).max(1000);

/** Exactly one source: a built-in scenario, a scenario file, or a records file with a contract file. */
export const suiteInputsSchema = z
  .strictObject({
    /** A built-in scenario's id (`retry-policy`). */
    scenario: idSchema.optional(),
    /** A scenario file, relative to the suite's folder. */
    scenarioFile: relativeFileSchema.optional(),
    /** A records JSONL file and a contract file, relative to the suite's folder (they carry no controls). */
    records: relativeFileSchema.optional(),
    contract: relativeFileSchema.optional(),
  })
  .superRefine((value, ctx) => {
    const given = [
      value.scenario !== undefined,
      value.scenarioFile !== undefined,
      value.records !== undefined || value.contract !== undefined,
    ].filter(Boolean).length;
    if (given !== 1) addRuleIssue(ctx, [], 'SUITE_INPUTS_NOT_ONE');
    else if ((value.records === undefined) !== (value.contract === undefined))
      addRuleIssue(ctx, [value.records === undefined ? 'records' : 'contract'], 'RECORDS_WITHOUT_CONTRACT');
  });

/** Two cases with one name could not be told apart in a report or filtered: names are unique in a suite. */
function uniqueCaseNames(cases: readonly { readonly name: string }[], ctx: z.RefinementCtx): void {
  const first = new Map<string, number>();
  cases.forEach((entry, index) => {
    const earlier = first.get(entry.name);
    if (earlier === undefined) first.set(entry.name, index);
    else
      addRuleIssue(ctx, [index, 'name'], 'DUPLICATE_CASE_NAME', {
        name: JSON.stringify(entry.name),
        first: `[${earlier}]`,
      });
  });
}

export const expectationSuiteSchema = z.strictObject({
  /** Lets an editor find the JSON Schema; not read otherwise. */
  $schema: z.string().optional(),
  suite: nameSchema,
  description: z.string().default(''),
  inputs: suiteInputsSchema,
  cases: z.array(expectationCaseSchema).min(1).superRefine(uniqueCaseNames),
});

export type ExpectationSuite = z.output<typeof expectationSuiteSchema>;
export type ExpectationCase = z.output<typeof expectationCaseSchema>;
export type Expectation = z.output<typeof expectationSchema>;
export type SuiteInputs = z.output<typeof suiteInputsSchema>;
export type ControlSet = z.output<typeof controlSetSchema>;
export type BaselineExpectation = z.output<typeof baselineExpectationSchema>;
