import { canonicalJson, compareStrings, sortedSet } from '../../canonical';
import { contractFingerprint, normaliseContract, type Sha256 } from '../../fingerprints';
import type { Contract } from '../../format/contract';
import type { SourceRecord } from '../../format/record';
import { formatInstant } from '../../format/time';
import { ENGINE_VERSION, SCHEMA_VERSION } from '../../version';
import { isWithheldFromUser } from '../../disclosure';
import type {
  Attestation,
  Packet,
  PacketEntry,
  RankedEntry,
  RankingStatistics,
  Receipt,
  ReceiptAdmission,
  ReceiptOmissions,
  TraceRow,
} from '../../result';
import type { PacketPlan } from '../6-plan-packet/plan-packet';
import { rankedDigest, recordSetDigest, resolvedSetDigest, traceDigest } from './attest-digests';
import type { ResolvedRecord } from '../2-resolve/resolve';

function provenanceLabel(record: SourceRecord): string {
  return record.provenance === null
    ? 'none'
    : `${record.provenance.origin} ${record.provenance.contentHash.slice(0, 19)}…`;
}

/**
 * The packet body: what the model is given. Ids, classes, provenance and tokens travel with every entry. `asOf` is the
 * instant resolve read.
 */
export function renderPacket(contract: Contract, asOf: number, plan: PacketPlan): Packet {
  const entries: PacketEntry[] = plan.selected.map((record) => ({
    id: record.id,
    title: record.title,
    text: record.text,
    tokens: record.tokens,
    required: contract.requiredRecords.includes(record.id),
    code: plan.selectedCodes.get(record.id) ?? 'SELECTED_RANKED',
    sourceClass: record.sourceClass,
    authorityClass: record.authorityClass,
    provenance: provenanceLabel(record),
  }));
  const lines = [
    `TASK: ${contract.task}`,
    `AS-OF: ${formatInstant(asOf)} | PURPOSE: ${contract.purpose} | PRINCIPALS: ` +
      `${contract.principals.map((p) => `${p.id} (${p.kind})`).join(' > ')}`,
    `BUDGET: ${plan.tokensUsed} / ${contract.tokenBudget} tokens | RECORDS: ${entries.length}`,
  ];
  for (const slot of plan.evidence) {
    const records = [...slot.supporting, ...slot.contradicting];
    lines.push(
      `EVIDENCE ${slot.proposition}: ${slot.state}${records.length > 0 ? ` (${records.join(', ')})` : ''}${slot.blocking ? ' [blocking]' : ''}`,
    );
  }
  if (plan.decisionBlockedBy.length > 0)
    lines.push(
      `DECISION BLOCKED: ${plan.decisionBlockedBy.join(', ')} not established from admitted evidence; ` +
        `reserved for an authorised person.`,
    );
  entries.forEach((entry, index) => {
    lines.push(
      '',
      `[${index + 1}] ${entry.id}: ${entry.title}`,
      `source: ${entry.sourceClass} | authority: ${entry.authorityClass} | provenance: ${entry.provenance} ` +
        `| tokens: ${entry.tokens} | ${entry.required ? 'required' : entry.code}`,
      entry.text,
    );
  });
  return { entries, body: `${lines.join('\n')}\n`, tokensUsed: plan.tokensUsed, tokenBudget: contract.tokenBudget };
}

/** The copyable packet: a manifest header naming the receipt, then the fingerprinted body. */
export function packetWithManifest(packet: Packet, receipt: Receipt): string {
  return [
    '=== CONTEXT PACKET ===',
    `receipt: ${receipt.receiptId}`,
    `packet fingerprint: sha256:${receipt.packetFingerprint ?? ''}`,
    `contract fingerprint: sha256:${receipt.contractFingerprint}`,
    `record set: sha256:${receipt.recordSetDigest}`,
    `engine: ${receipt.engineVersion} (${receipt.schemaVersion})`,
    '======================',
    packet.body,
  ].join('\n');
}

type ReceiptBody = Omit<Receipt, 'receiptId'>;

/**
 * The receipt id: the SHA-256 of the canonical receipt body in which the trace array is replaced by its
 * digest (`traceDigest`) and the ranking section by its own (`rankedDigest`).
 */
export function receiptIdOf(sha256: Sha256, body: ReceiptBody): string {
  return idOf(sha256, body, traceDigest(sha256, body.trace), rankedDigest(sha256, body.ranked));
}

const idOf = (sha256: Sha256, body: ReceiptBody, trace: string, ranked: string) =>
  sha256.hex(canonicalJson({ ...body, trace, ranked }));

export interface AttestInput {
  readonly contract: Contract;
  /** Every record, in id order (the resolution's order). */
  readonly records: readonly ResolvedRecord[];
  /** The admitted records' positions in `records`, ascending. */
  readonly admitted: readonly number[];
  readonly attestation: Attestation;
  readonly packetPlan: PacketPlan;
  readonly packet: Packet | null;
  readonly ranking: RankingStatistics;
  readonly admission: ReceiptAdmission;
  readonly controls: readonly string[];
  readonly lateChanges: readonly string[];
}

/** What the receipt lists: the trace rows it keeps, its ranking section, and what it says of the rows it leaves out. */
export interface AttestedSections {
  readonly trace: readonly TraceRow[];
  readonly ranked: readonly RankedEntry[];
  readonly omitted: ReceiptOmissions | null;
}

/**
 * A `full` receipt lists the plan's whole trace and ranking; a `candidates` one the candidates' rows, and counts the
 * rest.
 */
export function attestedSections(sha256: Sha256, input: AttestInput): AttestedSections {
  const { packetPlan: plan } = input;
  if (input.attestation === 'full') return { trace: plan.trace, ranked: plan.ranked, omitted: null };
  const listed = candidatesOnly(sha256, input);
  return {
    trace: listed.trace,
    ranked: plan.ranked.filter((entry) => listed.ids.has(entry.id)),
    omitted: listed.omitted,
  };
}

/** The digests the receipt id covers instead of the sections themselves (see `receiptIdOf`), and the record set's. */
export interface ReceiptDigests {
  readonly recordSetDigest: string;
  readonly traceDigest: string;
  readonly rankedDigest: string;
}

export function receiptDigests(
  sha256: Sha256,
  records: readonly ResolvedRecord[],
  sections: AttestedSections,
): ReceiptDigests {
  return {
    recordSetDigest: resolvedSetDigest(sha256, records),
    traceDigest: traceDigest(sha256, sections.trace),
    rankedDigest: rankedDigest(sha256, sections.ranked),
  };
}

/** Pass 7: the receipt is canonical JSON; its id hashes everything else in it (see `receiptIdOf`). */
export function attest(sha256: Sha256, input: AttestInput): Receipt {
  const sections = attestedSections(sha256, input);
  return receiptOf(sha256, input, sections, receiptDigests(sha256, input.records, sections));
}

/** The receipt from its sections and their digests: a plain function of them and the plan. */
export function receiptOf(
  sha256: Sha256,
  input: AttestInput,
  sections: AttestedSections,
  digests: ReceiptDigests,
): Receipt {
  const { contract, packetPlan: plan, packet } = input;
  const failure = plan.failure;
  const body: ReceiptBody = {
    schemaVersion: SCHEMA_VERSION,
    engineVersion: ENGINE_VERSION,
    attestation: input.attestation,
    outcome: failure ? 'fail_closed' : 'packet',
    contract: normaliseContract(contract),
    contractFingerprint: contractFingerprint(sha256, contract),
    recordSetDigest: digests.recordSetDigest,
    packetFingerprint: packet ? sha256.hex(packet.body) : null,
    controls: sortedSet(input.controls),
    lateChanges: sortedSet(input.lateChanges),
    ranking: input.ranking,
    ranked: sections.ranked,
    executedBy: input.admission,
    tokensUsed: plan.tokensUsed,
    selected: plan.selected.map((record) => record.id),
    evidence: plan.evidence.map((slot) => ({
      proposition: slot.proposition,
      state: slot.state,
      records: [...slot.supporting, ...slot.contradicting],
    })),
    decisionBlockedBy: plan.decisionBlockedBy,
    failure:
      failure && failure.fact
        ? {
            pass: failure.pass,
            code: failure.code,
            recordId: failure.recordId ?? null,
            fact: failure.fact.fact,
            args: failure.fact.args,
          }
        : null,
    trace: sections.trace,
    omitted: sections.omitted,
  };
  return { receiptId: idOf(sha256, body, digests.traceDigest, digests.rankedDigest), ...body };
}

/** A `candidates` receipt's rows (the plan's candidate positions), their ids, and what it says of the rest. */
function candidatesOnly(
  sha256: Sha256,
  { packetPlan: plan, records, admitted }: AttestInput,
): {
  trace: TraceRow[];
  ids: Set<string>;
  omitted: ReceiptOmissions;
} {
  const kept = new Uint8Array(plan.trace.length);
  for (const position of plan.candidates) kept[position] = 1;
  const trace = plan.candidates.map((position) => plan.trace[position] as TraceRow);
  const counts = new Map<string, number>();
  let withheld = 0;
  plan.trace.forEach((row, position) => {
    if (kept[position] !== 0) return;
    counts.set(row.code, (counts.get(row.code) ?? 0) + 1);
    if (isWithheldFromUser(row)) withheld += 1;
  });
  const rows = Object.fromEntries([...counts].sort(([a], [b]) => compareStrings(a, b)));
  const admittedDigest = recordSetDigest(
    sha256,
    admitted.map((position) => (records[position] as ResolvedRecord).checked),
  );
  return { trace, ids: new Set(trace.map((row) => row.id)), omitted: { admittedDigest, rows, withheld } };
}

/** Canonical JSON of a receipt: the bytes that are downloaded, compared and verified. */
export function serialiseReceipt(receipt: Receipt): string {
  return canonicalJson(receipt);
}
