import { canonicalJson, compareStrings, sortedSet } from '../canonical';
import type { Contract } from '../format/contract';
import type { SourceRecord } from '../format/record';
import { formatInstant, parseInstant } from '../format/time';
import { sha256Hex } from '../hash';
import { createTreeDigest, type TreeDigest } from '../tree-digest';
import type { ReasonCode } from '../reasons';
import type { Packet, PacketEntry, Receipt, TraceRow } from '../result';
import type { Plan } from './plan';

export const SCHEMA_VERSION = 'context-compiler/2';
export const ENGINE_VERSION = '0.1.0';

/**
 * The contract with every set-like list sorted and de-duplicated, so that reordering a list never
 * changes a fingerprint. The principal chain keeps its order: it is a delegation sequence.
 */
export function normaliseContract(contract: Contract): Contract {
  return {
    ...contract,
    asOf: formatInstant(parseInstant(contract.asOf) ?? 0),
    principals: contract.principals.map((principal) => ({ ...principal, roles: sortedSet(principal.roles) })),
    scopes: sortedSet(contract.scopes),
    identities: [...contract.identities]
      .map((identity) => ({ ...identity, aliases: sortedSet(identity.aliases) }))
      .sort((a, b) => compareStrings(a.id, b.id)),
    allowedSourceClasses: sortedSet(contract.allowedSourceClasses),
    allowedAuthorityClasses: sortedSet(contract.allowedAuthorityClasses),
    acceptedReviewStates: sortedSet(contract.acceptedReviewStates),
    forbiddenLifecycle: sortedSet(contract.forbiddenLifecycle) as Contract['forbiddenLifecycle'],
    forbiddenSensitivity: sortedSet(contract.forbiddenSensitivity),
    denyLabels: sortedSet(contract.denyLabels),
    requiredRecords: sortedSet(contract.requiredRecords),
    requiredPropositions: [...contract.requiredPropositions]
      .map((proposition) => ({ ...proposition, acceptedClasses: sortedSet(proposition.acceptedClasses) }))
      .sort((a, b) => compareStrings(a.id, b.id)),
  };
}

export function contractFingerprint(contract: Contract): string {
  return sha256Hex(canonicalJson(normaliseContract(contract)));
}

/** A record's fingerprint covers every field, in canonical form with set-like lists sorted. */
export function recordFingerprint(record: SourceRecord): string {
  return sha256Hex(
    canonicalJson({
      ...record,
      supersedes: sortedSet(record.supersedes),
      access: { roles: sortedSet(record.access.roles), purposes: sortedSet(record.access.purposes), labels: sortedSet(record.access.labels) },
      evidence: record.evidence && { class: record.evidence.class, supports: sortedSet(record.evidence.supports), contradicts: sortedSet(record.evidence.contradicts) },
    }),
  );
}

const digestLeafCache = new WeakMap<SourceRecord, string>();

/** A record's line in the record-set digest: its id and fingerprint, computed once per record object. */
function recordDigestLeaf(record: SourceRecord): string {
  let leaf = digestLeafCache.get(record);
  if (leaf === undefined) {
    leaf = `${record.id}\u0000${recordFingerprint(record)}`;
    digestLeafCache.set(record, leaf);
  }
  return leaf;
}

export function createRecordSetDigest(): TreeDigest<SourceRecord> {
  return createTreeDigest(recordDigestLeaf, (record) => record.id);
}

function isSortedById(records: readonly SourceRecord[]): boolean {
  for (let index = 1; index < records.length; index += 1) if (compareStrings((records[index - 1] as SourceRecord).id, (records[index] as SourceRecord).id) > 0) return false;
  return true;
}

/**
 * Digest of the whole record set, independent of record order: the tree digest (src/core/tree-digest.ts)
 * of each record's id and fingerprint, in id order. A compiler keeps its own tree (`AttestMemory`), so a
 * recompilation after a toggle re-hashes only the chunk holding the changed record.
 */
export function recordSetDigest(records: readonly SourceRecord[]): string {
  return createRecordSetDigest().digest(isSortedById(records) ? records : [...records].sort((a, b) => compareStrings(a.id, b.id)));
}

function provenanceLabel(record: SourceRecord): string {
  return record.provenance === null ? 'none' : `${record.provenance.origin} ${record.provenance.contentHash.slice(0, 19)}…`;
}

/** The packet body: what the model is given. Ids, classes, provenance and tokens travel with every entry. */
export function renderPacket(contract: Contract, plan: Plan): Packet {
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
    `AS-OF: ${formatInstant(parseInstant(contract.asOf) ?? 0)} | PURPOSE: ${contract.purpose} | PRINCIPALS: ${contract.principals.map((p) => `${p.id} (${p.kind})`).join(' > ')}`,
    `BUDGET: ${plan.tokensUsed} / ${contract.tokenBudget} tokens | RECORDS: ${entries.length}`,
  ];
  for (const slot of plan.evidence) {
    const records = [...slot.supporting, ...slot.contradicting];
    lines.push(`EVIDENCE ${slot.proposition}: ${slot.state}${records.length > 0 ? ` (${records.join(', ')})` : ''}${slot.blocking ? ' [blocking]' : ''}`);
  }
  if (plan.decisionBlockedBy.length > 0) lines.push(`DECISION BLOCKED: ${plan.decisionBlockedBy.join(', ')} not established from admitted evidence; reserved for an authorised person.`);
  entries.forEach((entry, index) => {
    lines.push(
      '',
      `[${index + 1}] ${entry.id}: ${entry.title}`,
      `source: ${entry.sourceClass} | authority: ${entry.authorityClass} | provenance: ${entry.provenance} | tokens: ${entry.tokens} | ${entry.required ? 'required' : entry.code}`,
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

type ReceiptTraceRow = Receipt['trace'][number];

/** Receipt trace rows are the seven keys below, in sorted order; anything else takes the generic path. */
function isPlainTraceRow(row: ReceiptTraceRow): boolean {
  let keys = 0;
  for (const key in row) if (Object.hasOwn(row, key)) keys += 1;
  return (
    keys === 7 &&
    typeof row.code === 'string' &&
    typeof row.decision === 'string' &&
    typeof row.fact === 'string' &&
    typeof row.id === 'string' &&
    typeof row.required === 'boolean' &&
    (row.score === null || (typeof row.score === 'number' && Number.isFinite(row.score))) &&
    typeof row.tokens === 'number' &&
    Number.isFinite(row.tokens)
  );
}

/** Exactly the bytes `canonicalJson(row)` writes, without sorting the keys of every row again. */
export function canonicalTraceRow(row: ReceiptTraceRow): string {
  if (!isPlainTraceRow(row)) return canonicalJson(row);
  return `{"code":${JSON.stringify(row.code)},"decision":${JSON.stringify(row.decision)},"fact":${JSON.stringify(row.fact)},"id":${JSON.stringify(row.id)},"required":${row.required},"score":${JSON.stringify(row.score)},"tokens":${JSON.stringify(row.tokens)}}`;
}

/**
 * Codes the plan pass gives admitted records. Their facts quote the running budget, so one toggle
 * rewrites many of them; rows refused by a gate keep theirs. Hashing the two kinds in separate trees
 * keeps a toggle from dirtying every chunk of the refused rows.
 */
const PLANNED_CODES: ReadonlySet<string> = new Set<ReasonCode>([
  'SELECTED_REQUIRED',
  'SELECTED_EVIDENCE',
  'SELECTED_RANKED',
  'EXCLUDE_BUDGET',
  'EXCLUDE_NOT_RELEVANT',
  'EXCLUDE_FAIL_CLOSED',
  'REQUIRED_NOT_FOUND',
  'REQUIRED_ILLEGAL',
  'REQUIRED_NOT_AUTHORISED',
  'REQUIRED_MISSING_PROVENANCE',
  'REQUIRED_OVER_BUDGET',
]);

const rowId = (row: ReceiptTraceRow) => row.id;

export interface TraceDigest {
  digest(trace: readonly ReceiptTraceRow[]): string;
}

export function createTraceDigest(): TraceDigest {
  const refused = createTreeDigest(canonicalTraceRow, rowId);
  const planned = createTreeDigest(canonicalTraceRow, rowId);
  let last: { readonly trace: readonly ReceiptTraceRow[]; readonly hex: string; readonly planned: Uint8Array } | null = null;
  return {
    digest(trace) {
      if (last?.trace === trace) return last.hex;
      const refusedRows: ReceiptTraceRow[] = [];
      const plannedRows: ReceiptTraceRow[] = [];
      // A row in the same place as last time keeps its side without reading its code.
      const before = last?.trace.length === trace.length ? last : null;
      const isPlanned = new Uint8Array(trace.length);
      trace.forEach((row, index) => {
        const planned = before?.trace[index] === row ? before.planned[index] === 1 : PLANNED_CODES.has(row.code);
        if (planned) isPlanned[index] = 1;
        (planned ? plannedRows : refusedRows).push(row);
      });
      last = { trace, hex: sha256Hex(`${refused.digest(refusedRows)}\n${planned.digest(plannedRows)}\n`), planned: isPlanned };
      return last.hex;
    },
  };
}

/**
 * The receipt id: the SHA-256 of the canonical receipt body in which the trace array is replaced by
 * its digest. The trace digest is the SHA-256 of two tree digests (src/core/tree-digest.ts), one line
 * each: the rows refused by a legality gate, then the rows the plan pass decided (PLANNED_CODES), each
 * in trace order. Every row is covered; a recompilation re-hashes only the chunks whose rows changed.
 */
export function receiptIdOf(body: ReceiptBody, traceDigest: TraceDigest = createTraceDigest()): string {
  return sha256Hex(canonicalJson({ ...body, trace: traceDigest.digest(body.trace) }));
}

/** What a compiler keeps between compilations so that unchanged rows and chunks are not projected or hashed again. */
export interface AttestMemory {
  readonly records: TreeDigest<SourceRecord>;
  readonly trace: TraceDigest;
  readonly project: (trace: readonly TraceRow[]) => Receipt['trace'];
}

export function createAttestMemory(): AttestMemory {
  return { records: createRecordSetDigest(), trace: createTraceDigest(), project: createTraceProjection() };
}

export interface AttestInput {
  readonly contract: Contract;
  /** Every record, in id order (the resolution's order). */
  readonly records: readonly SourceRecord[];
  readonly memory?: AttestMemory;
  readonly plan: Plan;
  readonly packet: Packet | null;
  readonly controls: readonly string[];
  readonly lateChanges: readonly string[];
}

function projectRow({ id, decision, code, fact, tokens, required, score }: TraceRow): ReceiptTraceRow {
  return { id, decision, code, fact, tokens, required, score };
}

/**
 * The receipt's rows. The plan hands back an unchanged row as the same object in the same place, so
 * its projection is taken from last time by position: an unchanged row is the same object to the
 * trace digest, which then need not hash it again.
 */
function createTraceProjection(): (trace: readonly TraceRow[]) => Receipt['trace'] {
  let last: { readonly trace: readonly TraceRow[]; readonly projected: Receipt['trace'] } | null = null;
  return (trace) => {
    if (last?.trace === trace) return last.projected;
    const before = last?.trace.length === trace.length ? last : null;
    const projected = trace.map((row, index) => (before?.trace[index] === row ? (before.projected[index] as ReceiptTraceRow) : projectRow(row)));
    last = { trace, projected };
    return projected;
  };
}

/** Pass 6: the receipt is canonical JSON; its id hashes everything else in it (see `receiptIdOf`). */
export function attest(input: AttestInput): Receipt {
  const { contract, plan, packet } = input;
  const failure = plan.failure;
  const body: ReceiptBody = {
    schemaVersion: SCHEMA_VERSION,
    engineVersion: ENGINE_VERSION,
    outcome: failure ? 'fail_closed' : 'packet',
    task: contract.task,
    asOf: formatInstant(parseInstant(contract.asOf) ?? 0),
    ranking: contract.ranking,
    contractFingerprint: contractFingerprint(contract),
    recordSetDigest: (input.memory?.records ?? createRecordSetDigest()).digest(input.records),
    packetFingerprint: packet ? sha256Hex(packet.body) : null,
    controls: sortedSet(input.controls),
    lateChanges: sortedSet(input.lateChanges),
    tokenBudget: contract.tokenBudget,
    tokensUsed: plan.tokensUsed,
    selected: plan.selected.map((record) => record.id),
    evidence: plan.evidence.map((slot) => ({ proposition: slot.proposition, state: slot.state, records: [...slot.supporting, ...slot.contradicting] })),
    decisionBlockedBy: plan.decisionBlockedBy,
    failure: failure ? { pass: failure.pass, code: failure.code, recordId: failure.recordId ?? null, fact: failure.fact ?? failure.message } : null,
    trace: (input.memory?.project ?? createTraceProjection())(plan.trace),
  };
  return { receiptId: receiptIdOf(body, input.memory?.trace), ...body };
}

/** Canonical JSON of a receipt: the bytes that are downloaded, compared and verified. */
export function serialiseReceipt(receipt: Receipt): string {
  return canonicalJson(receipt);
}
