import { canonicalJson } from './canonical';
import type { CompileError, Result } from './errors';
import type { Contract } from './format/contract';
import { createMemo, declare, type Key, type KeyPart, type TableStats } from './memo';
import { admit, admittedPositions, admittedSets, checkAgreement, type Admission } from './phases/4-admit/admit';
import { attest, attestedSections, receiptOf, type AttestInput } from './phases/7-attest/attest';
import { rankedDigest, recordTreeSpec, traceDigest, traceTreeSpec, rootsDigest } from './phases/7-attest/attest-digests';
import { evaluateGates, gateContextOf, GATE_FIELDS, type GateVerdict } from './phases/4-admit/gates';
import { planAdmittedPart, packetPlanFrom, PACKET_PLAN_FIELDS, REFUSED_ROW_FIELDS, refusedRow, requiredPositionsOf, planPacket, type PacketPlan } from './phases/6-plan-packet/plan-packet';
import { inOrder, orderById, resolve, resolveContract, resolveRecord, supersessionsOf, type Resolution, type Supersessions } from './phases/2-resolve/resolve';
import type { CheckedRecord, RecordSet } from './phases/1-validate/validate';
import { rankDeclared, type Ranking } from './phases/5-rank/ranking';
import type { Receipt, TraceRow } from './result';
import { chunkDigest, chunksOf, rootOfChunks, type TreeDigestSpec } from './tree-digest';

/**
 * The passes as the pipeline calls them (src/core/compile-stages.ts): each a plain function of its inputs
 * (`freshQueries`), or the same functions with the compiler's memo applied (`createQueries`). This is the one
 * module that applies the memo; no pass knows it is cached.
 */
export interface Queries {
  resolve(contract: Contract, recordSet: RecordSet): Result<Resolution, CompileError>;
  admit(resolution: Resolution, storeAdmitted: ReadonlySet<string>): Result<Admission, CompileError>;
  rankDeclared(admission: Admission): Ranking;
  /** The store's ranking of the admitted set for `query` (`rank` asks it). */
  rankStored(query: string, admission: Admission, rank: () => Promise<Ranking>): Promise<Ranking>;
  planPacket(resolution: Resolution, admission: Admission, ranking: Ranking, missingRequired: CompileError | null): PacketPlan;
  attest(input: AttestInput): Receipt;
}

const admittedChecked = (admission: Admission): CheckedRecord[] => admission.admitted.map((position) => (admission.verdicts[position] as GateVerdict).resolved.checked);

/** Every pass computed from its inputs, every time: the reference a memoised compiler must agree with. */
export const freshQueries: Queries = {
  resolve,
  admit,
  rankDeclared: (admission) => rankDeclared(admittedChecked(admission)),
  rankStored: (_query, _admission, rank) => rank(),
  planPacket,
  attest,
};

/** What the memo's keys are made of, where a test may leave one input out to show that the incremental property then fails. */
export interface KeyRules {
  /** The contract fields a verdict's key holds: every gate field (`GATE_FIELDS`) unless a test says otherwise. */
  readonly gateFields: readonly (typeof GATE_FIELDS)[number][];
}

export interface MemoQueries extends Queries {
  /** Runs one compilation as one memo revision. */
  revision<T>(work: () => Promise<T>): Promise<T>;
  /** What the memo reused and computed in the last compilation, per table. */
  stats(): ReadonlyMap<string, TableStats>;
}

/** A list of positions as a typed array, by a loop: `Int32Array.from` over a list went through the iterator protocol, far slower. */
function int32(values: readonly number[]): Int32Array {
  const array = new Int32Array(values.length);
  for (let index = 0; index < values.length; index += 1) array[index] = values[index] as number;
  return array;
}

/** A resolved record's content: its fingerprint (which covers every field), and what supersession says of its id. */
function resolvedKey(checked: CheckedRecord, supersessions: Supersessions): string {
  const id = checked.record.id;
  const successor = supersessions.inForce.get(id);
  const broken = supersessions.broken.get(id);
  return successor === undefined && broken === undefined ? checked.fingerprint : `${checked.fingerprint}|${canonicalJson([successor ?? null, broken ?? null])}`;
}

/** What supersession reads: the as-of instant, each record that supersedes something and each record it names (null when absent). */
function supersessionKey(recordSet: RecordSet, asOf: number): KeyPart[] {
  const key: KeyPart[] = [asOf];
  for (const item of recordSet.successors) {
    key.push(item.fingerprint);
    for (const target of item.record.supersedes) key.push(recordSet.byId.get(target)?.fingerprint ?? null);
  }
  return key;
}

/** What one compilation's later queries need of its earlier ones: the keys and versions they were computed under. */
interface Carried {
  resolution: Resolution | null;
  resolvedKeys: readonly string[];
  admission: Admission | null;
  verdictVersions: Int32Array;
  /** The verdicts' versions at the admitted positions. */
  admittedVersions: Int32Array;
  /** The cell that holds this compilation's ranking. */
  ranking: 'rank:admitted' | 'rank:declared' | null;
  packetPlan: PacketPlan | null;
  traceVersions: Int32Array;
}

export function createQueries(rules: KeyRules = { gateFields: GATE_FIELDS }): MemoQueries {
  const memo = createMemo();
  const nothing: Carried = {
    resolution: null,
    resolvedKeys: [],
    admission: null,
    verdictVersions: new Int32Array(0),
    admittedVersions: new Int32Array(0),
    ranking: null,
    packetPlan: null,
    traceVersions: new Int32Array(0),
  };
  let current = nothing;

  /** A digest tree whose chunks are hashed again only when the content keys of their items changed. */
  const memoTree = <T>(table: string, items: readonly T[], spec: TreeDigestSpec<T>, keyAt: (positions: Int32Array) => Key): string => {
    const chunks = chunksOf(items, spec);
    const names = chunks.map((positions) => spec.key(items[positions[0] as number] as T));
    const digests = memo.map(table, null, names, chunks.map(keyAt), chunks, (positions) => chunkDigest(items, positions, spec.leaf));
    return rootOfChunks(digests.values);
  };

  const queries: MemoQueries = {
    revision: (work) => {
      current = nothing;
      return memo.revisionAsync(work);
    },
    stats: () => memo.stats(),

    resolve(contract, recordSet) {
      const resolved = resolveContract(contract);
      if (!resolved.ok) return resolved;
      const { asOf } = resolved.value;
      const { order, indexOf } = memo.cell('resolve:id-order', recordSet.ids, () => orderById(recordSet.ids));
      const supersessions = memo.cell('resolve:supersession', supersessionKey(recordSet, asOf), () => supersessionsOf(recordSet, asOf));
      const checked = inOrder(order, recordSet.checked);
      const keys = checked.map((item) => resolvedKey(item, supersessions));
      const records = memo.map('resolve:records', null, indexOf.ids, keys, checked, (item) => resolveRecord(item, supersessions)).values;
      const resolution: Resolution = { contract: resolved.value, records, indexOf, brokenLinks: supersessions.brokenLinks };
      current = { ...current, resolution, resolvedKeys: keys };
      return { ok: true, value: resolution };
    },

    admit(resolution, storeAdmitted) {
      if (resolution !== current.resolution) return admit(resolution, storeAdmitted);
      const { contract, asOf } = resolution.contract;
      const gates = declare(contract, GATE_FIELDS, (picked) => gateContextOf(picked, asOf));
      const shared = rules.gateFields === GATE_FIELDS ? gates.key : declare(contract, rules.gateFields, () => null).key;
      const ids = resolution.indexOf.ids;
      const judged = memo.map('admit:gates', shared, ids, current.resolvedKeys, resolution.records, (resolved) => evaluateGates(gates.inputs, resolved));
      const positions = admittedPositions(judged.values); // The same admitted positions among the same ids (the id order's version) are the same admitted set.
      const sets = memo.cell('admit:admitted', [memo.cellVersion('resolve:id-order'), int32(positions)], () => admittedSets(resolution.indexOf, positions));
      const agreed = checkAgreement(resolution, judged.values, sets.admittedIds, storeAdmitted);
      if (!agreed.ok) return agreed;
      const admission: Admission = { gates: gates.inputs, verdicts: judged.values, ...sets };
      // A verdict's version stands for its content, the record's included: what ranks and plans the admitted set is keyed by these.
      const admittedVersions = new Int32Array(positions.length);
      for (let index = 0; index < positions.length; index += 1) admittedVersions[index] = judged.versions[positions[index] as number] as number;
      current = { ...current, admission, verdictVersions: judged.versions, admittedVersions };
      return { ok: true, value: admission };
    },

    rankDeclared(admission) {
      if (admission !== current.admission) return rankDeclared(admittedChecked(admission));
      current = { ...current, ranking: 'rank:declared' };
      return memo.cell('rank:declared', current.admittedVersions, () => rankDeclared(admittedChecked(admission)));
    },

    rankStored(query, admission, rank) {
      if (admission !== current.admission) return rank();
      current = { ...current, ranking: 'rank:admitted' };
      return memo.cell('rank:admitted', [query, current.admittedVersions], rank);
    },

    planPacket(resolution, admission, ranked, missingRequired) {
      if (admission !== current.admission) return planPacket(resolution, admission, ranked, missingRequired);
      const { contract } = resolution.contract;
      const ids = resolution.indexOf.ids;
      const versions = current.verdictVersions;
      const requiredIds = declare(contract, REFUSED_ROW_FIELDS, ({ requiredRecords }) => new Set(requiredRecords));
      const refused = memo.map('plan:refused', requiredIds.key, ids, versions, admission.verdicts, (verdict) => refusedRow(verdict, requiredIds.inputs));
      const requiredPositions = requiredPositionsOf(resolution);
      const fields = declare(contract, PACKET_PLAN_FIELDS, (picked) => picked);
      // The admitted part reads the admitted and required records with their verdicts (a verdict's version stands
      // for its content, the record's included) and the ranking; a toggle that changes none of them reuses it whole.
      const required = new Int32Array(requiredPositions.length * 2);
      requiredPositions.forEach((position, index) => {
        required[2 * index] = position;
        required[2 * index + 1] = versions[position] as number;
      });
      // A ranking's cell version stands for its rows; one handed in from elsewhere is keyed by its rows.
      const ranking = current.ranking === null ? canonicalJson(ranked.rows) : memo.cellVersion(current.ranking);
      const key: Key = [
        fields.key,
        missingRequired === null ? null : canonicalJson(missingRequired),
        resolution.records.length,
        ranking,
        required,
        int32(admission.admitted),
        current.admittedVersions,
      ];
      const positions = { records: resolution.records, verdicts: admission.verdicts, admitted: admission.admitted, admittedAt: admission.admittedAt };
      const part = memo.cell('plan:admitted', key, () => planAdmittedPart(fields.inputs, positions, requiredPositions, ranked, missingRequired));
      // Versions of the rows the admitted part wrote: a row equal to the last one for its record keeps its version, so its chunk of the receipt is not hashed again.
      const planned = memo.settle(
        'plan:planned',
        admission.admitted.map((position) => ids[position] as string),
        part.rows,
      );
      const failed = part.failedRow === null ? null : memo.settle('plan:failed', [ids[part.failedRow.position] as string], [part.failedRow.row]);
      const traceVersions = refused.versions.slice();
      admission.admitted.forEach((position, index) => {
        traceVersions[position] = planned.versions[index] as number;
      });
      const failedRow = part.failedRow === null || failed === null ? null : { position: part.failedRow.position, row: failed.values[0] as TraceRow };
      if (failedRow !== null) traceVersions[failedRow.position] = failed?.versions[0] as number;
      const result = packetPlanFrom(refused.values, admission.admitted, { ...part, rows: planned.values, failedRow });
      current = { ...current, packetPlan: result, traceVersions };
      return result;
    },

    attest(input) {
      const sections = attestedSections(input);
      const { records } = input;
      const recordSetDigest = memoTree('attest:records', records, recordTreeSpec, (positions) => {
        const fingerprints = new Array<string>(positions.length);
        for (let index = 0; index < positions.length; index += 1) fingerprints[index] = (records[positions[index] as number] as (typeof records)[number]).checked.fingerprint;
        return fingerprints;
      });
      if (input.attestation !== 'full' || input.packetPlan !== current.packetPlan || sections.trace.length !== records.length) {
        return receiptOf(input, sections, { recordSetDigest, traceDigest: traceDigest(sections.trace), rankedDigest: rankedDigest(sections.ranked) });
      }
      // The trace is position for position with the records: chunks are cut where the records' are.
      const endsAt = (position: number) => (records[position] as (typeof records)[number]).checked.endsDigestChunk;
      const versions = current.traceVersions;
      const keyAt = (positions: Int32Array) => {
        const key = new Int32Array(positions.length);
        for (let index = 0; index < positions.length; index += 1) key[index] = versions[positions[index] as number] as number;
        return key;
      };
      const refusedRoot = memoTree('attest:refused', sections.trace, traceTreeSpec(false, endsAt), keyAt);
      const plannedRoot = memoTree('attest:planned', sections.trace, traceTreeSpec(true, endsAt), keyAt);
      // The ranking section is the plan's admitted part's own list.
      const ranked = memo.cell('attest:ranked', memo.cellVersion('plan:admitted'), () => rankedDigest(sections.ranked));
      return receiptOf(input, sections, { recordSetDigest, traceDigest: rootsDigest(refusedRoot, plannedRoot), rankedDigest: ranked });
    },
  };
  return queries;
}
