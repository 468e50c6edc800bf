import { compareStrings } from '../canonical';
import type { ReceiptVerdict } from '../drill';
import type { CompileError } from '../errors';
import type { BaselineExpectation, Expectation } from '../format/expectation';
import type { JsonPath } from '../format/json-text';
import { factContextOf, renderFact, type FactContext } from '../reasons';
import { GATE_ORDER, type BaselinePacket, type Baselines, type CompileOutcome, type TraceRow } from '../result';

/** One expectation that does not hold: where it is written, what it said, what the compiler did. */
export interface Mismatch {
  /** The expectation's place in the suite file (`cases[1].expect.records.NOTE-0311.code`). */
  readonly path: JsonPath;
  /** What was compared, in words: `record NOTE-0311: reason code`. */
  readonly subject: string;
  /** The record that differs, when one does. */
  readonly record?: string;
  readonly expected: string;
  readonly actual: string;
}

/** What running one case produced, for the checks to compare. */
export interface Observed {
  /** The compilation, or the refusal of its inputs (by a control's patch, or a pass before admission). */
  readonly compiled:
    { readonly ok: true; readonly value: CompileOutcome } | { readonly ok: false; readonly error: CompileError };
  readonly baselines: Baselines | null;
  /**
   * The drill, when the case expects one: the verdict on the frozen receipt, then on the recompiled one; or why it
   * could not run.
   */
  readonly drill:
    | {
        readonly stale: ReceiptVerdict;
        readonly resumed: ReceiptVerdict | null;
        readonly recompileError: CompileError | null;
      }
    | { readonly notRun: string }
    | null;
}

const list = (ids: readonly string[]) => (ids.length === 0 ? 'none' : ids.join(', '));

function refusal(error: CompileError): string {
  return `refused [${error.pass}] ${error.code}${error.recordId === undefined ? '' : ` on ${error.recordId}`}: ${error.message}`;
}

function outcomeText(observed: Observed): string {
  const { compiled } = observed;
  if (!compiled.ok) return refusal(compiled.error);
  const outcome = compiled.value;
  if (outcome.status === 'packet')
    return `packet of ${outcome.packet.entries.length} (${list(outcome.packet.entries.map((entry) => entry.id))})`;
  const failure = outcome.receipt.failure;
  const fact = failure === null ? '' : `: ${renderFact(failure, factContextOf(outcome.receipt.contract))}`;
  return `fail_closed ${outcome.failure.code}${outcome.failure.recordId === undefined ? '' : ` on ${outcome.failure.recordId}`}${fact}`;
}

/** A trace row as the golden files word it: decision, reason code and its fact, and the gates it fails. */
function rowText(row: TraceRow, context: FactContext): string {
  return `${row.decision} ${row.code}: ${renderFact(row, context)}${row.gates.length === 0 ? '' : ` (fails ${row.gates.join(', ')})`}`;
}

function checkSelected(
  expected: NonNullable<Expectation['selected']>,
  actual: readonly string[],
  at: JsonPath,
  out: Mismatch[],
): void {
  const path = [...at, 'selected'];
  const shown = `selected ${list(actual)}`;
  if (expected.exactly !== undefined) {
    const want = new Set(expected.exactly);
    const have = new Set(actual);
    const missing = expected.exactly.filter((id) => !have.has(id));
    const extra = actual.filter((id) => !want.has(id));
    if (missing.length > 0 || extra.length > 0) {
      const differs = [...missing.map((id) => `${id} missing`), ...extra.map((id) => `${id} not expected`)].join('; ');
      out.push({
        path: [...path, 'exactly'],
        subject: `packet ids, any order: ${differs}`,
        record: missing[0] ?? extra[0],
        expected: list([...expected.exactly].sort(compareStrings)),
        actual: list([...actual].sort(compareStrings)),
      });
    }
  }
  if (expected.inOrder !== undefined) {
    const at = Math.max(expected.inOrder.length, actual.length);
    for (let index = 0; index < at; index += 1) {
      if (expected.inOrder[index] === actual[index]) continue;
      out.push({
        path: [...path, 'inOrder', Math.min(index, Math.max(0, expected.inOrder.length - 1))],
        subject: `packet ids in order: position ${index + 1} is ${actual[index] ?? 'past the end'}, expected ${expected.inOrder[index] ?? 'the end'}`,
        record: expected.inOrder[index] ?? actual[index],
        expected: list(expected.inOrder),
        actual: list(actual),
      });
      break;
    }
  }
  const have = new Set(actual);
  expected.includes?.forEach((id, index) => {
    if (!have.has(id))
      out.push({
        path: [...path, 'includes', index],
        subject: `packet includes ${id}`,
        record: id,
        expected: `${id} selected`,
        actual: shown,
      });
  });
  expected.excludes?.forEach((id, index) => {
    if (have.has(id))
      out.push({
        path: [...path, 'excludes', index],
        subject: `packet excludes ${id}`,
        record: id,
        expected: `${id} not selected`,
        actual: shown,
      });
  });
}

function checkRecords(
  expected: NonNullable<Expectation['records']>,
  outcome: CompileOutcome,
  at: JsonPath,
  out: Mismatch[],
): void {
  const rows = new Map(outcome.trace.map((row) => [row.id, row]));
  const context = factContextOf(outcome.receipt.contract);
  for (const [id, want] of Object.entries(expected)) {
    const path = [...at, 'records', id];
    const row = rows.get(id);
    if (row === undefined) {
      out.push({
        path,
        subject: `record ${id}`,
        record: id,
        expected: [want.decision, want.code].filter(Boolean).join(' ') || 'a trace row',
        actual: 'not among the candidates',
      });
      continue;
    }
    const actual = rowText(row, context);
    if (want.decision !== undefined && want.decision !== row.decision)
      out.push({
        path: [...path, 'decision'],
        subject: `record ${id}: decision`,
        record: id,
        expected: want.decision,
        actual,
      });
    if (want.code !== undefined && want.code !== row.code)
      out.push({
        path: [...path, 'code'],
        subject: `record ${id}: reason code`,
        record: id,
        expected: want.code,
        actual,
      });
    if (want.gates !== undefined) {
      const wanted = GATE_ORDER.filter((gate) => want.gates?.includes(gate));
      if (wanted.join() !== row.gates.join()) {
        out.push({
          path: [...path, 'gates'],
          subject: `record ${id}: failing gates`,
          record: id,
          expected: wanted.length === 0 ? 'passes every gate' : `fails ${wanted.join(', ')}`,
          actual:
            row.gates.length === 0 ? `passes every gate (${row.code})` : `fails ${row.gates.join(', ')} (${row.code})`,
        });
      }
    }
  }
}

function checkEvidence(
  expected: NonNullable<Expectation['evidence']>,
  outcome: CompileOutcome,
  at: JsonPath,
  out: Mismatch[],
): void {
  for (const [proposition, want] of Object.entries(expected)) {
    const path = [...at, 'evidence', proposition, 'state'];
    const subject = `evidence slot ${proposition}: state`;
    if (outcome.status !== 'packet') {
      out.push({
        path,
        subject,
        expected: want.state,
        actual: `no packet (fail_closed ${outcome.failure.code}), so no evidence slots`,
      });
      continue;
    }
    const slot = outcome.evidence.find((candidate) => candidate.proposition === proposition);
    if (slot === undefined)
      out.push({
        path,
        subject,
        expected: want.state,
        actual: `the contract requires no proposition ${proposition} (slots: ${list(outcome.evidence.map((entry) => entry.proposition))})`,
      });
    else if (slot.state !== want.state) {
      const records = [...slot.supporting, ...slot.contradicting];
      out.push({
        path,
        subject,
        record: records[0] ?? slot.notAccepted[0],
        expected: want.state,
        actual: `${slot.state}${records.length > 0 ? ` by ${list(records)}` : ''}${slot.notAccepted.length > 0 ? `; not accepted: ${list(slot.notAccepted)}` : ''}`,
      });
    }
  }
}

const verdictText = (verdict: ReceiptVerdict) => `${verdict.action} ${verdict.code}: ${verdict.message}`;

function checkDrill(
  expected: NonNullable<Expectation['drill']>,
  observed: Observed['drill'],
  at: JsonPath,
  out: Mismatch[],
): void {
  const path = [...at, 'drill'];
  if (observed === null) return;
  if ('notRun' in observed) {
    const key =
      expected.verdict !== undefined ? 'verdict' : expected.action !== undefined ? 'action' : 'afterRecompile';
    out.push({ path: [...path, key], subject: 'fire drill', expected: String(expected[key]), actual: observed.notRun });
    return;
  }
  const { stale, resumed, recompileError } = observed;
  if (expected.verdict !== undefined && expected.verdict !== stale.code)
    out.push({
      path: [...path, 'verdict'],
      subject: 'fire drill: verdict on the frozen receipt',
      expected: expected.verdict,
      actual: verdictText(stale),
    });
  if (expected.action !== undefined && expected.action !== stale.action)
    out.push({
      path: [...path, 'action'],
      subject: 'fire drill: action on the frozen receipt',
      expected: expected.action,
      actual: verdictText(stale),
    });
  if (expected.afterRecompile !== undefined && expected.afterRecompile !== resumed?.code) {
    out.push({
      path: [...path, 'afterRecompile'],
      subject: 'fire drill: verdict after recompiling',
      expected: expected.afterRecompile,
      actual:
        resumed === null
          ? recompileError === null
            ? 'not recompiled'
            : refusal(recompileError)
          : verdictText(resumed),
    });
  }
}

function checkBaseline(
  name: 'naive' | 'postFilter',
  expected: BaselineExpectation,
  baseline: BaselinePacket,
  at: JsonPath,
  out: Mismatch[],
): void {
  const path = [...at, name];
  const label = name === 'naive' ? 'naive top-k packet' : 'post-filter top-k packet';
  const shown = `selected ${list(baseline.selected)}; illegal ${list(baseline.illegal)}`;
  if (expected.selectedCount !== undefined && expected.selectedCount !== baseline.selected.length) {
    out.push({
      path: [...path, 'selectedCount'],
      subject: `${label}: records selected`,
      expected: String(expected.selectedCount),
      actual: `${baseline.selected.length} (${shown})`,
    });
  }
  if (expected.illegal !== undefined && expected.illegal !== baseline.illegal.length) {
    out.push({
      path: [...path, 'illegal'],
      subject: `${label}: illegal records`,
      record: baseline.illegal[0],
      expected: String(expected.illegal),
      actual: `${baseline.illegal.length} (${list(baseline.illegal)})`,
    });
  }
  if (expected.requiredMissed !== undefined) {
    const want = [...new Set(expected.requiredMissed)].sort(compareStrings);
    const have = [...baseline.requiredMissed].sort(compareStrings);
    if (want.join('\u0000') !== have.join('\u0000'))
      out.push({
        path: [...path, 'requiredMissed'],
        subject: `${label}: required records missed`,
        record: want.find((id) => !have.includes(id)) ?? have.find((id) => !want.includes(id)),
        expected: list(want),
        actual: list(have),
      });
  }
}

/** Every expectation of a case that does not hold of what was observed, in the order the format lists them. */
export function mismatchesOf(expected: Expectation, observed: Observed, at: JsonPath): Mismatch[] {
  const out: Mismatch[] = [];
  const { compiled } = observed;
  const status = compiled.ok ? compiled.value.status : 'fail_closed';
  const wantsFailure = expected.outcome === 'fail_closed' || expected.failure !== undefined;
  if (expected.outcome !== undefined && expected.outcome !== status)
    out.push({
      path: [...at, 'outcome'],
      subject: 'outcome',
      expected: expected.outcome,
      actual: outcomeText(observed),
    });
  else if (expected.failure !== undefined && expected.outcome === undefined && status !== 'fail_closed')
    out.push({ path: [...at, 'failure'], subject: 'outcome', expected: 'fail_closed', actual: outcomeText(observed) });
  if (expected.failure !== undefined && status === 'fail_closed') {
    const failure = compiled.ok
      ? compiled.value.status === 'fail_closed'
        ? compiled.value.failure
        : null
      : compiled.error;
    if (expected.failure.code !== undefined && failure?.code !== expected.failure.code)
      out.push({
        path: [...at, 'failure', 'code'],
        subject: 'refusal: reason code',
        expected: expected.failure.code,
        actual: outcomeText(observed),
      });
    if (expected.failure.record !== undefined && failure?.recordId !== expected.failure.record)
      out.push({
        path: [...at, 'failure', 'record'],
        subject: 'refusal: record',
        record: expected.failure.record,
        expected: expected.failure.record,
        actual: outcomeText(observed),
      });
  }
  if (!compiled.ok) {
    // Refused inputs have no trace, packet or baselines: every other expectation says so once, unless a refusal was
    // what it expected.
    const rest = (['selected', 'records', 'evidence', 'drill', 'naive', 'postFilter'] as const).filter(
      (key) => expected[key] !== undefined,
    );
    for (const key of rest)
      out.push({
        path: [...at, key],
        subject: key,
        expected: 'a compilation to compare',
        actual: refusal(compiled.error),
      });
    if (!wantsFailure && expected.outcome === undefined && rest.length === 0)
      out.push({ path: at, subject: 'outcome', expected: 'a compilation', actual: refusal(compiled.error) });
    return out;
  }
  const outcome = compiled.value;
  if (expected.selected !== undefined)
    checkSelected(
      expected.selected,
      outcome.status === 'packet' ? outcome.packet.entries.map((entry) => entry.id) : [],
      at,
      out,
    );
  if (expected.records !== undefined) checkRecords(expected.records, outcome, at, out);
  if (expected.evidence !== undefined) checkEvidence(expected.evidence, outcome, at, out);
  if (expected.drill !== undefined) checkDrill(expected.drill, observed.drill, at, out);
  if (observed.baselines !== null) {
    if (expected.naive !== undefined) checkBaseline('naive', expected.naive, observed.baselines.naive, at, out);
    if (expected.postFilter !== undefined)
      checkBaseline('postFilter', expected.postFilter, observed.baselines.postFilter, at, out);
  }
  return out;
}
