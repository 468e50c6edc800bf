import { canonicalJson, compareStrings, sortedSet } from '../canonical';
import { contractFingerprint, normaliseContract } from '../fingerprints';
import type { Contract } from '../format/contract';
import type { SourceRecord } from '../format/record';
import { formatInstant, parseInstant } from '../format/time';
import { sha256Hex } from '../hash';
import { computeAll, type Derive } from '../memo';
import { ARG_ORDER, quotedName, type ReasonCode } from '../reasons';
import type { Packet, PacketEntry, Receipt, ReceiptAdmission, TraceRow } from '../result';
import type { RankingStatistics } from '../search/rank';
import { treeDigest, type TreeDigestSpec } from '../tree-digest';
import type { Plan } from './plan';
import type { ResolvedRecord } from './resolve';
import type { CheckedRecord } from './validate';

export const SCHEMA_VERSION = 'context-compiler/4';
export const ENGINE_VERSION = '0.2.0';

/** Why a receipt of another schema or engine version is `STALE_ENGINE_VERSION`: both versions, the receipt's and this engine's. */
export function staleEngineDetail(receipt: { readonly schemaVersion: string; readonly engineVersion?: unknown }): string {
  const engine = typeof receipt.engineVersion === 'string' ? receipt.engineVersion : 'an unknown engine';
  return `Receipt ${engine} (${receipt.schemaVersion}); engine ${ENGINE_VERSION} (${SCHEMA_VERSION}).`;
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

const ROW_KEYS = ['args', 'code', 'decision', 'fact', 'fingerprint', 'gates', 'id', 'rank', 'required', 'score', 'tokens'];

/** A row of exactly the trace row's keys and types; anything else (a receipt read from a file, say) takes the generic path. */
function isPlainTraceRow(row: TraceRow): boolean {
  let keys = 0;
  for (const key in row) if (Object.hasOwn(row, key)) keys += 1;
  return (
    keys === ROW_KEYS.length &&
    typeof row.code === 'string' &&
    typeof row.decision === 'string' &&
    typeof row.fact === 'string' &&
    typeof row.fingerprint === 'string' &&
    typeof row.id === 'string' &&
    Array.isArray(row.gates) &&
    (row.rank === null || (typeof row.rank === 'number' && Number.isFinite(row.rank))) &&
    typeof row.required === 'boolean' &&
    (row.score === null || (typeof row.score === 'number' && Number.isFinite(row.score))) &&
    typeof row.tokens === 'number' &&
    Number.isFinite(row.tokens)
  );
}

/** JSON of a finite number or null, as JSON.stringify writes it (a finite number's JSON is its String). */
const numberOrNull = (value: number | null) => (value === null ? 'null' : String(value));

/** `canonicalJson(args)` for arguments shaped as the catalogue declares them; anything else takes the generic path. */
function canonicalArgs(fact: string, args: TraceRow['args']): string {
  const names = ARG_ORDER.get(fact);
  let count = 0;
  for (const name in args) if (Object.hasOwn(args, name)) count += 1;
  if (names === undefined || names.length !== count) return canonicalJson(args);
  let text = '{';
  for (const [index, name] of names.entries()) {
    const prefix = `${index > 0 ? ',' : ''}${quotedName(name)}:`;
    const value = args[name];
    if (value === undefined) return canonicalJson(args);
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return canonicalJson(args);
      text += prefix + String(value);
    } else text += prefix + JSON.stringify(value);
  }
  return `${text}}`;
}

/** The JSON of a list of names, or null when an item is not a string (the generic path writes that). */
function nameList(names: readonly unknown[]): string | null {
  let text = '[';
  for (let index = 0; index < names.length; index += 1) {
    const name = names[index];
    if (typeof name !== 'string') return null;
    text += (index > 0 ? ',' : '') + quotedName(name);
  }
  return `${text}]`;
}

/** Exactly the bytes `canonicalJson(row)` writes, without sorting the keys of 100,000 rows one by one. */
export function canonicalTraceRow(row: TraceRow): string {
  const gates = isPlainTraceRow(row) ? nameList(row.gates) : null;
  if (gates === null) return canonicalJson(row);
  return (
    `{"args":${canonicalArgs(row.fact, row.args)},"code":${quotedName(row.code)},"decision":${quotedName(row.decision)},"fact":${quotedName(row.fact)},` +
    `"fingerprint":${JSON.stringify(row.fingerprint)},"gates":${gates},"id":${JSON.stringify(row.id)},"rank":${numberOrNull(row.rank)},` +
    `"required":${row.required},"score":${numberOrNull(row.score)},"tokens":${String(row.tokens)}}`
  );
}

/**
 * Codes the plan pass gives admitted records. Their facts quote the running budget and their scores
 * move with the admitted set, so one toggle rewrites many of them; rows refused by a gate keep theirs.
 * Hashing the two kinds in separate trees keeps a toggle from dirtying every chunk of the refused rows.
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

const isPlanned = (row: TraceRow) => PLANNED_CODES.has(row.code);

/**
 * The trace's digest: the SHA-256 of two tree digests (src/core/tree-digest.ts), one line each: the
 * rows refused by a legality gate, then the rows the plan pass decided (PLANNED_CODES), each in trace
 * order. Every row is covered. `cuts`, when the caller has them, are `endsChunk(trace[i].id)` for every i:
 * they spare work, never change the digest.
 */
export function traceDigest(trace: readonly TraceRow[], derive: Derive = computeAll, cuts?: Uint8Array): string {
  const endsChunk = cuts === undefined ? undefined : (_row: TraceRow, index: number) => cuts[index] === 1;
  const refused: TreeDigestSpec<TraceRow> = { name: 'attest:refused', key: (row) => row.id, leaf: canonicalTraceRow, include: (row) => !isPlanned(row), endsChunk };
  const planned: TreeDigestSpec<TraceRow> = { name: 'attest:planned', key: (row) => row.id, leaf: canonicalTraceRow, include: isPlanned, endsChunk };
  return sha256Hex(`${treeDigest(trace, refused, derive)}\n${treeDigest(trace, planned, derive)}\n`);
}

const recordLeaf = ({ record, fingerprint }: CheckedRecord) => `${record.id}\u0000${fingerprint}`;

/** Digest of the whole record set, independent of record order: a tree over each record's id and fingerprint, in id order. */
export function recordSetDigest(records: readonly CheckedRecord[]): string {
  const inIdOrder = [...records].sort((a, b) => compareStrings(a.record.id, b.record.id));
  return treeDigest(inIdOrder, { name: 'records', key: (item) => item.record.id, leaf: recordLeaf, endsChunk: (item) => item.endsDigestChunk });
}

/** The receipt id: the SHA-256 of the canonical receipt body in which the trace array is replaced by its digest (`cuts` as there). */
export function receiptIdOf(body: ReceiptBody, derive: Derive = computeAll, cuts?: Uint8Array): string {
  return sha256Hex(canonicalJson({ ...body, trace: traceDigest(body.trace, derive, cuts) }));
}

export interface AttestInput {
  readonly contract: Contract;
  /** Every record, in id order (the resolution's order). */
  readonly records: readonly ResolvedRecord[];
  readonly plan: Plan;
  readonly packet: Packet | null;
  readonly ranking: RankingStatistics;
  readonly admission: ReceiptAdmission;
  readonly controls: readonly string[];
  readonly lateChanges: readonly string[];
}

/** Pass 6: the receipt is canonical JSON; its id hashes everything else in it (see `receiptIdOf`). */
export function attest(input: AttestInput, derive: Derive = computeAll): Receipt {
  const { contract, plan, packet } = input;
  const failure = plan.failure;
  // Each record's chunk cut, read once for the three trees: the plan pass puts the trace position for
  // position with the records, and walking 100,000 scattered records costs more than the flags.
  // A plain loop: `Uint8Array.from` with a mapping function goes through the iterator protocol, far slower here.
  const cuts = new Uint8Array(input.records.length);
  input.records.forEach((item, index) => {
    if (item.checked.endsDigestChunk) cuts[index] = 1;
  });
  const cutAt = (_item: unknown, index: number) => cuts[index] === 1;
  const body: ReceiptBody = {
    schemaVersion: SCHEMA_VERSION,
    engineVersion: ENGINE_VERSION,
    outcome: failure ? 'fail_closed' : 'packet',
    contract: normaliseContract(contract),
    contractFingerprint: contractFingerprint(contract),
    // The same tree as `recordSetDigest`, over the resolution's records, which are in id order already.
    recordSetDigest: treeDigest(
      input.records,
      { name: 'attest:records', key: (item) => item.checked.record.id, leaf: (item) => recordLeaf(item.checked), endsChunk: cutAt },
      derive,
    ),
    packetFingerprint: packet ? sha256Hex(packet.body) : null,
    controls: sortedSet(input.controls),
    lateChanges: sortedSet(input.lateChanges),
    ranking: input.ranking,
    executedBy: input.admission,
    tokensUsed: plan.tokensUsed,
    selected: plan.selected.map((record) => record.id),
    evidence: plan.evidence.map((slot) => ({ proposition: slot.proposition, state: slot.state, records: [...slot.supporting, ...slot.contradicting] })),
    decisionBlockedBy: plan.decisionBlockedBy,
    failure:
      failure && failure.fact
        ? { pass: failure.pass, code: failure.code, recordId: failure.recordId ?? null, fact: failure.fact.fact, args: failure.fact.args }
        : null,
    trace: plan.trace,
  };
  return { receiptId: receiptIdOf(body, derive, plan.trace.length === cuts.length ? cuts : undefined), ...body };
}

/** Canonical JSON of a receipt: the bytes that are downloaded, compared and verified. */
export function serialiseReceipt(receipt: Receipt): string {
  return canonicalJson(receipt);
}
