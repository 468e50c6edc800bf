import { compareStrings } from '../canonical';
import { carryTree, changedPositions, layoutOf, type CarriedTree, type Layout, type TreeRules } from '../carried-tree';
import { sha256Hex } from '../hash';
import type { Carried, Derive } from '../memo';
import type { ReasonCode } from '../reasons';
import { canonicalJson } from '../canonical';
import type { RankedEntry, TraceRow } from '../result';
import { treeDigest, type TreeDigestSpec } from '../tree-digest';
import type { ResolvedRecord } from './resolve';
import { canonicalTraceRow, joinRow, partsFit, partsOf, type RowParts } from './trace-row-bytes';
import type { CheckedRecord } from './validate';

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
 * order. Every row is covered.
 */
export function traceDigest(trace: readonly TraceRow[]): string {
  const refused: TreeDigestSpec<TraceRow> = {
    key: (row) => row.id,
    leaf: canonicalTraceRow,
    include: (row) => !isPlanned(row),
  };
  const planned: TreeDigestSpec<TraceRow> = { key: (row) => row.id, leaf: canonicalTraceRow, include: isPlanned };
  return rootsDigest(treeDigest(trace, refused), treeDigest(trace, planned));
}

export const rootsDigest = (refused: string, planned: string) => sha256Hex(`${refused}\n${planned}\n`);

/**
 * The ranking section's canonical JSON, written by hand: an entry's keys (id, rank, score) are already in canonical
 * order.
 */
function canonicalRanked(ranked: readonly RankedEntry[]): string {
  const parts: string[] = [];
  for (const entry of ranked) {
    const plain =
      typeof entry.id === 'string' &&
      Number.isFinite(entry.rank) &&
      Number.isFinite(entry.score) &&
      Object.keys(entry).length === 3;
    parts.push(
      plain
        ? `{"id":${JSON.stringify(entry.id)},"rank":${String(entry.rank)},"score":${String(entry.score)}}`
        : canonicalJson(entry),
    );
  }
  return `[${parts.join(',')}]`;
}

/** The ranking section's digest, which stands for it in the receipt id: the SHA-256 of its canonical JSON. */
export const rankedDigest = (ranked: readonly RankedEntry[]) => sha256Hex(canonicalRanked(ranked));

const recordLeaf = ({ record, fingerprint }: CheckedRecord) => `${record.id}\u0000${fingerprint}`;

/**
 * Digest of the whole record set, independent of record order: a tree over each record's id and fingerprint, in id
 * order.
 */
export function recordSetDigest(records: readonly CheckedRecord[]): string {
  const inIdOrder = [...records].sort((a, b) => compareStrings(a.record.id, b.record.id));
  return treeDigest(inIdOrder, {
    key: (item) => item.record.id,
    leaf: recordLeaf,
    endsChunk: (item) => item.endsDigestChunk,
  });
}

interface RecordTree {
  readonly layout: Layout;
  readonly tree: CarriedTree<ResolvedRecord>;
}

interface RowTree {
  readonly layout: Layout;
  readonly tree: CarriedTree<TraceRow>;
  /**
   * By position, the parts of the rows this tree wrote (`trace-row-bytes.ts`), to be joined again around new scores.
   */
  readonly parts: readonly (RowParts | undefined)[];
}

const counted = <S extends { readonly tree: CarriedTree<unknown> }>(value: S): Carried<S> => ({
  value,
  reused: value.tree.reused,
  computed: value.tree.computed,
});

const recordRules: TreeRules<ResolvedRecord> = { include: () => true, leaf: (item) => recordLeaf(item.checked) };

/**
 * The chunk cuts of records in id order, read from each record once. A plain loop: `Uint8Array.from` with a mapping
 * function went through the iterator protocol, far slower.
 */
function cutsOf(records: readonly ResolvedRecord[]): Uint8Array {
  const cuts = new Uint8Array(records.length);
  for (let position = 0; position < records.length; position += 1)
    if ((records[position] as ResolvedRecord).checked.endsDigestChunk) cuts[position] = 1;
  return cuts;
}

/**
 * The record-set tree over the resolution's records, brought up to date from the last compilation's where the positions
 * held.
 */
function recordTree(records: readonly ResolvedRecord[], derive: Derive): RecordTree {
  const fresh = (records: readonly ResolvedRecord[], last: RecordTree | null): Carried<RecordTree> => {
    const layout = layoutOf(cutsOf(records));
    return counted({ layout, tree: carryTree(records, layout, recordRules, last?.tree ?? null, null) });
  };
  return derive.carry(
    'attest:records',
    records,
    (records) => fresh(records, null),
    (last, records) => {
      if (last.tree.items.length !== records.length) return fresh(records, last);
      const changed = changedPositions(last.tree.items, records);
      // A record whose cut moved (another id at its position) moves every chunk after it.
      for (const position of changed)
        if ((records[position] as ResolvedRecord).checked.endsDigestChunk !== (last.layout.cuts[position] === 1))
          return fresh(records, last);
      return counted({ layout: last.layout, tree: carryTree(records, last.layout, recordRules, last.tree, changed) });
    },
  );
}

/** The positions where the trace differs from an earlier one. */
type ChangedSince = (earlier: readonly TraceRow[]) => readonly number[];

/**
 * One of the trace's two trees, carried like the record tree; a trace on another layout is read again whole (its
 * positions moved).
 */
function rowTree(
  name: string,
  include: (row: TraceRow) => boolean,
  keepParts: boolean,
  trace: readonly TraceRow[],
  changedSince: ChangedSince,
  layout: Layout,
  derive: Derive,
): RowTree {
  const make = (last: RowTree | null, aligned: boolean): Carried<RowTree> => {
    const parts = !keepParts
      ? []
      : aligned && last !== null
        ? last.parts.slice()
        : new Array<RowParts | undefined>(trace.length);
    const leaf = (row: TraceRow, position: number) => {
      if (!keepParts) return canonicalTraceRow(row);
      let kept = parts[position];
      if (kept === undefined || !partsFit(kept, row)) {
        const made = partsOf(row);
        if (made === null) return canonicalTraceRow(row);
        kept = made;
        parts[position] = made;
      }
      return joinRow(row, kept);
    };
    const tree = carryTree(
      trace,
      layout,
      { include, leaf },
      last?.tree ?? null,
      aligned && last !== null ? changedSince(last.tree.items) : null,
    );
    return counted({ layout, tree, parts });
  };
  return derive.carry(
    name,
    null,
    () => make(null, false),
    (last) => make(last, last.layout === layout && last.tree.items.length === trace.length),
  );
}

/**
 * The receipt's record-set digest and trace digest, the bytes `recordSetDigest` and `traceDigest` give,
 * worked out again only where the records or rows changed since the last compilation (carried under
 * `derive`). `trace` is position for position with `records`, as the plan pass writes it.
 */
export function receiptDigests(
  records: readonly ResolvedRecord[],
  trace: readonly TraceRow[],
  derive: Derive,
): { readonly recordSetDigest: string; readonly traceDigest: string } {
  const ofRecords = recordTree(records, derive);
  if (trace.length !== records.length) return { recordSetDigest: ofRecords.tree.root, traceDigest: traceDigest(trace) };
  // Refused rows change one at a time, so only planned rows keep their parts (a refused row's would hold 100,000
  // strings for nothing).
  // Both trees were carried from the same last trace: its changed positions are found once.
  let found: { readonly earlier: readonly TraceRow[]; readonly changed: readonly number[] } | null = null;
  const changedSince: ChangedSince = (earlier) => {
    if (found?.earlier !== earlier) found = { earlier, changed: changedPositions(earlier, trace) };
    return found.changed;
  };
  const refused = rowTree(
    'attest:refused',
    (row) => !isPlanned(row),
    false,
    trace,
    changedSince,
    ofRecords.layout,
    derive,
  );
  const planned = rowTree('attest:planned', isPlanned, true, trace, changedSince, ofRecords.layout, derive);
  return { recordSetDigest: ofRecords.tree.root, traceDigest: rootsDigest(refused.tree.root, planned.tree.root) };
}
