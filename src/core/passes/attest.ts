import { canonicalJson, compareStrings, sortedSet } from '../canonical';
import type { Contract } from '../format/contract';
import type { SourceRecord } from '../format/record';
import { formatInstant, parseInstant } from '../format/time';
import { createDigest, sha256Hex } from '../hash';
import type { Packet, PacketEntry, Receipt, TraceRow } from '../result';
import type { Plan } from './plan';

export const SCHEMA_VERSION = 'context-compiler/1';
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

const digestInputCache = new WeakMap<SourceRecord, string>();
const recordSetDigestCache = new WeakMap<readonly SourceRecord[], string>();

/**
 * Digest of the whole record set, independent of record order; each record is hashed once per object,
 * and a record set (whose array is never changed once built) once per array, so recompiling it is free.
 */
export function recordSetDigest(records: readonly SourceRecord[]): string {
  const cached = recordSetDigestCache.get(records);
  if (cached !== undefined) return cached;
  const pairs = records.map((record) => {
    let pair = digestInputCache.get(record);
    if (pair === undefined) {
      pair = `${record.id}\u0000${recordFingerprint(record)}\n`;
      digestInputCache.set(record, pair);
    }
    return pair;
  });
  pairs.sort(compareStrings);
  const digest = createDigest();
  for (const pair of pairs) digest.update(pair);
  const hex = digest.hex();
  recordSetDigestCache.set(records, hex);
  return hex;
}

function provenanceLabel(record: SourceRecord): string {
  return record.provenance === null ? 'none' : `${record.provenance.origin} ${record.provenance.contentHash.slice(0, 19)}…`;
}

/** The packet body: what the model is given. Ids, classes, provenance and tokens travel with every entry. */
export function renderPacket(contract: Contract, plan: Plan): Packet {
  const codeOf = new Map(plan.trace.map((row) => [row.id, row.code]));
  const entries: PacketEntry[] = plan.selected.map((record) => ({
    id: record.id,
    title: record.title,
    text: record.text,
    tokens: record.tokens,
    required: contract.requiredRecords.includes(record.id),
    code: codeOf.get(record.id) ?? 'SELECTED_RANKED',
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

const TRACE_MARKER = '"trace":[]';

/**
 * The SHA-256 of `canonicalJson(body)`, fed row by row: the trace (one row per record, megabytes at
 * 100,000 records) is never joined into one string. `"trace":[]` can only occur once in the canonical
 * text, as the key itself, because a quote inside a JSON string is always escaped.
 */
export function receiptIdOf(body: ReceiptBody): string {
  const head = canonicalJson({ ...body, trace: [] });
  const at = head.indexOf(TRACE_MARKER) + TRACE_MARKER.length - 1;
  const digest = createDigest();
  digest.update(head.slice(0, at));
  body.trace.forEach((row, index) => {
    if (index > 0) digest.update(',');
    digest.update(canonicalTraceRow(row));
  });
  digest.update(head.slice(at));
  return digest.hex();
}

export interface AttestInput {
  readonly contract: Contract;
  readonly records: readonly SourceRecord[];
  readonly plan: Plan;
  readonly packet: Packet | null;
  readonly controls: readonly string[];
  readonly lateChanges: readonly string[];
}

function traceForReceipt(trace: readonly TraceRow[]): Receipt['trace'] {
  return trace.map(({ id, decision, code, fact, tokens, required, score }) => ({ id, decision, code, fact, tokens, required, score }));
}

/** Pass 6: the receipt is canonical JSON; its id is the SHA-256 of everything else in it. */
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
    recordSetDigest: recordSetDigest(input.records),
    packetFingerprint: packet ? sha256Hex(packet.body) : null,
    controls: sortedSet(input.controls),
    lateChanges: sortedSet(input.lateChanges),
    tokenBudget: contract.tokenBudget,
    tokensUsed: plan.tokensUsed,
    selected: plan.selected.map((record) => record.id),
    evidence: plan.evidence.map((slot) => ({ proposition: slot.proposition, state: slot.state, records: [...slot.supporting, ...slot.contradicting] })),
    decisionBlockedBy: plan.decisionBlockedBy,
    failure: failure ? { pass: failure.pass, code: failure.code, recordId: failure.recordId ?? null, fact: failure.fact ?? failure.message } : null,
    trace: traceForReceipt(plan.trace),
  };
  return { receiptId: receiptIdOf(body), ...body };
}

/** Canonical JSON of a receipt: the bytes that are downloaded, compared and verified. */
export function serialiseReceipt(receipt: Receipt): string {
  return canonicalJson(receipt);
}
