import { compareStrings } from '../../canonical';
import type { Contract } from '../../format/contract';
import type { SourceRecord } from '../../format/record';
import { compileError, type CompileError } from '../../errors';
import { FACT_CONTEXT_FIELDS, factContextOf, renderFact, type Fact, type ReasonCode } from '../../reasons';
import type { EvidenceSlot, EvidenceState, GateName, RankedEntry, TraceRow } from '../../result';
import type { Ranking } from '../5-rank/ranking';
import { type Admission, firstGate, GATE_BIT, gateCodeOf, gatesIn, type GateVerdict } from '../4-admit/admit';
import type { Resolution, ResolvedRecord } from '../2-resolve/resolve';
import { evidenceClaimOn } from './evidence-claim';

export interface PacketPlan {
  readonly trace: readonly TraceRow[];
  /** Packet order: required records by id, then planned evidence, then ranked optionals. */
  readonly selected: readonly SourceRecord[];
  /** The reason code of each selected record. */
  readonly selectedCodes: ReadonlyMap<string, ReasonCode>;
  readonly tokensUsed: number;
  readonly evidence: readonly EvidenceSlot[];
  readonly decisionBlockedBy: readonly string[];
  /** Set when a required obligation cannot be met: the trace stands, no packet may be emitted. */
  readonly failure: CompileError | null;
  /** Every ranked admitted optional, in rank order: the ranking section. */
  readonly ranked: readonly RankedEntry[];
  /**
   * The positions a `candidates` receipt keeps rows for, ascending: the required records, the admitted
   * evidence, and the planned records down to the last one the budget selected.
   */
  readonly candidates: readonly number[];
}

/** Required propositions this record is accepted evidence for, sorted (they appear in facts). */
export function acceptedEvidenceFor(contract: Pick<Contract, 'requiredPropositions'>, record: SourceRecord): string[] {
  return contract.requiredPropositions
    .filter((proposition) => evidenceClaimOn(proposition, record.evidence)?.accepted === true)
    .map((proposition) => proposition.id)
    .sort(compareStrings);
}

function requiredFailure(contract: PacketPlanInputs, id: string, failed: number, fact: Fact): CompileError {
  const words = renderFact(fact, factContextOf(contract));
  if ((failed & (GATE_BIT.authorisation | GATE_BIT.deny)) !== 0) {
    return compileError(
      { pass: 'plan', code: 'REQUIRED_NOT_AUTHORISED', recordId: id, fact },
      'REQUIRED_UNAUTHORISED_STOP',
      { record: id },
    );
  }
  const gate = firstGate(failed);
  if (gate === 'provenance') {
    return compileError(
      { pass: 'plan', code: 'REQUIRED_MISSING_PROVENANCE', recordId: id, fact },
      'REQUIRED_NO_PROVENANCE_STOP',
      { record: id, fact: words },
    );
  }
  return compileError({ pass: 'plan', code: 'REQUIRED_ILLEGAL', recordId: id, fact }, 'REQUIRED_GATE_STOP', {
    record: id,
    gate,
    fact: words,
  });
}

function evidenceSlots(
  contract: Pick<Contract, 'requiredPropositions'>,
  selected: readonly SourceRecord[],
  displaced: readonly SourceRecord[],
): EvidenceSlot[] {
  return [...contract.requiredPropositions]
    .sort((a, b) => compareStrings(a.id, b.id))
    .map((proposition) => {
      const supporting: string[] = [];
      const contradicting: string[] = [];
      const notAccepted: string[] = [];
      for (const record of selected) {
        const claim = evidenceClaimOn(proposition, record.evidence);
        if (claim === null) continue;
        if (!claim.accepted) notAccepted.push(record.id);
        else {
          if (claim.supports) supporting.push(record.id);
          if (claim.contradicts) contradicting.push(record.id);
        }
      }
      // Contradictions are kept and reported, never outvoted by a count of supporters.
      const state: EvidenceState =
        contradicting.length > 0 ? 'contradicted' : supporting.length > 0 ? 'supported' : 'unknown';
      return {
        proposition: proposition.id,
        description: proposition.description,
        acceptedClasses: proposition.acceptedClasses,
        blocking: proposition.blocking,
        state,
        supporting,
        contradicting,
        notAccepted,
        displaced: displaced
          .filter((record) => acceptedEvidenceFor(contract, record).includes(proposition.id))
          .map((record) => record.id),
      };
    });
}

/** The contract fields a refused record's row reads besides its verdict. */
export const REFUSED_ROW_FIELDS = ['requiredRecords'] as const satisfies readonly (keyof Contract)[];

/** The row of a record a gate refused (null when admitted): its verdict and whether it is required decide it. */
export function refusedRow({ resolved, failed, fact }: GateVerdict, required: ReadonlySet<string>): TraceRow | null {
  if (failed === 0 || fact === null) return null;
  const { record, fingerprint } = resolved.checked;
  return {
    id: record.id,
    fingerprint,
    decision: 'excluded',
    code: gateCodeOf(fact),
    fact: fact.fact,
    args: fact.args,
    gates: gatesIn(failed),
    tokens: record.tokens,
    required: required.has(record.id),
  };
}

interface Outcome {
  readonly selected: boolean;
  readonly code: ReasonCode;
  readonly fact: Fact;
}

/** The contract fields the admitted records' part of the plan reads. */
export const PACKET_PLAN_FIELDS = [
  ...FACT_CONTEXT_FIELDS,
  'requiredRecords',
  'requiredPropositions',
] as const satisfies readonly (keyof Contract)[];

export type PacketPlanInputs = Pick<Contract, (typeof PACKET_PLAN_FIELDS)[number]>;

/**
 * What the plan decides about the admitted records, the required ones and the budget: all of it but the refused rows.
 */
export interface AdmittedPacketPlan extends Omit<PacketPlan, 'trace'> {
  /** One row per admitted position, in the same order as `admission.admitted`. */
  readonly rows: readonly TraceRow[];
  /** A required record's row that the failure replaces, refused or not. */
  readonly failedRow: { readonly position: number; readonly row: TraceRow } | null;
}

/** The positions of the required records that are present, in id order. */
export function requiredPositionsOf(resolution: Resolution): number[] {
  const { contract } = resolution.contract;
  const required = [...new Set(contract.requiredRecords)]
    .sort(compareStrings)
    .filter((id) => resolution.indexOf.has(id));
  return required.map((id) => resolution.indexOf.get(id) as number);
}

/** The plan from its two parts: a row per refused record (null where admitted) and the admitted records' part. */
export function packetPlanFrom(
  refusedRows: readonly (TraceRow | null)[],
  admitted: readonly number[],
  admittedPart: AdmittedPacketPlan,
): PacketPlan {
  const trace = refusedRows.slice() as TraceRow[];
  admitted.forEach((position, index) => {
    trace[position] = admittedPart.rows[index] as TraceRow;
  });
  if (admittedPart.failedRow !== null) trace[admittedPart.failedRow.position] = admittedPart.failedRow.row;
  const { rows: _rows, failedRow: _failedRow, ...decided } = admittedPart;
  return { trace, ...decided };
}

/**
 * Pass 6, packet planning: protect required records, rank only the admitted optionals, prune them to the budget last,
 * and fill the evidence slots from what the packet actually carries. `ranking` orders the admitted
 * records (bm25 with the admitted set's statistics, or declared scores). Records are handled by their
 * position in the resolution (id order): a refused record's row depends on its verdict alone (`refusedRow`),
 * the rest on the admitted and required records (`planAdmittedPart`).
 */
export function planPacket(
  resolution: Resolution,
  admission: Admission,
  ranking: Ranking,
  missingRequired: CompileError | null,
): PacketPlan {
  const { contract } = resolution.contract;
  const positions = {
    records: resolution.records,
    verdicts: admission.verdicts,
    admitted: admission.admitted,
    admittedAt: admission.admittedAt,
  };
  const admittedPart = planAdmittedPart(contract, positions, requiredPositionsOf(resolution), ranking, missingRequired);
  const required = new Set(contract.requiredRecords);
  return packetPlanFrom(
    admission.verdicts.map((verdict) => refusedRow(verdict, required)),
    admission.admitted,
    admittedPart,
  );
}

/** The records and verdicts of a plan, by position, as the admitted part reads them. */
export interface PacketPlanPositions {
  readonly records: readonly ResolvedRecord[];
  readonly verdicts: readonly GateVerdict[];
  readonly admitted: readonly number[];
  readonly admittedAt: ReadonlyMap<string, number>;
}

/**
 * What the plan decides about the admitted and required records: a plain function of them, their verdicts and the
 * ranking.
 */
export function planAdmittedPart(
  contract: PacketPlanInputs,
  { records, verdicts, admitted, admittedAt }: PacketPlanPositions,
  requiredPositions: readonly number[],
  ranking: Ranking,
  missingRequired: CompileError | null,
): AdmittedPacketPlan {
  const budget = contract.tokenBudget;
  const recordAt = (position: number) => (records[position] as ResolvedRecord).checked.record;
  const verdictAt = (position: number) => verdicts[position] as GateVerdict;
  const isRequired = new Uint8Array(records.length);
  for (const position of requiredPositions) isRequired[position] = 1;

  let failure: CompileError | null = missingRequired;
  for (const position of requiredPositions) {
    if (failure) break;
    const { failed, fact } = verdictAt(position);
    if (failed !== 0 && fact !== null) failure = requiredFailure(contract, recordAt(position).id, failed, fact);
  }
  const requiredTokens = requiredPositions.reduce((sum, position) => sum + recordAt(position).tokens, 0);
  if (!failure && requiredTokens > budget) {
    const required = requiredPositions.map((position) => recordAt(position).id);
    failure = compileError(
      {
        pass: 'plan',
        code: 'REQUIRED_OVER_BUDGET',
        recordId:
          required.find((_, index) => recordAt(requiredPositions[index] as number).tokens > budget) ??
          required[required.length - 1],
        fact: { fact: 'REQUIRED_TOKENS_OVER_BUDGET', args: { tokens: requiredTokens } },
      },
      'REQUIRED_OVER_BUDGET_STOP',
      { tokens: requiredTokens, budget },
    );
  }

  // Ranks 1… among admitted optionals, by position; 0 means unranked.
  const rankAt = new Int32Array(records.length);
  const scoreAt = new Float64Array(records.length);
  const optionalRanked: number[] = [];
  for (const row of ranking.rows) {
    // Only admitted records can be ranked: a row naming any other is passed over.
    const position = admittedAt.get(row.id);
    if (position === undefined || isRequired[position] === 1) continue;
    optionalRanked.push(position);
    rankAt[position] = optionalRanked.length;
    scoreAt[position] = row.score;
  }

  const accepted = new Map<number, string[]>();
  for (const position of admitted) {
    const propositions = acceptedEvidenceFor(contract, recordAt(position));
    if (propositions.length > 0) accepted.set(position, propositions);
  }
  const acceptedAt = (position: number) => accepted.get(position) ?? [];
  // Admitted evidence by rank (unranked last), then id: positions are in id order.
  const rankKey = (position: number) => rankAt[position] || Infinity;
  const rankedEvidence = [...accepted.keys()]
    .filter((position) => isRequired[position] === 0)
    .sort((a, b) => rankKey(a) - rankKey(b) || a - b);
  // The best-ranked evidence for each proposition goes before seconds for covered ones, so a tight budget cannot spend
  // itself on one proposition.
  const covered = new Set(requiredPositions.flatMap(acceptedAt));
  const covering: number[] = [];
  for (const position of rankedEvidence) {
    const propositions = acceptedAt(position);
    if (propositions.every((id) => covered.has(id))) continue;
    covering.push(position);
    for (const id of propositions) covered.add(id);
  }
  const coveringSet = new Set(covering);
  const evidenceOrder = [...covering, ...rankedEvidence.filter((position) => !coveringSet.has(position))];
  const plannedOrder = [...evidenceOrder, ...optionalRanked.filter((position) => !accepted.has(position))];

  // By position: an array of the trace's length is far cheaper than a map of the admitted positions.
  const outcomeAt = new Array<Outcome | undefined>(records.length);
  const selectedOrder: number[] = [];
  let used = 0;
  if (!failure) {
    for (const position of requiredPositions) {
      const tokens = recordAt(position).tokens;
      used += tokens;
      outcomeAt[position] = {
        selected: true,
        code: 'SELECTED_REQUIRED',
        fact: { fact: 'REQUIRED_PROTECTED', args: { tokens } },
      };
      selectedOrder.push(position);
    }
    for (const position of plannedOrder) {
      const record = recordAt(position);
      if (used + record.tokens > budget) {
        outcomeAt[position] = {
          selected: false,
          code: 'EXCLUDE_BUDGET',
          fact: { fact: 'BUDGET_EXCEEDED', args: { tokens: record.tokens, remaining: budget - used } },
        };
        continue;
      }
      used += record.tokens;
      selectedOrder.push(position);
      outcomeAt[position] = accepted.has(position)
        ? {
            selected: true,
            code: 'SELECTED_EVIDENCE',
            fact: {
              fact: 'EVIDENCE_PLANNED',
              args: { evidenceClass: record.evidence?.class ?? '', propositions: acceptedAt(position), used },
            },
          }
        : {
            selected: true,
            code: 'SELECTED_RANKED',
            fact: {
              fact: 'RANKED_SELECTED',
              args: { rank: rankAt[position] as number, ranked: optionalRanked.length, used },
            },
          };
    }
  }

  // Names the failure's code, never its record: that record may be one the user view withholds.
  const withheld: Fact | null = failure ? { fact: 'PACKET_WITHHELD', args: { failure: failure.code } } : null;
  const notRelevant: Fact = { fact: contract.ranking === 'bm25' ? 'NO_QUERY_MATCH' : 'NO_DECLARED_SCORE', args: {} };
  const noGates: readonly GateName[] = [];
  const row = (
    position: number,
    decision: TraceRow['decision'],
    code: ReasonCode,
    fact: Fact,
    gates: readonly GateName[],
  ): TraceRow => {
    const { record, fingerprint } = (records[position] as ResolvedRecord).checked;
    return {
      id: record.id,
      fingerprint,
      decision,
      code,
      fact: fact.fact,
      args: fact.args,
      gates,
      tokens: record.tokens,
      required: isRequired[position] === 1,
    };
  };
  const rows = admitted.map((position) => {
    if (withheld !== null) return row(position, 'excluded', 'EXCLUDE_FAIL_CLOSED', withheld, noGates);
    const outcome = outcomeAt[position];
    return outcome === undefined
      ? row(position, 'excluded', 'EXCLUDE_NOT_RELEVANT', notRelevant, noGates)
      : row(position, outcome.selected ? 'selected' : 'excluded', outcome.code, outcome.fact, noGates);
  });
  const failedPosition =
    failure?.recordId === undefined
      ? undefined
      : requiredPositions.find((position) => recordAt(position).id === failure?.recordId);
  const failedRow =
    failure !== null && failure.fact !== undefined && failedPosition !== undefined
      ? {
          position: failedPosition,
          row: row(failedPosition, 'excluded', failure.code, failure.fact, gatesIn(verdictAt(failedPosition).failed)),
        }
      : null;

  const selected = failure ? [] : selectedOrder.map(recordAt);
  const selectedCodes = new Map<string, ReasonCode>();
  for (const position of failure ? [] : selectedOrder)
    selectedCodes.set(recordAt(position).id, (outcomeAt[position] as Outcome).code);
  const displaced = failure
    ? []
    : evidenceOrder.filter((position) => outcomeAt[position]?.code === 'EXCLUDE_BUDGET').map(recordAt);
  const evidence = evidenceSlots(contract, selected, displaced);
  const ranked = optionalRanked.map((position, index): RankedEntry => ({
    id: recordAt(position).id,
    rank: index + 1,
    score: scoreAt[position] as number,
  }));
  return {
    rows,
    failedRow,
    selected,
    selectedCodes,
    tokensUsed: failure ? 0 : used,
    evidence,
    decisionBlockedBy: evidence
      .filter((slot) => slot.blocking && slot.state !== 'supported')
      .map((slot) => slot.proposition),
    failure,
    ranked,
    candidates: candidatePositions(
      requiredPositions,
      evidenceOrder,
      failure ? [] : plannedOrder,
      (position) => outcomeAt[position]?.selected === true,
    ),
  };
}

/**
 * `PacketPlan.candidates`: required, evidence, then the planned order cut after the last record the budget selected.
 */
function candidatePositions(
  required: readonly number[],
  evidence: readonly number[],
  planned: readonly number[],
  isSelected: (position: number) => boolean,
): number[] {
  let cut = planned.length;
  while (cut > 0 && !isSelected(planned[cut - 1] as number)) cut -= 1;
  const kept = new Set([...required, ...evidence, ...planned.slice(0, cut)]);
  return [...kept].sort((a, b) => a - b);
}
