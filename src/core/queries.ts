import { canonicalJson } from './canonical';
import type { CompileError, Result } from './errors';
import type { Contract } from './format/contract';
import type { Sha256 } from './fingerprints';
import { createMemo, declare, type TableStats } from './memo';
import type { Key, KeyPart } from './memo-keys';
import type { Marks } from './memo-ordered';
import {
  type Admission,
  admit,
  admittedChecked,
  admittedPositions,
  admittedSets,
  checkAgreement,
  evaluateGates,
  GATE_FIELDS,
  gateContextOf,
} from './phases/4-admit/admit';
import { attest, attestedSections, receiptOf, type AttestInput } from './phases/7-attest/attest';
import {
  rankedDigest,
  recordTreeSpec,
  resolvedSetDigest,
  traceDigest,
  traceTreeSpec,
  rootsDigest,
} from './phases/7-attest/attest-digests';
import {
  planAdmittedPart,
  packetPlanFrom,
  PACKET_PLAN_FIELDS,
  REFUSED_ROW_FIELDS,
  refusedRow,
  requiredPositionsOf,
  planPacket,
  type AdmittedPacketPlan,
  type PacketPlan,
} from './phases/6-plan-packet/plan-packet';
import {
  orderById,
  resolve,
  resolveContract,
  resolveRecord,
  supersessionsOf,
  type IdPositions,
  type Resolution,
  type ResolvedRecord,
  type Supersessions,
} from './phases/2-resolve/resolve';
import type { CheckedRecord, RecordSet } from './phases/1-validate/validate';
import { rankDeclared, type Ranking } from './phases/5-rank/ranking';
import type { Receipt } from './result';
import { chunkDigest, chunksOf, createLineBuffer, rootOfChunks, type TreeDigestSpec } from './tree-digest';

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
  planPacket(
    resolution: Resolution,
    admission: Admission,
    ranking: Ranking,
    missingRequired: CompileError | null,
  ): PacketPlan;
  attest(input: AttestInput): Receipt;
  /** A value computed from the content `key` names: the last one again while the key is the same. */
  cell<O>(name: string, key: Key, compute: () => O): O;
}

/** Every pass computed from its inputs, every time: the reference a memoised compiler must agree with. */
export function freshQueries(sha256: Sha256): Queries {
  return {
    resolve,
    admit,
    rankDeclared: (admission) => rankDeclared(admittedChecked(admission)),
    rankStored: (_query, _admission, rank) => rank(),
    planPacket,
    attest: (input) => attest(sha256, input),
    cell: (_name, _key, compute) => compute(),
  };
}

/**
 * What the memo's keys are made of, where a test may leave one input out to show that the incremental property then
 * fails.
 */
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

/**
 * A list of positions as a typed array, by a loop: `Int32Array.from` over a list goes through the iterator protocol,
 * far slower.
 */
function int32(values: readonly number[]): Int32Array {
  const array = new Int32Array(values.length);
  for (let index = 0; index < values.length; index += 1) array[index] = values[index] as number;
  return array;
}

const fingerprintOf = (checked: CheckedRecord): string => checked.fingerprint;

/**
 * What supersession says of the few ids it speaks of, by position in id order: the part of their key besides the
 * fingerprint.
 */
function supersessionSuffixes(indexOf: IdPositions, supersessions: Supersessions): Marks {
  const said = [...new Set([...supersessions.inForce.keys(), ...supersessions.broken.keys()])];
  const found = said
    .map((id) => ({ id, position: indexOf.get(id) }))
    .filter((entry): entry is { id: string; position: number } => entry.position !== undefined);
  return {
    positions: Int32Array.from(found.map((entry) => entry.position)),
    keys: found.map((entry) =>
      canonicalJson([supersessions.inForce.get(entry.id) ?? null, supersessions.broken.get(entry.id) ?? null]),
    ),
  };
}

/**
 * What supersession reads: the as-of instant, which ids exist (the id order's version stands for them), and each
 * record that supersedes something (its fingerprint covers its links). A record it names that supersedes nothing
 * is read only for its existence; one that does is in the list itself.
 */
function supersessionKey(recordSet: RecordSet, asOf: number, idsVersion: number): KeyPart[] {
  const key: KeyPart[] = [asOf, idsVersion];
  for (const item of recordSet.successors) key.push(item.fingerprint);
  return key;
}

/** The trace positions whose rows an admitted part of the plan decided: the admitted ones and a failed required one. */
function plannedPositionsOf(admitted: readonly number[], part: AdmittedPacketPlan): Int32Array {
  const failed = part.failedRow;
  return failed === null || admitted.includes(failed.position)
    ? int32(admitted)
    : Int32Array.from([...admitted, failed.position]).sort();
}

/**
 * The chunks of the trace's two trees (`traceTreeSpec`) when the rows at `planned` are the ones the plan decided and
 * every other row is refused: what `chunksOf` cuts from the rows' codes, worked out from the positions alone.
 */
function traceChunks(ends: Uint8Array, planned: Int32Array): { refused: Int32Array[]; planned: Int32Array[] } {
  const isPlannedAt = new Uint8Array(ends.length);
  for (const position of planned) isPlannedAt[position] = 1;
  const cut = (wanted: number): Int32Array[] => {
    const positions = new Int32Array(ends.length);
    const chunks: Int32Array[] = [];
    let start = 0;
    let end = 0;
    for (let position = 0; position < ends.length; position += 1) {
      if (isPlannedAt[position] !== wanted) continue;
      positions[end] = position;
      end += 1;
      if (ends[position] === 1) {
        chunks.push(positions.subarray(start, end));
        start = end;
      }
    }
    if (end > start) chunks.push(positions.subarray(start, end));
    return chunks;
  };
  return { refused: cut(0), planned: cut(1) };
}

/** What one compilation's later queries need of its earlier ones: the keys and versions they were computed under. */
interface Carried {
  resolution: Resolution | null;
  /** The resolved records' versions: a version stands for a resolved record's content, its fingerprint included. */
  resolvedVersions: Int32Array;
  admission: Admission | null;
  verdictVersions: Int32Array;
  /** The verdicts' versions at the admitted positions. */
  admittedVersions: Int32Array;
  /** The cell that holds this compilation's ranking. */
  ranking: 'rank:admitted' | 'rank:declared' | null;
  packetPlan: PacketPlan | null;
  traceVersions: Int32Array;
  /**
   * The trace positions whose rows the plan decided (PLANNED_CODES): the admitted ones and a failed required one,
   * ascending.
   */
  planned: Int32Array;
  /** What the ranking section is made of: the ranking, the required records and the admitted positions. */
  rankedKey: Key;
}

export function createQueries(sha256: Sha256, rules: KeyRules = { gateFields: GATE_FIELDS }): MemoQueries {
  const memo = createMemo();
  const nothing: Carried = {
    resolution: null,
    resolvedVersions: new Int32Array(0),
    admission: null,
    verdictVersions: new Int32Array(0),
    admittedVersions: new Int32Array(0),
    ranking: null,
    packetPlan: null,
    traceVersions: new Int32Array(0),
    planned: new Int32Array(0),
    rankedKey: null,
  };
  let current = nothing;
  const lineBuffer = createLineBuffer();

  /** A digest tree over `items` cut into `chunks`, whose chunks are hashed again only when their keys changed. */
  const memoTree = <T>(
    table: string,
    items: readonly T[],
    chunks: readonly Int32Array[],
    spec: TreeDigestSpec<T>,
    keyAt: (positions: Int32Array) => Key,
  ): string => {
    const names = chunks.map((positions) => spec.key(items[positions[0] as number] as T));
    const digests = memo.map(table, null, names, chunks.map(keyAt), chunks, (positions) =>
      chunkDigest(sha256, items, positions, spec.leaf, lineBuffer),
    );
    return rootOfChunks(sha256, digests.values);
  };

  /**
   * The record-set digest over the resolution's records. Its chunks are cut by id alone, so they are cut again only
   * when the id order changes; a chunk is hashed again only when a resolved record in it has a new version (a
   * version stands for the record's content, its id and fingerprint included).
   */
  const recordTree = (records: readonly ResolvedRecord[]): string => {
    const { chunks, names } = memo.cell('attest:record-chunks', memo.cellVersion('resolve:id-order'), () => {
      const cut = chunksOf(records, recordTreeSpec);
      return {
        chunks: cut,
        names: cut.map((positions) => recordTreeSpec.key(records[positions[0] as number] as ResolvedRecord)),
      };
    });
    const versions = current.resolvedVersions;
    // A chunk holds consecutive positions: its key is a view of the versions, nothing is copied.
    const keys = chunks.map((positions) =>
      versions.subarray(positions[0] as number, (positions[positions.length - 1] as number) + 1),
    );
    const digests = memo.map('attest:records', null, names, keys, chunks, (positions) =>
      chunkDigest(sha256, records, positions, recordTreeSpec.leaf, lineBuffer),
    );
    return rootOfChunks(sha256, digests.values);
  };

  /**
   * Which positions end a digest chunk, read once per id order: a walk over every record's object costs more than the
   * cut.
   */
  const chunkEnds = (records: readonly ResolvedRecord[]): Uint8Array =>
    memo.cell('attest:chunk-ends', memo.cellVersion('resolve:id-order'), () => {
      const ends = new Uint8Array(records.length);
      for (let position = 0; position < records.length; position += 1)
        if ((records[position] as ResolvedRecord).checked.endsDigestChunk) ends[position] = 1;
      return ends;
    });

  const queries: MemoQueries = {
    revision: (work) => {
      current = nothing;
      return memo.revisionAsync(work);
    },
    stats: () => memo.stats(),
    cell: (name, key, compute) => memo.cell(name, key, compute),

    resolve(contract, recordSet) {
      const resolved = resolveContract(contract);
      if (!resolved.ok) return resolved;
      const { asOf } = resolved.value;
      const { order, indexOf } = memo.cell('resolve:id-order', recordSet.ids, () => orderById(recordSet.ids));
      const supersessions = memo.cell(
        'resolve:supersession',
        supersessionKey(recordSet, asOf, memo.cellVersion('resolve:id-order')),
        () => supersessionsOf(recordSet, asOf),
      );
      // The supersession cell's version stands for its value, and the id order's for the positions of the ids it names.
      const said = memo.cell(
        'resolve:said',
        [memo.cellVersion('resolve:supersession'), memo.cellVersion('resolve:id-order')],
        () => supersessionSuffixes(indexOf, supersessions),
      );
      // A record's fingerprint covers every field it has; what supersession says of it is its mark.
      const records = memo.mapInOrder(
        'resolve:records',
        indexOf.ids,
        order,
        recordSet.checked,
        fingerprintOf,
        said,
        (item) => resolveRecord(item, supersessions),
      );
      const resolution: Resolution = {
        contract: resolved.value,
        records: records.values,
        indexOf,
        brokenLinks: supersessions.brokenLinks,
      };
      current = { ...current, resolution, resolvedVersions: records.versions };
      return { ok: true, value: resolution };
    },

    admit(resolution, storeAdmitted) {
      if (resolution !== current.resolution) return admit(resolution, storeAdmitted);
      const { contract, asOf } = resolution.contract;
      const gates = declare(contract, GATE_FIELDS, (picked) => gateContextOf(picked, asOf));
      const shared = rules.gateFields === GATE_FIELDS ? gates.key : declare(contract, rules.gateFields, () => null).key;
      const ids = resolution.indexOf.ids;
      const judged = memo.map('admit:gates', shared, ids, current.resolvedVersions, resolution.records, (resolved) =>
        evaluateGates(gates.inputs, resolved),
      );
      const positions = admittedPositions(judged.values); // The same admitted positions among the same ids (the id order's version) are the same admitted set.
      const sets = memo.cell('admit:admitted', [memo.cellVersion('resolve:id-order'), int32(positions)], () =>
        admittedSets(resolution.indexOf, positions),
      );
      const agreed = checkAgreement(resolution, judged.values, sets.admittedIds, storeAdmitted);
      if (!agreed.ok) return agreed;
      const admission: Admission = { gates: gates.inputs, verdicts: judged.values, ...sets };
      // A verdict's version stands for its content, the record's included: what ranks and plans the admitted set is
      // keyed by these.
      const admittedVersions = new Int32Array(positions.length);
      for (let index = 0; index < positions.length; index += 1)
        admittedVersions[index] = judged.versions[positions[index] as number] as number;
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
      const refused = memo.map('plan:refused', requiredIds.key, ids, versions, admission.verdicts, (verdict) =>
        refusedRow(verdict, requiredIds.inputs),
      );
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
      const admittedPositions = int32(admission.admitted);
      const key: Key = [
        fields.key,
        missingRequired === null ? null : canonicalJson(missingRequired),
        resolution.records.length,
        ranking,
        required,
        admittedPositions,
        current.admittedVersions,
      ];
      const positions = {
        records: resolution.records,
        verdicts: admission.verdicts,
        admitted: admission.admitted,
        admittedAt: admission.admittedAt,
      };
      const part = memo.cell('plan:admitted', key, () =>
        planAdmittedPart(fields.inputs, positions, requiredPositions, ranked, missingRequired),
      );
      const planned = plannedPositionsOf(admission.admitted, part);
      // Every row the admitted part decided is versioned by the part's cell: planned again, each is hashed again.
      // Comparing each new row with the last one under its id, to keep unchanged chunks' digests, costs more than
      // hashing them.
      const partVersion = memo.cellVersion('plan:admitted');
      const traceVersions = refused.versions.slice();
      for (const position of planned) traceVersions[position] = partVersion;
      const result = packetPlanFrom(refused.values, admission.admitted, part);
      // The ranking section is the ranked admitted optionals: what ranks them, and which are admitted and required.
      const rankedKey: Key = [ranking, required, admittedPositions, current.admittedVersions];
      current = { ...current, packetPlan: result, traceVersions, planned, rankedKey };
      return result;
    },

    attest(input) {
      const sections = attestedSections(sha256, input);
      const { records } = input;
      const recordSetDigest =
        records === current.resolution?.records ? recordTree(records) : resolvedSetDigest(sha256, records);
      if (
        input.attestation !== 'full' ||
        input.packetPlan !== current.packetPlan ||
        sections.trace.length !== records.length
      ) {
        return receiptOf(sha256, input, sections, {
          recordSetDigest,
          traceDigest: traceDigest(sha256, sections.trace),
          rankedDigest: rankedDigest(sha256, sections.ranked),
        });
      }
      // The trace is position for position with the records: chunks are cut where the records' are.
      const endsAt = (position: number) => (records[position] as (typeof records)[number]).checked.endsDigestChunk;
      const versions = current.traceVersions;
      const keyAt = (positions: Int32Array) => {
        const key = new Int32Array(positions.length);
        for (let index = 0; index < positions.length; index += 1)
          key[index] = versions[positions[index] as number] as number;
        return key;
      };
      const refusedSpec = traceTreeSpec(false, endsAt);
      // Which rows fall in which tree is fixed by the planned positions (the plan writes a planned code there and a
      // gate's code everywhere else), and where chunks end by the ids: the trace is cut again only when either changes.
      const ends = chunkEnds(records);
      const cut = memo.cell('attest:trace-chunks', [memo.cellVersion('resolve:id-order'), current.planned], () =>
        traceChunks(ends, current.planned),
      );
      const refusedRoot = memoTree('attest:refused', sections.trace, cut.refused, refusedSpec, keyAt);
      const plannedRoot = memoTree('attest:planned', sections.trace, cut.planned, traceTreeSpec(true, endsAt), keyAt);
      // The ranking section is the admitted part's own list: hashed again only when what it is made of changes.
      const ranked = memo.cell('attest:ranked', current.rankedKey, () => rankedDigest(sha256, sections.ranked));
      return receiptOf(sha256, input, sections, {
        recordSetDigest,
        traceDigest: rootsDigest(sha256, refusedRoot, plannedRoot),
        rankedDigest: ranked,
      });
    },
  };
  return queries;
}
