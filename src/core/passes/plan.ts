import { compareStrings } from '../canonical';
import type { Contract } from '../format/contract';
import type { SourceRecord } from '../format/record';
import type { CompileError } from '../errors';
import type { ReasonCode } from '../reasons';
import type { BaselinePacket, EvidenceSlot, EvidenceState, GateName, TraceRow } from '../result';
import type { SqlDriver } from '../search/driver';
import { rankRecords, type RankedRow } from '../search/rank';
import { divergence, type AdmissionResult } from './admit';
import type { Admission } from './gates';
import type { Resolution } from './resolve';

export interface Plan {
  readonly trace: readonly TraceRow[];
  /** Packet order: required records by id, then planned evidence, then ranked optionals. */
  readonly selected: readonly SourceRecord[];
  readonly tokensUsed: number;
  readonly evidence: readonly EvidenceSlot[];
  readonly decisionBlockedBy: readonly string[];
  readonly baselines: { readonly naive: BaselinePacket; readonly postFilter: BaselinePacket };
  /** Set when a required obligation cannot be met: the trace stands, no packet may be emitted. */
  readonly failure: CompileError | null;
}

const ADMITTED: Admission = { admitted: true };

/** One literal per row, always in one shape: at 100,000 rows, spreading a base object cost more than the row. */
function traceRow(
  id: string,
  tokens: number,
  required: boolean,
  position: { readonly rank: number; readonly score: number } | undefined,
  decision: TraceRow['decision'],
  code: ReasonCode,
  fact: string,
  gate: GateName | null,
  failedGates: readonly GateName[],
): TraceRow {
  return { id, tokens, required, score: position?.score ?? null, rank: position?.rank ?? null, decision, code, fact, gate, failedGates };
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

function baselines(
  resolution: Resolution,
  admission: AdmissionResult,
  driver: SqlDriver,
): Plan['baselines'] {
  const { contract } = resolution.contract;
  const tokensOf = (id: string) => resolution.byId.get(id)?.record.tokens ?? 0;
  const topK = rankRecords(driver, contract.query, contract.ranking, null, contract.naiveTopK).map((row) => row.id);
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

function evidenceSlots(contract: Contract, selected: readonly SourceRecord[], displacedEvidence: readonly SourceRecord[]): EvidenceSlot[] {
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
    const displaced = displacedEvidence.filter((record) => acceptedEvidenceFor(contract, record).includes(proposition.id)).map((record) => record.id);
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

/**
 * Pass 5: protect required records, rank only the admitted optionals, prune them to the budget last,
 * and fill the evidence slots from what the packet actually carries.
 */
export function plan(resolution: Resolution, admission: AdmissionResult, driver: SqlDriver, missingRequired: CompileError | null): Plan {
  const { contract } = resolution.contract;
  const budget = contract.tokenBudget;
  const required = [...new Set(contract.requiredRecords)].sort(compareStrings).filter((id) => resolution.byId.has(id));
  const requiredSet = new Set(required);

  let failure: CompileError | null = missingRequired;
  for (const id of required) {
    if (failure) break;
    failure = requiredFailure(id, admission.verdicts.get(id) ?? { admitted: true });
  }
  const requiredTokens = required.reduce((sum, id) => sum + (resolution.byId.get(id)?.record.tokens ?? 0), 0);
  if (!failure && requiredTokens > budget) {
    failure = {
      pass: 'plan',
      code: 'REQUIRED_OVER_BUDGET',
      recordId: required.find((id) => (resolution.byId.get(id)?.record.tokens ?? 0) > budget) ?? required[required.length - 1],
      fact: `required records need ${requiredTokens} tokens > budget ${budget}`,
      message: `The required records need ${requiredTokens} tokens but the budget is ${budget}: no packet is emitted.`,
    };
  }

  const ranked: RankedRow[] = rankRecords(driver, contract.query, contract.ranking, admission.candidates, null);
  for (const row of ranked) {
    if (!failure && !admission.admitted.has(row.id)) failure = divergence(row.id, 'the ranking query returned a record the evaluator refuses');
  }
  const optionalRanked = ranked.filter((row) => !requiredSet.has(row.id) && admission.admitted.has(row.id));
  const rankOf = new Map(optionalRanked.map((row, index) => [row.id, { rank: index + 1, score: row.score }]));

  // Computed once per record with evidence: the filter, the covering walk and the selection facts all ask.
  const acceptedOf = new Map<SourceRecord, string[]>();
  const accepted = (record: SourceRecord): string[] => {
    if (record.evidence === null) return [];
    let propositions = acceptedOf.get(record);
    if (propositions === undefined) {
      propositions = acceptedEvidenceFor(contract, record);
      acceptedOf.set(record, propositions);
    }
    return propositions;
  };
  const rankedEvidence: SourceRecord[] = [];
  for (const id of admission.admitted) {
    const record = resolution.byId.get(id)?.record;
    if (record && !requiredSet.has(id) && accepted(record).length > 0) rankedEvidence.push(record);
  }
  rankedEvidence.sort((a, b) => (rankOf.get(a.id)?.rank ?? Infinity) - (rankOf.get(b.id)?.rank ?? Infinity) || compareStrings(a.id, b.id));
  // The best-ranked evidence for each proposition goes before seconds for covered ones, so a tight budget cannot spend itself on one proposition.
  const covered = new Set(required.flatMap((id) => {
    const record = resolution.byId.get(id)?.record;
    return record ? accepted(record) : [];
  }));
  const covering: string[] = [];
  for (const record of rankedEvidence) {
    const propositions = accepted(record);
    if (propositions.every((id) => covered.has(id))) continue;
    covering.push(record.id);
    for (const id of propositions) covered.add(id);
  }
  const coveringSet = new Set(covering);
  const evidenceIds = [...covering, ...rankedEvidence.map((record) => record.id).filter((id) => !coveringSet.has(id))];
  const evidenceSet = new Set(evidenceIds);
  const plannedOrder = [...evidenceIds, ...optionalRanked.map((row) => row.id).filter((id) => !evidenceSet.has(id))];

  const selections = new Map<string, Selection>();
  const budgetCuts = new Map<string, string>();
  let used = 0;
  if (!failure) {
    for (const id of required) {
      const tokens = resolution.byId.get(id)?.record.tokens ?? 0;
      used += tokens;
      selections.set(id, { code: 'SELECTED_REQUIRED', fact: `required by the contract; ${tokens} tokens protected before ranking` });
    }
    for (const id of plannedOrder) {
      const record = resolution.byId.get(id)?.record;
      if (!record) continue;
      if (used + record.tokens > budget) {
        budgetCuts.set(id, `needs ${record.tokens} tokens; ${budget - used} of ${budget} remain`);
        continue;
      }
      used += record.tokens;
      const position = rankOf.get(id);
      if (evidenceSet.has(id)) {
        selections.set(id, { code: 'SELECTED_EVIDENCE', fact: `accepted ${record.evidence?.class ?? ''} evidence for ${accepted(record).join(', ')}; ${used} of ${budget} tokens used` });
      } else {
        selections.set(id, {
          code: 'SELECTED_RANKED',
          fact: `rank ${position?.rank ?? '?'} of ${optionalRanked.length} by ${contract.ranking === 'bm25' ? 'bm25' : 'declared relevance'}; ${used} of ${budget} tokens used`,
        });
      }
    }
  }

  // Names the failure's code, never its record: that record may be one the user view withholds.
  const failureNote = failure ? `no packet is emitted: a required obligation failed (${failure.code})` : '';
  const notRelevant = contract.ranking === 'bm25' ? 'no query term matches its title or text' : 'no declared relevance score';
  const noGates: readonly GateName[] = [];
  const trace: TraceRow[] = resolution.records.map(({ record }) => {
    const { id, tokens } = record;
    const verdict = admission.verdicts.get(id) ?? ADMITTED;
    const position = rankOf.get(id);
    const required = requiredSet.has(id);
    if (!verdict.admitted) {
      if (failure?.recordId === id) return traceRow(id, tokens, required, position, 'excluded', failure.code, failure.fact ?? failure.message, verdict.first.gate, verdict.failedGates);
      return traceRow(id, tokens, required, position, 'excluded', verdict.first.code, verdict.first.fact, verdict.first.gate, verdict.failedGates);
    }
    if (failure) {
      if (failure.recordId === id) return traceRow(id, tokens, required, position, 'excluded', failure.code, failure.fact ?? failure.message, null, noGates);
      return traceRow(id, tokens, required, position, 'excluded', 'EXCLUDE_FAIL_CLOSED', failureNote, null, noGates);
    }
    const selection = selections.get(id);
    if (selection) return traceRow(id, tokens, required, position, 'selected', selection.code, selection.fact, null, noGates);
    const cut = budgetCuts.get(id);
    if (cut) return traceRow(id, tokens, required, position, 'excluded', 'EXCLUDE_BUDGET', cut, null, noGates);
    return traceRow(id, tokens, required, position, 'excluded', 'EXCLUDE_NOT_RELEVANT', notRelevant, null, noGates);
  });
  trace.sort((a, b) => compareStrings(a.id, b.id));

  const selectedOrder = failure ? [] : [...required, ...plannedOrder.filter((id) => selections.has(id))];
  const selected = selectedOrder.map((id) => resolution.byId.get(id)?.record).filter((record): record is SourceRecord => record !== undefined);
  const displaced = failure ? [] : evidenceIds.filter((id) => budgetCuts.has(id)).map((id) => resolution.byId.get(id)?.record).filter((record): record is SourceRecord => record !== undefined);
  const evidence = evidenceSlots(contract, selected, displaced);
  return {
    trace,
    selected,
    tokensUsed: failure ? 0 : used,
    evidence,
    decisionBlockedBy: evidence.filter((slot) => slot.blocking && slot.state !== 'supported').map((slot) => slot.proposition),
    baselines: baselines(resolution, admission, driver),
    failure,
  };
}
