import { compareStrings } from '../../canonical';
import type { Sha256 } from '../../fingerprints';
import type { ReasonCode } from '../../reasons';
import { canonicalJson } from '../../canonical';
import type { RankedEntry, TraceRow } from '../../result';
import { treeDigest, type TreeDigestSpec } from '../../tree-digest';
import type { ResolvedRecord } from '../2-resolve/resolve';
import { canonicalTraceRow } from './trace-row-bytes';
import type { CheckedRecord } from '../1-validate/validate';

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

export const isPlanned = (row: TraceRow) => PLANNED_CODES.has(row.code);

/**
 * The trace's digest: the SHA-256 of two tree digests (src/core/tree-digest.ts), one line each: the
 * rows refused by a legality gate, then the rows the plan pass decided (PLANNED_CODES), each in trace
 * order. Every row is covered.
 */
export function traceDigest(sha256: Sha256, trace: readonly TraceRow[]): string {
  return rootsDigest(
    sha256,
    treeDigest(sha256, trace, traceTreeSpec(false)),
    treeDigest(sha256, trace, traceTreeSpec(true)),
  );
}

export const rootsDigest = (sha256: Sha256, refused: string, planned: string) => sha256.hex(`${refused}\n${planned}\n`);

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
export const rankedDigest = (sha256: Sha256, ranked: readonly RankedEntry[]) => sha256.hex(canonicalRanked(ranked));

const recordLeaf = ({ record, fingerprint }: CheckedRecord) => `${record.id}\u0000${fingerprint}`;

/**
 * Digest of the whole record set, independent of record order: a tree over each record's id and fingerprint, in id
 * order.
 */
export function recordSetDigest(sha256: Sha256, records: readonly CheckedRecord[]): string {
  const inIdOrder = [...records].sort((a, b) => compareStrings(a.record.id, b.record.id));
  return treeDigest(sha256, inIdOrder, {
    key: (item) => item.record.id,
    leaf: recordLeaf,
    endsChunk: (item) => item.endsDigestChunk,
  });
}

export const recordTreeSpec: TreeDigestSpec<ResolvedRecord> = {
  key: (item) => item.checked.record.id,
  leaf: (item) => recordLeaf(item.checked),
  endsChunk: (item) => item.checked.endsDigestChunk,
};

/**
 * The receipt's record-set digest over the resolution's records, already in id order: `recordSetDigest` without the
 * sort.
 */
export const resolvedSetDigest = (sha256: Sha256, records: readonly ResolvedRecord[]) =>
  treeDigest(sha256, records, recordTreeSpec);

/**
 * The spec of one of the trace's two trees (refused rows, or the rows the plan pass decided), cut where `endsAt` says.
 */
export function traceTreeSpec(planned: boolean, endsAt?: (position: number) => boolean): TreeDigestSpec<TraceRow> {
  return {
    key: (row) => row.id,
    leaf: canonicalTraceRow,
    include: planned ? isPlanned : (row) => !isPlanned(row),
    ...(endsAt === undefined ? {} : { endsChunk: (_row: TraceRow, position: number) => endsAt(position) }),
  };
}
