import type { Audience } from '../../core/disclosure';
import type { TourExpect } from '../../core/format/tour';
import type { ReasonCode } from '../../core/reasons';
import type { CompileView, ScenarioSummary, VerdictView } from '../../worker/protocol';
import { VERDICT_HEADLINES } from './DrillPanel';
import { shortHash } from './format';
import type { TourAction, TourStep } from './tour-steps';

/** What the tour reads off the screen: the compilation shown, and the drill. */
export interface TourScreen {
  readonly audience: Audience;
  readonly scenario: ScenarioSummary;
  /** The compilation on screen when it is this scenario's, compiled and not being replaced. */
  readonly view: CompileView | null;
  readonly compiling: boolean;
  /** The result store's revision, to tell a verdict about the inputs on screen from one about earlier inputs. */
  readonly revision: number;
  readonly drill: {
    readonly frozenReceiptId: string | null;
    readonly declared: readonly string[];
    readonly verdict: VerdictView | null;
    readonly verdictRevision: number;
    readonly busy: boolean;
  };
}

/** One compilation as far as the tour compares two: outcome, packet, naive top-k, receipt. */
export interface Observation {
  readonly status: CompileView['status'];
  readonly failure: ReasonCode | null;
  readonly packet: readonly string[];
  /** Record id and its code in the compiled trace. */
  readonly naive: readonly { readonly id: string; readonly code: ReasonCode }[];
  readonly receiptId: string | null;
  /** Each required proposition's evidence state, and those that block the decision. */
  readonly evidence: readonly { readonly proposition: string; readonly state: string }[];
  readonly blockedBy: readonly string[];
}

export type StepState =
  | { readonly done: false; readonly why: string }
  | { readonly done: true; readonly held: boolean; readonly text: string; readonly observed: Observation };

/** The screen once settled: this scenario compiled, nothing being recompiled, the baselines there. Null otherwise. */
export function observe(screen: TourScreen): Observation | null {
  const { view } = screen;
  if (!view || screen.compiling || screen.drill.busy || screen.audience !== 'diagnostic' || !view.columns.naive)
    return null;
  return {
    status: view.status,
    failure: view.failure?.code ?? null,
    packet: view.status === 'packet' ? view.columns.compiled.entries.map((entry) => entry.id) : [],
    naive: view.columns.naive.entries.map((entry) => ({ id: entry.id, code: entry.code })),
    receiptId: view.receiptId,
    evidence: view.evidence.map((slot) => ({ proposition: slot.proposition, state: slot.state })),
    blockedBy: view.decisionBlockedBy,
  };
}

const quoted = (text: string) => `“${text}”`;

function labelOf(scenario: ScenarioSummary, action: TourAction): string {
  if (action.do === 'switchOn' || action.do === 'switchOff')
    return quoted(scenario.controls.find((control) => control.id === action.control)?.label ?? action.control);
  if (action.do === 'inject')
    return quoted(scenario.lateChanges.find((change) => change.id === action.lateChange)?.label ?? action.lateChange);
  return '';
}

/** The one thing the step asks for, in the words of the buttons and switches on screen. */
export function askOf(scenario: ScenarioSummary, action: TourAction): string {
  const label = labelOf(scenario, action);
  switch (action.do) {
    case 'switchOn':
      return `Switch on ${label} under Poison controls.`;
    case 'switchOff':
      return `Switch ${label} off again under Poison controls.`;
    case 'freeze':
      return 'In the fire drill, press Freeze receipt.';
    case 'inject':
      return `Choose the late change ${label} and press Inject late change.`;
    case 'attempt':
      return 'Press Attempt to continue.';
    case 'recompile':
      return 'Press Recompile current context.';
  }
}

const freshVerdict = (screen: TourScreen): VerdictView | null =>
  screen.drill.verdict && screen.drill.verdictRevision === screen.revision ? screen.drill.verdict : null;

/** Recompile is unavailable until a late change is declared: the step cannot be done from here. */
const NOTHING_DECLARED = 'No late change is declared: go back a step and inject one first.';

/** Why the step's action is not done on screen yet, or null when it is. */
function notDone(screen: TourScreen, action: TourAction): string | null {
  const { view, drill } = screen;
  if (!view) return 'Nothing of this scenario is compiled yet.';
  const label = labelOf(screen.scenario, action);
  switch (action.do) {
    case 'switchOn':
      return view.controls.includes(action.control) ? null : `${label} is off.`;
    case 'switchOff':
      return view.controls.includes(action.control) ? `${label} is still on.` : null;
    case 'freeze':
      if (drill.frozenReceiptId === null) return 'Nothing is frozen.';
      return drill.frozenReceiptId === view.receiptId ? null : 'The receipt frozen is not the one on screen.';
    case 'inject':
      return drill.declared.includes(action.lateChange) ? null : `${label} is not declared.`;
    case 'attempt':
      if (freshVerdict(screen)) return null;
      return drill.verdict
        ? 'The last verdict was about inputs recompiled since.'
        : 'Nobody has attempted to continue.';
    case 'recompile': {
      const verdict = freshVerdict(screen);
      if (drill.declared.length > 0) return 'The late change is declared but not compiled in.';
      if (view.lateChanges.length === 0) return NOTHING_DECLARED;
      return verdict && verdict.priorReceiptId === view.receiptId ? null : 'The new receipt has not been checked.';
    }
  }
}

/** What on screen differs from what the step expects; empty when all of it holds. */
export function mismatches(expect: TourExpect, observed: Observation, verdict: VerdictView | null): string[] {
  const found: string[] = [];
  if (expect.outcome && expect.outcome !== observed.status)
    found.push(
      observed.status === 'packet'
        ? 'a packet is emitted'
        : `no packet is emitted (${observed.failure ?? 'fail-closed'})`,
    );
  if (expect.failure && expect.failure !== observed.failure)
    found.push(
      observed.failure ? `the compiler fails closed with ${observed.failure}` : 'the compiler does not fail closed',
    );
  const naive = observed.naive.map((entry) => entry.id);
  for (const id of expect.inPacket ?? [])
    if (!observed.packet.includes(id)) found.push(`${id} is not in the compiled packet`);
  for (const id of expect.notInPacket ?? [])
    if (observed.packet.includes(id)) found.push(`${id} is in the compiled packet`);
  for (const id of expect.inNaive ?? []) if (!naive.includes(id)) found.push(`${id} is not in the naive top-k`);
  for (const id of expect.notInNaive ?? []) if (naive.includes(id)) found.push(`${id} is in the naive top-k`);
  if (expect.verdict && verdict?.action !== expect.verdict)
    found.push(verdict ? `the verdict is ${VERDICT_HEADLINES[verdict.action]}` : 'there is no verdict');
  return found;
}

function listed(ids: readonly string[]): string {
  return ids.length <= 1 ? (ids[0] ?? '') : `${ids.slice(0, -1).join(', ')} and ${ids[ids.length - 1] ?? ''}`;
}

/** What changed between two compilations, in sentences: the outcome, then each column's records in and out. */
export function changeBetween(before: Observation | null, after: Observation): string {
  const parts: string[] = [];
  if (after.status === 'fail_closed')
    parts.push(
      before?.status === 'fail_closed'
        ? `Still no packet: the compiler fails closed (${after.failure ?? ''}).`
        : `No packet at all: the compiler fails closed (${after.failure ?? ''}).`,
    );
  else if (before?.status === 'fail_closed') parts.push(`A packet again: ${listed(after.packet)}.`);
  if (before && after.status === 'packet' && before.status === 'packet') {
    const entered = after.packet.filter((id) => !before.packet.includes(id));
    const left = before.packet.filter((id) => !after.packet.includes(id));
    if (entered.length > 0) parts.push(`Into the compiled packet: ${listed(entered)}.`);
    if (left.length > 0) parts.push(`Out of the compiled packet: ${listed(left)}.`);
  }
  if (before) {
    const ids = before.naive.map((entry) => entry.id);
    const entered = after.naive.filter((entry) => !ids.includes(entry.id));
    const left = ids.filter((id) => !after.naive.some((entry) => entry.id === id));
    if (entered.length > 0)
      parts.push(
        `Into the naive top-k: ${listed(entered.map((entry) => `${entry.id} (the compiler: ${entry.code})`))}.`,
      );
    if (left.length > 0) parts.push(`Out of the naive top-k: ${listed(left)}.`);
    const moved = after.evidence.flatMap((slot) => {
      const was = before.evidence.find((earlier) => earlier.proposition === slot.proposition)?.state;
      return was && was !== slot.state ? [`${slot.proposition} ${was} → ${slot.state}`] : [];
    });
    if (moved.length > 0) parts.push(`Evidence: ${listed(moved)}.`);
  }
  const blocked =
    after.blockedBy.length > 0
      ? ` The decision is blocked by ${listed(after.blockedBy)}.`
      : before && before.blockedBy.length > 0
        ? ' The decision is no longer blocked.'
        : '';
  return `${parts.length > 0 ? parts.join(' ') : 'Neither the compiled packet, the naive top-k nor the evidence changed.'}${blocked}`;
}

/** What a step built from the scenario says once done: what happened, read off the screen. */
function observedText(screen: TourScreen, action: TourAction, before: Observation | null, after: Observation): string {
  const verdict = freshVerdict(screen);
  switch (action.do) {
    case 'freeze':
      return `Frozen: receipt ${shortHash(after.receiptId ?? '')}, the one an assistant now works from.`;
    case 'inject':
      return before?.receiptId === after.receiptId
        ? `Declared: ${labelOf(screen.scenario, action)}. Nothing was recompiled: the packet on screen is the ` +
            `frozen one.`
        : `Declared: ${labelOf(screen.scenario, action)}. ${changeBetween(before, after)}`;
    case 'attempt':
      return verdict ? `${VERDICT_HEADLINES[verdict.action]}: ${verdict.code}. ${verdict.message}` : '';
    case 'recompile':
      return `${verdict ? VERDICT_HEADLINES[verdict.action] : ''}, receipt ${shortHash(after.receiptId ?? '')}. ${changeBetween(before, after)}`;
    default:
      return changeBetween(before, after);
  }
}

/**
 * Whether the step's action is done on screen, and if so what it shows: the step's own text when everything it
 * expects holds, else what was found instead; a built step says what changed since the step began (`before`).
 */
export function stepState(step: TourStep, screen: TourScreen, before: Observation | null): StepState {
  if (screen.audience !== 'diagnostic')
    return { done: false, why: 'The tour runs in the diagnostic view: choose Diagnostic view above the trace.' };
  if (screen.compiling || screen.drill.busy)
    return { done: false, why: 'The compiler is still working on the last change.' };
  const why = notDone(screen, step.action);
  if (why !== null)
    return { done: false, why: why === NOTHING_DECLARED ? why : `${why} ${askOf(screen.scenario, step.action)}` };
  const observed = observe(screen);
  if (!observed) return { done: false, why: 'The naive top-k is still being ranked.' };
  const missing = step.expect ? mismatches(step.expect, observed, freshVerdict(screen)) : [];
  if (missing.length > 0)
    return {
      done: true,
      held: false,
      observed,
      text: `Not what this step expected: ${missing.join('; ')}. ${observedText(screen, step.action, before, observed)}`,
    };
  return { done: true, held: true, observed, text: step.shows ?? observedText(screen, step.action, before, observed) };
}
