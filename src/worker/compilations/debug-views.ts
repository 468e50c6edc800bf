import { canonicalJson, compareStrings } from '../../core/canonical';
import type { CompileRequest } from '../../core/compile';
import { discloseFact, type DisclosedView } from '../../core/disclosure';
import { asOfInstant } from '../../core/as-of';
import { formatInstantShort, parseInstant } from '../../core/format/time';
import { createGateContext, explainGates, gateCodeOf } from '../../core/phases/4-admit/admit';
import { findInIdOrder, resolve, type Resolution } from '../../core/phases/2-resolve/resolve';
import { evidenceClaimOn } from '../../core/phases/6-plan-packet/evidence-claim';
import type { Contract } from '../../core/format/contract';
import type { SourceRecord } from '../../core/format/record';
import type { CheckedRecord } from '../../core/phases/1-validate/validate';
import { renderFact, type Fact, type FactContext } from '../../core/reasons';
import type { ReceiptDiff } from '../../core/receipt-diff';
import { rankOf, type RankLookup } from '../../core/ranked';
import type { CompileOutcome, EvidenceState, TraceRow } from '../../core/result';
import {
  AS_OF_STOP_RECORDS,
  AS_OF_STOPS_EACH_SIDE,
  ATTEMPTS_PAGE,
  type AppliedChange,
  type AsOfStop,
  type AsOfStops,
  type AttemptOutcome,
  type ColumnEntry,
  type EvidenceAttempt,
  type EvidenceAttempts,
  type InspectResponse,
  type PropositionCoverage,
  type TraceChange,
  type TraceRowFacts,
} from '../protocol';
import { wordMessage } from '../../core/messages';

/** One compilation as the debugger's views read it, disclosed for one audience. */
export interface ViewSource {
  readonly request: CompileRequest;
  readonly outcome: CompileOutcome;
  readonly view: DisclosedView;
  readonly context: FactContext;
}

/** A fact in words, as the view may show it: without the name of a record the view withholds. */
function wordFact(source: ViewSource, fact: Fact): string {
  return renderFact(discloseFact(fact, source.view.withheld), source.context);
}

const list = (values: readonly string[]) => (values.length === 0 ? '(none)' : values.join(', '));

/** A receipt row's decision as the trace and the inspector show it, its fact in words. */
export function traceRowFacts(row: TraceRow, context: FactContext, ranks: RankLookup): TraceRowFacts {
  const { id, decision, code, tokens, required } = row;
  return { id, decision, code, fact: renderFact(row, context), tokens, required, ...rankOf(ranks, id) };
}

/**
 * Everything about one record: its fields, every gate with its fact (the evaluator's own explanation),
 * its successor, score, rank and receipt row. A record the view withholds gets the answer an unknown id
 * gets, so the inspector cannot be used to probe for one.
 */
export function inspectRecord(source: ViewSource, resolution: Resolution, id: string): InspectResponse {
  const missing: InspectResponse = { ok: false, message: wordMessage('NO_RECORD_IN_VIEW', { id }) };
  const { request, outcome, view } = source;
  const row = view.rows.find((candidate) => candidate.id === id);
  const checked = request.recordSet.byId.get(id);
  const position = resolution.indexOf.get(id);
  const resolved = position === undefined ? undefined : resolution.records[position];
  if (!row || !checked || !resolved) return missing;
  const { record } = checked;
  const gates = explainGates(createGateContext(resolution.contract), resolved).map(({ gate, fact }) => ({
    gate,
    passed: fact === null,
    code: fact === null ? null : gateCodeOf(fact),
    fact: fact === null ? null : wordFact(source, fact),
  }));
  const successor = resolved.supersededBy;
  const { provenance, evidence } = record;
  const matches = checked.provenanceVerified ? 'matches the text' : 'does not match the text';
  const metadata = [
    { field: 'project', value: record.project },
    { field: 'scope', value: record.scope },
    { field: 'subject', value: record.subject ?? '(none: about no single identity)' },
    { field: 'knownAt', value: record.knownAt },
    { field: 'validFrom', value: record.validFrom },
    { field: 'validTo', value: record.validTo ?? '(open)' },
    { field: 'lifecycle', value: record.lifecycle },
    { field: 'sourceClass', value: record.sourceClass },
    { field: 'authorityClass', value: record.authorityClass },
    { field: 'reviewState', value: record.reviewState },
    {
      field: 'provenance',
      value:
        provenance === null ? '(none)' : `${provenance.origin}, ${provenance.contentHash.slice(0, 19)}… (${matches})`,
    },
    { field: 'sensitivity', value: record.sensitivity },
    { field: 'access.roles', value: list(record.access.roles) },
    { field: 'access.purposes', value: list(record.access.purposes) },
    { field: 'access.labels', value: list(record.access.labels) },
    {
      field: 'evidence',
      value:
        evidence === null
          ? '(none)'
          : `${evidence.class}; supports ${list(evidence.supports)}; contradicts ${list(evidence.contradicts)}`,
    },
    { field: 'relevance', value: record.relevance === null ? '(not declared)' : String(record.relevance) },
    { field: 'fingerprint', value: `${checked.fingerprint.slice(0, 12)}…` },
  ];
  const packetIndex = outcome.status === 'packet' ? outcome.packet.entries.findIndex((entry) => entry.id === id) : -1;
  return {
    ok: true,
    record: {
      ...traceRowFacts(row, source.context, view.ranks),
      title: record.title,
      text: record.text,
      packetPosition: packetIndex < 0 ? null : packetIndex + 1,
      metadata,
      gates,
      supersededBy:
        successor === null
          ? null
          : view.withheld.has(successor.id)
            ? 'withheld'
            : { id: successor.id, since: formatInstantShort(successor.since) },
      supersedes: record.supersedes.filter((target) => !view.withheld.has(target)),
      receiptRow: canonicalJson(row),
    },
  };
}

/**
 * The resolution the gates read (the as-of successors, the identity directory): worked out again, once per compilation,
 * when first inspected.
 */
export function resolutionOf(request: CompileRequest): Resolution | null {
  const resolved = resolve(request.contract, request.recordSet);
  return resolved.ok ? resolved.value : null;
}

/** The order attempts are listed in: used first, then left out, of a class not accepted, and refused. */
const OUTCOME_ORDER: readonly AttemptOutcome[] = ['used', 'left_out', 'class_not_accepted', 'refused'];

interface Claim {
  readonly id: string;
  readonly evidenceClass: string;
  readonly claim: EvidenceAttempt['claim'];
  readonly outcome: AttemptOutcome;
}

/** Which attempts to list: by default the first page of every required proposition. */
export interface AttemptsWindow {
  readonly proposition?: string;
  readonly offset?: number;
}

/**
 * For each required proposition, every record that claims to support or contradict it and what became
 * of it: used, admitted but left out, of a class the contract does not accept for it, or refused by a
 * gate (with the gate's code and fact). Rows the view withholds are left out, not counted here. Used
 * attempts first, then by id; `total` counts them all, `attempts` lists the window asked for.
 */
export function evidenceAttempts(source: ViewSource, window: AttemptsWindow = {}): EvidenceAttempts[] {
  const { request, outcome, view } = source;
  const propositions = request.contract.requiredPropositions.filter(
    (proposition) => window.proposition === undefined || proposition.id === window.proposition,
  );
  if (propositions.length === 0) return [];
  const offset = Math.max(0, window.offset ?? 0);
  // Every attempt is classified from the admitted and selected sets: a trace row's gates are empty exactly when its
  // record is admitted. Only the window's rows are looked up, for their code and fact. At 100,000 records a lookup
  // per claimant (thousands) and a comparator sort over all of them took most of a toggle's view in the browser.
  const positionOf = new Map(propositions.map((proposition, position) => [proposition.id, position]));
  const byOutcome = propositions.map(() => OUTCOME_ORDER.map(() => [] as Claim[]));
  const selected = new Set(outcome.status === 'packet' ? outcome.receipt.selected : []);
  const attempt = (
    record: SourceRecord,
    evidence: NonNullable<SourceRecord['evidence']>,
    proposition: string,
    claim: EvidenceAttempt['claim'],
  ) => {
    const position = positionOf.get(proposition);
    if (position === undefined) return;
    const accepted =
      evidenceClaimOn(propositions[position] as Contract['requiredPropositions'][number], evidence)?.accepted === true;
    const order = !outcome.admitted.has(record.id) ? 3 : !accepted ? 2 : selected.has(record.id) ? 0 : 1;
    (byOutcome[position] as Claim[][])[order]?.push({
      id: record.id,
      evidenceClass: evidence.class,
      claim,
      outcome: OUTCOME_ORDER[order] as AttemptOutcome,
    });
  };
  for (const record of request.recordSet.records) {
    const evidence = record.evidence;
    // Rows the view withholds are left out, not counted.
    if (evidence === null || view.withheld.has(record.id)) continue;
    for (const id of evidence.supports) attempt(record, evidence, id, 'supports');
    for (const id of evidence.contradicts) attempt(record, evidence, id, 'contradicts');
  }
  return propositions.map((proposition, position) => {
    const all = (byOutcome[position] as Claim[][]).flatMap((claims) =>
      claims.sort((a, b) => compareStrings(a.id, b.id)),
    );
    const shown = all.slice(offset, offset + ATTEMPTS_PAGE);
    const rows = rowsOf(
      view.rows,
      shown.map((claim) => claim.id),
    );
    // Facts are rendered for the window only: rendering thousands that are never shown cost the worker too.
    const attempts = shown.map(({ id, evidenceClass, claim, outcome: outcomeOf }) => {
      const row = rows.get(id) as TraceRow;
      return { id, claim, evidenceClass, outcome: outcomeOf, code: row.code, fact: renderFact(row, source.context) };
    });
    return {
      proposition: proposition.id,
      acceptedClasses: [...proposition.acceptedClasses],
      total: all.length,
      offset,
      attempts,
    };
  });
}

/**
 * The rows of a few ids. A trace is in id order (resolve puts the records in that order, and the user
 * view only leaves rows out), so each is a binary search rather than a pass over 100,000 rows.
 */
function rowsOf(rows: readonly TraceRow[], ids: readonly string[]): Map<string, TraceRow> {
  const found = new Map<string, TraceRow>();
  for (const id of ids) {
    const position = findInIdOrder(rows.length, (at) => (rows[at] as TraceRow).id, id);
    if (position !== undefined) found.set(id, rows[position] as TraceRow);
  }
  return found;
}

/** Each entry's code in the compiled trace: why the gates refuse it, or what the compiler decided for it. */
export function codesOf(outcome: CompileOutcome, ids: readonly string[]): Map<string, TraceRow> {
  return rowsOf(outcome.trace, ids);
}

/**
 * Which required propositions a column's own entries answer, and how: legally, illegally, or with a class not
 * accepted. Judged as the plan judges the packet's evidence: a legal contradiction makes it contradicted, never
 * answered.
 */
export function columnCoverage(request: CompileRequest, entries: readonly ColumnEntry[]): PropositionCoverage[] {
  return request.contract.requiredPropositions.map((proposition) => {
    const supporting: string[] = [];
    const contradicting: string[] = [];
    const illegal: string[] = [];
    const notAccepted: string[] = [];
    for (const entry of entries) {
      const evidence = request.recordSet.byId.get(entry.id)?.record.evidence;
      if (!evidence) continue;
      const supports = evidence.supports.includes(proposition.id);
      const contradicts = evidence.contradicts.includes(proposition.id);
      if (!supports && !contradicts) continue;
      if (!proposition.acceptedClasses.includes(evidence.class)) notAccepted.push(entry.id);
      else if (entry.illegal) illegal.push(entry.id);
      else {
        if (supports) supporting.push(entry.id);
        if (contradicts) contradicting.push(entry.id);
      }
    }
    const state: EvidenceState =
      contradicting.length > 0 ? 'contradicted' : supporting.length > 0 ? 'supported' : 'unknown';
    return {
      proposition: proposition.id,
      blocking: proposition.blocking,
      state,
      supporting,
      contradicting,
      illegal,
      notAccepted,
    };
  });
}

const DAY_MS = 86_400_000;

/**
 * The instants at which a record the view names enters or leaves the time gate, the nearest on each side
 * of the as-of. Withheld records give no stop: their dates are theirs to keep.
 */
export function asOfStops(source: ViewSource, appliedChanges: readonly AppliedChange[]): AsOfStops {
  const { request, view } = source;
  const asOf = asOfInstant(request.contract);
  type Kind = AsOfStop['records'][number]['kind'];
  const KINDS: readonly Kind[] = ['knownAt', 'validFrom', 'expires'];
  // With nothing withheld (the diagnostic view) every record is visible: no need to walk them all through a filter.
  const visible =
    view.withheld.size === 0
      ? request.recordSet.checked
      : request.recordSet.checked.filter((checked) => !view.withheld.has(checked.record.id));
  // Every instant a record enters or leaves the time gate, in typed arrays: a map of every instant's records,
  // or a callback per instant, cost far more at 100,000 records.
  const eventAt = new Float64Array(visible.length * 3);
  const eventRecord = new Int32Array(visible.length * 3);
  const eventKind = new Uint8Array(visible.length * 3);
  let count = 0;
  const addEvent = (at: number, record: number, kind: number) => {
    eventAt[count] = at;
    eventRecord[count] = record;
    eventKind[count] = kind;
    count += 1;
  };
  visible.forEach((checked, record) => {
    addEvent(checked.knownAt, record, 0);
    if (checked.validFrom !== checked.knownAt) addEvent(checked.validFrom, record, 1);
    // valid_to is inclusive: the record is expired from the next instant on.
    if (checked.validTo !== null) addEvent(checked.validTo + 1, record, 2);
  });
  const instants = eventAt.slice(0, count).sort();
  let total = 0;
  for (let index = 0; index < count; index += 1) if (index === 0 || instants[index] !== instants[index - 1]) total += 1;
  const before: number[] = [];
  for (
    let index = partitionPoint(instants, (at) => at < asOf) - 1;
    index >= 0 && before.length < AS_OF_STOPS_EACH_SIDE;
    index -= 1
  )
    if (before[before.length - 1] !== instants[index]) before.push(instants[index] as number);
  before.reverse();
  const after: number[] = [];
  for (
    let index = partitionPoint(instants, (at) => at <= asOf);
    index < count && after.length < AS_OF_STOPS_EACH_SIDE;
    index += 1
  )
    if (after[after.length - 1] !== instants[index]) after.push(instants[index] as number);

  // Only the stops sent are filled in with their records.
  const byInstant = new Map<number, { id: string; kind: Kind }[]>([...before, ...after].map((at) => [at, []]));
  const lowest = before[0] ?? after[0] ?? Number.POSITIVE_INFINITY;
  const highest = after[after.length - 1] ?? before[before.length - 1] ?? Number.NEGATIVE_INFINITY;
  for (let event = 0; event < count; event += 1) {
    const at = eventAt[event] as number;
    if (at >= lowest && at <= highest)
      byInstant.get(at)?.push({
        id: (visible[eventRecord[event] as number] as CheckedRecord).record.id,
        kind: KINDS[eventKind[event] as number] as Kind,
      });
  }
  const stop = (at: number): AsOfStop => {
    const records = (byInstant.get(at) ?? []).sort((a, b) => compareStrings(a.id, b.id));
    return {
      at: formatInstantShort(at),
      records: records.slice(0, AS_OF_STOP_RECORDS),
      more: Math.max(0, records.length - AS_OF_STOP_RECORDS),
    };
  };
  return {
    asOf: request.contract.asOf,
    before: before.map(stop),
    after: after.map(stop),
    total,
    lockedBy: appliedChanges.find((change) => change.contractFields.includes('asOf'))?.label ?? null,
  };
}

/**
 * The first position in `values` whose value is not `before`: `before` holds for a prefix of the sorted values and for
 * nothing after it.
 */
function partitionPoint(values: Float64Array, before: (value: number) => boolean): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(values[middle] as number)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The as-of a step leads to: whole days from the current one (keeping its form), or the instant given. */
export function steppedAsOf(
  current: Pick<Contract, 'asOf'>,
  step: { readonly days: number } | { readonly to: string },
): string | null {
  if ('to' in step) return parseInstant(step.to) === null ? null : step.to;
  if (!Number.isInteger(step.days)) return null;
  const at = asOfInstant(current);
  const next = at + step.days * DAY_MS;
  // A bare date stays a bare date; a date-time keeps its time of day (in UTC).
  return /^\d{4}-\d{2}-\d{2}$/.test(current.asOf)
    ? new Date(next).toISOString().slice(0, 10)
    : new Date(next).toISOString().replace('.000Z', 'Z');
}

/** How each row of the current trace differs from the pinned one's, from a diff already disclosed for the view. */
export function traceChanges(diff: ReceiptDiff): Map<string, TraceChange> {
  const changes = new Map<string, TraceChange>();
  for (const id of diff.records.added) changes.set(id, 'added');
  for (const change of diff.decisions)
    changes.set(change.id, change.before.decision !== change.after.decision ? 'decision' : 'code');
  for (const change of diff.rows) if (!changes.has(change.id)) changes.set(change.id, 'row');
  return changes;
}
