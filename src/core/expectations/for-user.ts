import type { ReceiptVerdict } from '../drill';
import { discloseOutcome } from '../disclosure';
import { compileError, type CompileError } from '../errors';
import type { Expectation } from '../format/expectation';
import type { JsonPath } from '../format/json-text';
import { REASONS } from '../reasons';
import type { CompileOutcome } from '../result';
import type { Mismatch, Observed } from './check';

/**
 * A case as the user view may check it. The view shows no record it withholds, so an expectation about a
 * record outside it (withheld, or not there at all: the two must look alike) and the baselines (their scores
 * use records the user may not see) are not checked; only how many were left out is said, which the suite's
 * own text decides. What is checked is compared with the disclosed outcome, so no message names a withheld record.
 */
export interface UserViewCheck {
  readonly expect: Expectation;
  /** Where each expectation left unchecked is written. */
  readonly notChecked: readonly JsonPath[];
}

/** The ids the user view shows a row for: a record outside them is one "you may not see" or one not there. */
export function visibleIds(observed: Observed): ReadonlySet<string> {
  return observed.compiled.ok ? new Set(observed.compiled.value.trace.map((row) => row.id)) : new Set();
}

export function expectationForUser(expect: Expectation, visible: ReadonlySet<string>, at: JsonPath): UserViewCheck {
  const notChecked: JsonPath[] = [];
  const { naive, postFilter, records, ...rest } = expect;
  if (naive !== undefined) notChecked.push([...at, 'naive']);
  if (postFilter !== undefined) notChecked.push([...at, 'postFilter']);
  if (records === undefined) return { expect: rest, notChecked };
  const shown = Object.entries(records).filter(([id]) => {
    if (!visible.has(id)) notChecked.push([...at, 'records', id]);
    return visible.has(id);
  });
  return { expect: shown.length === 0 ? rest : { ...rest, records: Object.fromEntries(shown) }, notChecked };
}

/** A refusal before admission, worded by its reason code alone: its message may quote any record. */
function refusalForUser(error: CompileError): CompileError {
  return compileError({ pass: error.pass, code: error.code }, 'REASON_SUMMARY', { code: error.code });
}

const verdictForUser = (verdict: ReceiptVerdict): ReceiptVerdict => ({
  ...verdict,
  message: REASONS[verdict.code].summary,
  diff: verdict.userDiff,
});

function outcomeForUser(outcome: CompileOutcome): CompileOutcome {
  const view = discloseOutcome(outcome, 'user');
  if (outcome.status === 'packet') return { ...outcome, trace: view.rows };
  const hidden = view.failureMessage !== outcome.failure.message;
  // Hidden, the message is the view's: the reason's summary and that the scope cannot be processed.
  const { pass, code } = outcome.failure;
  const failure = hidden ? compileError({ pass, code }, 'SCOPE_NOT_PROCESSED', { code }) : outcome.failure;
  return {
    ...outcome,
    trace: view.rows,
    failure,
    receipt: hidden ? { ...outcome.receipt, failure: null } : outcome.receipt,
  };
}

/**
 * What the user view may compare expectations with: the disclosed trace and refusal, no baselines, verdicts by their
 * codes.
 */
export function observedForUser(observed: Observed): Observed {
  const { compiled, drill } = observed;
  const shownDrill =
    drill === null || 'notRun' in drill
      ? drill
      : {
          stale: verdictForUser(drill.stale),
          resumed: drill.resumed && verdictForUser(drill.resumed),
          recompileError: drill.recompileError && refusalForUser(drill.recompileError),
        };
  return {
    compiled: compiled.ok
      ? { ok: true, value: outcomeForUser(compiled.value) }
      : { ok: false, error: refusalForUser(compiled.error) },
    baselines: null,
    drill: shownDrill,
  };
}

/** A mismatch links to its record only when the view shows that record. */
export function linkForUser(mismatch: Mismatch, visible: ReadonlySet<string>): Mismatch {
  if (mismatch.record === undefined || visible.has(mismatch.record)) return mismatch;
  const { record: _hidden, ...rest } = mismatch;
  return rest;
}
