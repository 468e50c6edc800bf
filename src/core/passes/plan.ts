import { compareStrings } from '../canonical';
import type { Contract } from '../format/contract';
import type { SourceRecord } from '../format/record';
import type { CompileError } from '../errors';
import type { ReasonCode } from '../reasons';
import type { BaselinePacket, EvidenceSlot, EvidenceState, GateName, TraceRow } from '../result';
import type { RankedRow } from '../search/rank';
import type { AdmissionResult } from './admit';
import type { Admission } from './gates';
import type { Resolution, ResolvedRecord } from './resolve';

export interface Plan {
  readonly trace: readonly TraceRow[];
  /** Packet order: required records by id, then planned evidence, then ranked optionals. */
  readonly selected: readonly SourceRecord[];
  /** The reason code of each selected record. */
  readonly selectedCodes: ReadonlyMap<string, ReasonCode>;
  readonly tokensUsed: number;
  readonly evidence: readonly EvidenceSlot[];
  readonly decisionBlockedBy: readonly string[];
  readonly baselines: { readonly naive: BaselinePacket; readonly postFilter: BaselinePacket };
  /** Set when a required obligation cannot be met: the trace stands, no packet may be emitted. */
  readonly failure: CompileError | null;
}

/** One literal per row, always in one shape: at 100,000 rows, spreading a base object cost more than the row. */
function traceRow(
  id: string,
  tokens: number,
  required: boolean,
  score: number | null,
  rank: number | null,
  decision: TraceRow['decision'],
  code: ReasonCode,
  fact: string,
  gate: GateName | null,
  failedGates: readonly GateName[],
): TraceRow {
  return { id, tokens, required, score, rank, decision, code, fact, gate, failedGates };
}

interface Selection {
  readonly code: ReasonCode;
  readonly fact: string;
}

function acceptedEvidenceFor(contract: Contract, record: SourceRecord): string[] {
  const evidence = record.evidence;
  if (evidence === null) return [];
  const claims = new Set([...evidence.supports, ...evidence.contradicts]);
  // Sorted: the ids appear in trace facts, which must not depend on the order propositions were declared in.
  return contract.requiredPropositions.filter((p) => claims.has(p.id) && p.acceptedClasses.includes(evidence.class)).map((p) => p.id).sort(compareStrings);
}

function requiredFailure(id: string, verdict: Admission): CompileError | null {
  if (verdict.admitted) return null;
  const { first, failedGates } = verdict;
  if (failedGates.includes('authorisation') || failedGates.includes('deny')) {
    return { pass: 'plan', code: 'REQUIRED_NOT_AUTHORISED', recordId: id, fact: first.fact, message: `Required record ${id} is outside the authorised scope: no packet is emitted.` };
  }
  if (first.gate === 'provenance') {
    return { pass: 'plan', code: 'REQUIRED_MISSING_PROVENANCE', recordId: id, fact: first.fact, message: `Required record ${id} has no verifiable provenance (${first.fact}): no packet is emitted.` };
  }
  return { pass: 'plan', code: 'REQUIRED_ILLEGAL', recordId: id, fact: `${first.code}: ${first.fact}`, message: `Required record ${id} fails the ${first.gate} gate (${first.fact}): no packet is emitted.` };
}

function sameRow(a: TraceRow, b: TraceRow): boolean {
  return (
    a.id === b.id &&
    a.decision === b.decision &&
    a.code === b.code &&
    a.fact === b.fact &&
    a.tokens === b.tokens &&
    a.required === b.required &&
    a.score === b.score &&
    a.rank === b.rank &&
    a.gate === b.gate &&
    a.failedGates.length === b.failedGates.length &&
    a.failedGates.every((gate, index) => gate === b.failedGates[index])
  );
}

/** The budget rule every packet follows: in order, a record that does not fit is skipped and later, smaller ones may still fit. */
export function walkBudget(ids: readonly string[], tokensOf: (id: string) => number, budget: number): { selected: string[]; used: number } {
  const selected: string[] = [];
  let used = 0;
  for (const id of ids) {
    const tokens = tokensOf(id);
    if (used + tokens > budget) continue;
    selected.push(id);
    used += tokens;
  }
  return { selected, used };
}

function baselines(resolution: Resolution, admission: AdmissionResult, ranked: readonly RankedRow[]): Plan['baselines'] {
  const { contract } = resolution.contract;
  const tokensOf = (id: string) => resolution.byId.get(id)?.record.tokens ?? 0;
  const topK = ranked.slice(0, contract.naiveTopK).map((row) => row.id);
  const describe = (kind: BaselinePacket['kind'], ids: readonly string[]): BaselinePacket => {
    const { selected, used } = walkBudget(ids, tokensOf, contract.tokenBudget);
    const chosen = new Set(selected);
    return {
      kind,
      selected,
      tokensUsed: used,
      tokenBudget: contract.tokenBudget,
      illegal: selected.filter((id) => !admission.admitted.has(id)),
      requiredMissed: [...contract.requiredRecords].sort(compareStrings).filter((id) => !chosen.has(id)),
    };
  };
  return {
    naive: describe('naive', topK),
    postFilter: describe('post-filter', topK.filter((id) => admission.admitted.has(id))),
  };
}

function evidenceSlots(
  contract: Contract,
  selected: readonly SourceRecord[],
  displacedEvidence: readonly SourceRecord[],
  acceptedPropositionsOf: (record: SourceRecord) => readonly string[],
): EvidenceSlot[] {
  return [...contract.requiredPropositions].sort((a, b) => compareStrings(a.id, b.id)).map((proposition) => {
    const accepted = new Set(proposition.acceptedClasses);
    const supporting: string[] = [];
    const contradicting: string[] = [];
    const notAccepted: string[] = [];
    for (const record of selected) {
      const evidence = record.evidence;
      if (evidence === null) continue;
      const supports = evidence.supports.includes(proposition.id);
      const contradicts = evidence.contradicts.includes(proposition.id);
      if (!supports && !contradicts) continue;
      if (!accepted.has(evidence.class)) notAccepted.push(record.id);
      else {
        if (supports) supporting.push(record.id);
        if (contradicts) contradicting.push(record.id);
      }
    }
    const displaced = displacedEvidence.filter((record) => acceptedPropositionsOf(record).includes(proposition.id)).map((record) => record.id);
    // Contradictions are kept and reported, never outvoted by a count of supporters.
    const state: EvidenceState = contradicting.length > 0 ? 'contradicted' : supporting.length > 0 ? 'supported' : 'unknown';
    return {
      proposition: proposition.id,
      description: proposition.description,
      acceptedClasses: proposition.acceptedClasses,
      blocking: proposition.blocking,
      state,
      supporting,
      contradicting,
      notAccepted,
      displaced,
    };
  });
}

/** Where each ranked row's record sits in the resolution, computed once per ranking and resolution order. */
const rankedPositionsCache = new WeakMap<readonly RankedRow[], { readonly indexOf: ReadonlyMap<string, number>; readonly positions: Int32Array }>();

function rankedPositions(ranked: readonly RankedRow[], indexOf: ReadonlyMap<string, number>): Int32Array {
  const cached = rankedPositionsCache.get(ranked);
  if (cached?.indexOf === indexOf) return cached.positions;
  const positions = Int32Array.from(ranked, (row) => indexOf.get(row.id) ?? -1);
  rankedPositionsCache.set(ranked, { indexOf, positions });
  return positions;
}

/** Accepted propositions per record, kept while the contract's proposition list is the same array. */
const acceptedCache = new WeakMap<SourceRecord, { readonly propositions: Contract['requiredPropositions']; readonly accepted: string[] }>();

/**
 * Pass 5: protect required records, rank only the admitted optionals, prune them to the budget last,
 * and fill the evidence slots from what the packet actually carries. `ranked` is every indexed record
 * in relevance order (`rankRecords` without a limit); only its admitted rows compete for the budget.
 * Records are handled by their position in the resolution (id order), so the work per compilation is
 * array reads for the 100,000 records and map lookups only for the admitted ones. Given the previous
 * plan over the same positions, rows that did not change are handed back as the same objects.
 */
export function plan(
  resolution: Resolution,
  admission: AdmissionResult,
  ranked: readonly RankedRow[],
  missingRequired: CompileError | null,
  previous?: { readonly resolution: Resolution; readonly admission: AdmissionResult; readonly plan: Plan },
): Plan {
  const { contract } = resolution.contract;
  const budget = contract.tokenBudget;
  const records = resolution.records;
  const recordAt = (position: number) => (records[position] as ResolvedRecord).record;
  const verdictAt = (position: number) => admission.verdicts[position] as Admission;
  const required = [...new Set(contract.requiredRecords)].sort(compareStrings).filter((id) => resolution.byId.has(id));
  const requiredPositions = required.map((id) => resolution.indexOf.get(id) ?? -1);
  const isRequired = new Uint8Array(records.length);
  for (const position of requiredPositions) isRequired[position] = 1;

  let failure: CompileError | null = missingRequired;
  for (const [index, id] of required.entries()) {
    if (failure) break;
    failure = requiredFailure(id, verdictAt(requiredPositions[index] as number));
  }
  const requiredTokens = requiredPositions.reduce((sum, position) => sum + recordAt(position).tokens, 0);
  if (!failure && requiredTokens > budget) {
    failure = {
      pass: 'plan',
      code: 'REQUIRED_OVER_BUDGET',
      recordId: required.find((_, index) => recordAt(requiredPositions[index] as number).tokens > budget) ?? required[required.length - 1],
      fact: `required records need ${requiredTokens} tokens > budget ${budget}`,
      message: `The required records need ${requiredTokens} tokens but the budget is ${budget}: no packet is emitted.`,
    };
  }

  // Ranks 1… among admitted optionals, by position; 0 means unranked.
  const rankAt = new Int32Array(records.length);
  const scoreAt = new Float64Array(records.length);
  const optionalRanked: number[] = [];
  const positions = rankedPositions(ranked, resolution.indexOf);
  // A flag per position: reading 100,000 verdict objects scattered over the heap cost more than the rest of the loop.
  const isAdmitted = new Uint8Array(records.length);
  for (const position of admission.admittedPositions) isAdmitted[position] = 1;
  for (let index = 0; index < positions.length; index += 1) {
    const position = positions[index] as number;
    if (position < 0 || isRequired[position] === 1 || isAdmitted[position] === 0) continue;
    optionalRanked.push(position);
    rankAt[position] = optionalRanked.length;
    scoreAt[position] = (ranked[index] as RankedRow).score;
  }

  const accepted = (record: SourceRecord): string[] => {
    if (record.evidence === null) return [];
    const cached = acceptedCache.get(record);
    if (cached?.propositions === contract.requiredPropositions) return cached.accepted;
    const propositions = acceptedEvidenceFor(contract, record);
    acceptedCache.set(record, { propositions: contract.requiredPropositions, accepted: propositions });
    return propositions;
  };
  // Admitted evidence by rank (unranked last), then id: positions are in id order.
  const rankedEvidence = admission.admittedPositions.filter((position) => isRequired[position] === 0 && accepted(recordAt(position)).length > 0);
  const rankKey = (position: number) => rankAt[position] || Infinity;
  rankedEvidence.sort((a, b) => rankKey(a) - rankKey(b) || a - b);
  // The best-ranked evidence for each proposition goes before seconds for covered ones, so a tight budget cannot spend itself on one proposition.
  const covered = new Set(requiredPositions.flatMap((position) => accepted(recordAt(position))));
  const covering: number[] = [];
  for (const position of rankedEvidence) {
    const propositions = accepted(recordAt(position));
    if (propositions.every((id) => covered.has(id))) continue;
    covering.push(position);
    for (const id of propositions) covered.add(id);
  }
  const isEvidence = new Uint8Array(records.length);
  for (const position of rankedEvidence) isEvidence[position] = 1;
  const coveringSet = new Set(covering);
  const evidenceOrder = [...covering, ...rankedEvidence.filter((position) => !coveringSet.has(position))];
  const plannedOrder = [...evidenceOrder, ...optionalRanked.filter((position) => isEvidence[position] === 0)];

  const outcomeAt: (Selection & { readonly selected: boolean })[] = new Array(records.length);
  const selectedOrder: number[] = [];
  let used = 0;
  if (!failure) {
    for (const position of requiredPositions) {
      const tokens = recordAt(position).tokens;
      used += tokens;
      outcomeAt[position] = { selected: true, code: 'SELECTED_REQUIRED', fact: `required by the contract; ${tokens} tokens protected before ranking` };
      selectedOrder.push(position);
    }
    const rankedBy = contract.ranking === 'bm25' ? 'bm25' : 'declared relevance';
    for (const position of plannedOrder) {
      const record = recordAt(position);
      if (used + record.tokens > budget) {
        outcomeAt[position] = { selected: false, code: 'EXCLUDE_BUDGET', fact: `needs ${record.tokens} tokens; ${budget - used} of ${budget} remain` };
        continue;
      }
      used += record.tokens;
      selectedOrder.push(position);
      outcomeAt[position] =
        isEvidence[position] === 1
          ? { selected: true, code: 'SELECTED_EVIDENCE', fact: `accepted ${record.evidence?.class ?? ''} evidence for ${accepted(record).join(', ')}; ${used} of ${budget} tokens used` }
          : { selected: true, code: 'SELECTED_RANKED', fact: `rank ${rankAt[position] || '?'} of ${optionalRanked.length} by ${rankedBy}; ${used} of ${budget} tokens used` };
    }
  }

  // Names the failure's code, never its record: that record may be one the user view withholds.
  const failureNote = failure ? `no packet is emitted: a required obligation failed (${failure.code})` : '';
  const notRelevant = contract.ranking === 'bm25' ? 'no query term matches its title or text' : 'no declared relevance score';
  const noGates: readonly GateName[] = [];
  const rowFor = (position: number): TraceRow => {
    const { id, tokens } = recordAt(position);
    const verdict = verdictAt(position);
    const required = isRequired[position] === 1;
    const rank = rankAt[position] || null;
    const score = rank === null ? null : (scoreAt[position] as number);
    if (!verdict.admitted) {
      if (failure?.recordId === id) return traceRow(id, tokens, required, score, rank, 'excluded', failure.code, failure.fact ?? failure.message, verdict.first.gate, verdict.failedGates);
      return traceRow(id, tokens, required, score, rank, 'excluded', verdict.first.code, verdict.first.fact, verdict.first.gate, verdict.failedGates);
    }
    if (failure) {
      if (failure.recordId === id) return traceRow(id, tokens, required, score, rank, 'excluded', failure.code, failure.fact ?? failure.message, null, noGates);
      return traceRow(id, tokens, required, score, rank, 'excluded', 'EXCLUDE_FAIL_CLOSED', failureNote, null, noGates);
    }
    const outcome = outcomeAt[position];
    if (outcome) return traceRow(id, tokens, required, score, rank, outcome.selected ? 'selected' : 'excluded', outcome.code, outcome.fact, null, noGates);
    return traceRow(id, tokens, required, score, rank, 'excluded', 'EXCLUDE_NOT_RELEVANT', notRelevant, null, noGates);
  };

  // Rows equal to the last compilation's row for the same record are handed back as that object.
  const aligned = previous?.resolution.indexOf === resolution.indexOf && previous.plan.trace.length === records.length ? previous : undefined;
  const keep = (position: number, old: TraceRow | undefined): TraceRow => {
    const row = rowFor(position);
    return old !== undefined && sameRow(old, row) ? old : row;
  };
  let trace: TraceRow[];
  let changed = aligned === undefined;
  if (aligned !== undefined && admission.changes?.since === aligned.admission) {
    // Only admitted records (their budget facts move), records whose verdict was evaluated again and the
    // records a failure names (now or last time) can have a new row; every other row is the same object.
    trace = aligned.plan.trace.slice();
    const again = new Set([...admission.admittedPositions, ...admission.changes.positions, ...aligned.admission.admittedPositions]);
    for (const failed of [failure, aligned.plan.failure]) {
      const position = failed?.recordId === undefined ? undefined : resolution.indexOf.get(failed.recordId);
      if (position !== undefined) again.add(position);
    }
    for (const position of again) {
      const row = keep(position, trace[position]);
      if (row !== trace[position]) changed = true;
      trace[position] = row;
    }
  } else {
    trace = new Array<TraceRow>(records.length);
    for (let position = 0; position < records.length; position += 1) {
      const old = aligned?.plan.trace[position];
      const row = keep(position, old);
      if (row !== old) changed = true;
      trace[position] = row;
    }
  }
  // An unchanged trace is the same array, so the receipt's projection and digest can see it at once.
  if (!changed && aligned !== undefined) trace = aligned.plan.trace as TraceRow[];

  const selected = failure ? [] : selectedOrder.map(recordAt);
  const selectedCodes = new Map<string, ReasonCode>();
  for (const position of failure ? [] : selectedOrder) selectedCodes.set(recordAt(position).id, (outcomeAt[position] as Selection).code);
  const displaced = failure ? [] : evidenceOrder.filter((position) => outcomeAt[position]?.code === 'EXCLUDE_BUDGET').map(recordAt);
  const evidence = evidenceSlots(contract, selected, displaced, accepted);
  return {
    trace,
    selected,
    selectedCodes,
    tokensUsed: failure ? 0 : used,
    evidence,
    decisionBlockedBy: evidence.filter((slot) => slot.blocking && slot.state !== 'supported').map((slot) => slot.proposition),
    baselines: baselines(resolution, admission, ranked),
    failure,
  };
}
