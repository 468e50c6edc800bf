import { compareStrings } from './canonical';
import { changesIn, isObject, sameJson, unionKeys, type FieldChange, type JsonObject } from './json-compare';

/**
 * What two receipts say differently, for a reader: the CLI's `diff`, the fire drill's STALE verdict, the
 * app's receipt check and its baseline view all show this one structure. It reads the receipt's contract,
 * tells changed records by each row's fingerprint, and walks every other field generically, so a field
 * added to the format shows up without a change here. Every list is in a fixed order and every step is
 * linear in the rows (maps, no nested scans), so two 100,000-row receipts diff in one pass each.
 */

/** The parts of a receipt the diff reads (src/core/format/receipt.ts); the rest is compared field by field. */
export interface DiffableReceipt {
  readonly receiptId: string;
  readonly schemaVersion: string;
  /** The normalised contract the receipt compiled. */
  readonly contract: object;
  readonly selected: readonly string[];
  readonly tokensUsed: number;
  readonly packetFingerprint: string | null;
  readonly evidence: readonly {
    readonly proposition: string;
    readonly state: string;
    readonly records: readonly string[];
  }[];
  readonly trace: readonly DiffableRow[];
}

export interface DiffableRow {
  readonly id: string;
  readonly decision: string;
  readonly code: string;
  /** The record's SHA-256 fingerprint. */
  readonly fingerprint?: string;
}

export interface DecisionChange {
  readonly id: string;
  readonly before: { readonly decision: string; readonly code: string };
  readonly after: { readonly decision: string; readonly code: string };
}

/** A trace row whose decision and code held but whose other fields (fact, score, rank, tokens…) changed. */
export interface RowChange {
  readonly id: string;
  readonly fields: readonly string[];
}

export interface EvidenceChange {
  readonly proposition: string;
  /** Null when the slot exists on one side only. */
  readonly before: { readonly state: string; readonly records: readonly string[] } | null;
  readonly after: { readonly state: string; readonly records: readonly string[] } | null;
}

/** Where two receipts first differ, in canonical key order (the order their canonical bytes would). */
export interface FirstDifference {
  /** A path: `contract.asOf`, `trace[ADD-7].decision`, `evidence[waiver_valid].state`, `selected[2]`. */
  readonly path: string;
  /** The record that field belongs to, when it belongs to one. */
  readonly recordId: string | null;
}

export interface ReceiptDiff {
  readonly before: { readonly receiptId: string; readonly schemaVersion: string };
  readonly after: { readonly receiptId: string; readonly schemaVersion: string };
  /**
   * True when every field but the id is the same: the two receipts have the same canonical bytes. In a
   * diff disclosed for the user view (`discloseDiff`): nothing that view shows differs.
   */
  readonly identical: boolean;
  readonly firstDifference: FirstDifference | null;
  /** Fields of the receipt's `contract`, by name (`asOf`, `requiredRecords`, `principals`). */
  readonly contract: readonly FieldChange[];
  /**
   * The receipt's other fields: versions, outcome, fingerprints, controls, late changes, failure, ranking statistics.
   */
  readonly fields: readonly FieldChange[];
  readonly records: {
    readonly added: readonly string[];
    readonly removed: readonly string[];
    /** Ids in both whose fingerprints differ; null when a row carries no fingerprint (not a current receipt). */
    readonly changed: readonly string[] | null;
  };
  readonly decisions: readonly DecisionChange[];
  readonly rows: readonly RowChange[];
  readonly evidence: readonly EvidenceChange[];
  readonly packet: {
    /** In the new packet's order. */
    readonly in: readonly string[];
    /** In the old packet's order. */
    readonly out: readonly string[];
    /** Same ids, another order. */
    readonly reordered: boolean;
    readonly tokensBefore: number;
    readonly tokensAfter: number;
    readonly fingerprintBefore: string | null;
    readonly fingerprintAfter: string | null;
  };
}

/** Top-level fields with a section of their own (or no content to compare). */
const SECTIONED = new Set([
  'receiptId',
  'contract',
  'trace',
  'selected',
  'evidence',
  'tokensUsed',
  'packetFingerprint',
]);

/**
 * The ranking section compared by record id, whatever the order: a record's rank is one of its fields, so a
 * change of statistics that reorders the list reads as the ranks and scores that moved (`ranked[RUN-7].rank`).
 */
function rankedChanges(before: unknown, after: unknown, out: FieldChange[]): void {
  const byId = (list: unknown) => {
    if (!Array.isArray(list)) return null;
    const map = new Map<string, unknown>();
    for (const item of list as unknown[]) {
      if (!isObject(item) || typeof item.id !== 'string' || map.has(item.id)) return null;
      map.set(item.id, item);
    }
    return map;
  };
  const left = byId(before);
  const right = byId(after);
  if (left === null || right === null) return changesIn(before, after, 'ranked', out);
  for (const id of [...new Set([...left.keys(), ...right.keys()])].sort(compareStrings))
    changesIn(left.get(id) ?? null, right.get(id) ?? null, `ranked[${id}]`, out);
}

function rowsById<T extends DiffableRow>(rows: readonly T[]): Map<string, T> {
  const map = new Map<string, T>();
  for (const row of rows) map.set(row.id, row);
  return map;
}

function evidenceByProposition(slots: DiffableReceipt['evidence']): Map<string, DiffableReceipt['evidence'][number]> {
  const map = new Map<string, DiffableReceipt['evidence'][number]>();
  for (const slot of slots) map.set(slot.proposition, slot);
  return map;
}

/** `values` without those in `other`, in their own order. */
function without(values: readonly string[], other: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const value of values) if (!other.has(value)) out.push(value);
  return out;
}

/** The trace row keys that differ between two rows of the same id, in canonical order. */
function rowFieldChanges(before: DiffableRow, after: DiffableRow): string[] {
  const left = before as unknown as JsonObject;
  const right = after as unknown as JsonObject;
  return unionKeys(left, right).filter((key) => !sameJson(left[key] ?? null, right[key] ?? null));
}

/** Where `before` and `after` first differ, walking both in canonical key order. */
export function firstDifference(before: DiffableReceipt, after: DiffableReceipt): FirstDifference | null {
  const left = before as unknown as JsonObject;
  const right = after as unknown as JsonObject;
  for (const key of unionKeys(left, right)) {
    if (key === 'receiptId') continue;
    const found =
      key === 'trace'
        ? firstTraceDifference(before.trace, after.trace)
        : firstPathDifference(left[key] ?? null, right[key] ?? null, key, key);
    if (found) return found;
  }
  return null;
}

function firstTraceDifference(before: readonly DiffableRow[], after: readonly DiffableRow[]): FirstDifference | null {
  const length = Math.max(before.length, after.length);
  for (let index = 0; index < length; index += 1) {
    const a = before[index];
    const b = after[index];
    if (a && b && sameJson(a, b)) continue;
    if (!a || !b || a.id !== b.id) return { path: `trace[${(a ?? b)?.id ?? index}]`, recordId: (a ?? b)?.id ?? null };
    return { path: `trace[${a.id}].${rowFieldChanges(a, b)[0] ?? ''}`, recordId: a.id };
  }
  return null;
}

function firstPathDifference(before: unknown, after: unknown, path: string, top: string): FirstDifference | null {
  if (sameJson(before, after)) return null;
  if (Array.isArray(before) && Array.isArray(after)) {
    const length = Math.max(before.length, after.length);
    for (let index = 0; index < length; index += 1) {
      const a: unknown = before[index];
      const b: unknown = after[index];
      if (a !== undefined && b !== undefined && sameJson(a, b)) continue;
      // Evidence slots are named by their proposition; selected ids name their record.
      const item = a !== undefined ? a : b;
      const slot =
        top === 'evidence' && isObject(item) && typeof item.proposition === 'string' ? item.proposition : null;
      const at = slot === null ? `${path}[${index}]` : `${path}[${slot}]`;
      if (a === undefined || b === undefined)
        return { path: at, recordId: top === 'selected' && typeof item === 'string' ? item : null };
      return firstPathDifference(a, b, at, top) ?? { path: at, recordId: null };
    }
    return null;
  }
  if (isObject(before) && isObject(after)) {
    for (const key of unionKeys(before, after)) {
      const found = firstPathDifference(before[key] ?? null, after[key] ?? null, `${path}.${key}`, top);
      if (found) return found;
    }
    return null;
  }
  const recordId =
    top === 'selected' && typeof before === 'string'
      ? before
      : top === 'failure' && path === 'failure.recordId' && typeof before === 'string'
        ? before
        : null;
  return { path, recordId };
}

/** What changed from `before` to `after` (say, a saved receipt and what the current inputs compile to). */
export function diffReceipts(before: DiffableReceipt, after: DiffableReceipt): ReceiptDiff {
  const left = before as unknown as JsonObject;
  const right = after as unknown as JsonObject;

  const contract: FieldChange[] = [];
  changesIn(isObject(left.contract) ? left.contract : {}, isObject(right.contract) ? right.contract : {}, '', contract);

  const fields: FieldChange[] = [];
  for (const key of unionKeys(left, right)) {
    if (key === 'ranked') rankedChanges(left[key] ?? null, right[key] ?? null, fields);
    else if (!SECTIONED.has(key)) changesIn(left[key] ?? null, right[key] ?? null, key, fields);
  }

  const beforeRows = rowsById(before.trace);
  const afterRows = rowsById(after.trace);
  const fingerprinted =
    before.trace.every((row) => typeof row.fingerprint === 'string') &&
    after.trace.every((row) => typeof row.fingerprint === 'string');
  const added: string[] = [];
  const removed: string[] = [];
  const changed: string[] = [];
  const decisions: DecisionChange[] = [];
  const rows: RowChange[] = [];
  for (const [id, row] of beforeRows) {
    const next = afterRows.get(id);
    if (!next) {
      removed.push(id);
      continue;
    }
    if (fingerprinted && row.fingerprint !== next.fingerprint) changed.push(id);
    if (row.decision !== next.decision || row.code !== next.code) {
      decisions.push({
        id,
        before: { decision: row.decision, code: row.code },
        after: { decision: next.decision, code: next.code },
      });
    } else if (!sameJson(row, next)) {
      rows.push({ id, fields: rowFieldChanges(row, next).filter((field) => field !== 'fingerprint') });
    }
  }
  for (const id of afterRows.keys()) if (!beforeRows.has(id)) added.push(id);
  const byId = <T extends { readonly id: string }>(a: T, b: T) => compareStrings(a.id, b.id);
  added.sort(compareStrings);
  removed.sort(compareStrings);
  changed.sort(compareStrings);
  decisions.sort(byId);
  // A row whose only change is its fingerprint is listed under changed records, not here.
  const otherRows = rows.filter((row) => row.fields.length > 0).sort(byId);

  const beforeSlots = evidenceByProposition(before.evidence);
  const afterSlots = evidenceByProposition(after.evidence);
  const evidence: EvidenceChange[] = [];
  for (const proposition of [...new Set([...beforeSlots.keys(), ...afterSlots.keys()])].sort(compareStrings)) {
    const a = beforeSlots.get(proposition);
    const b = afterSlots.get(proposition);
    if (a && b && sameJson(a, b)) continue;
    evidence.push({
      proposition,
      before: a ? { state: a.state, records: a.records } : null,
      after: b ? { state: b.state, records: b.records } : null,
    });
  }

  const beforeSelected = new Set(before.selected);
  const afterSelected = new Set(after.selected);
  const packetIn = without(after.selected, beforeSelected);
  const packetOut = without(before.selected, afterSelected);

  const firstDiff = firstDifference(before, after);
  return {
    before: { receiptId: before.receiptId, schemaVersion: before.schemaVersion },
    after: { receiptId: after.receiptId, schemaVersion: after.schemaVersion },
    identical: firstDiff === null,
    firstDifference: firstDiff,
    contract,
    fields,
    records: { added, removed, changed: fingerprinted ? changed : null },
    decisions,
    rows: otherRows,
    evidence,
    packet: {
      in: packetIn,
      out: packetOut,
      reordered: packetIn.length === 0 && packetOut.length === 0 && !sameJson(before.selected, after.selected),
      tokensBefore: before.tokensUsed,
      tokensAfter: after.tokensUsed,
      fingerprintBefore: before.packetFingerprint,
      fingerprintAfter: after.packetFingerprint,
    },
  };
}

/** Whether a diff has nothing left to show: every section empty and the packet the same. */
function showsNothing(diff: Omit<ReceiptDiff, 'identical' | 'firstDifference'>): boolean {
  const { records, packet } = diff;
  return (
    diff.contract.length === 0 &&
    diff.fields.length === 0 &&
    records.added.length === 0 &&
    records.removed.length === 0 &&
    (records.changed?.length ?? 0) === 0 &&
    diff.decisions.length === 0 &&
    diff.rows.length === 0 &&
    diff.evidence.length === 0 &&
    packet.in.length === 0 &&
    packet.out.length === 0 &&
    !packet.reordered &&
    packet.tokensBefore === packet.tokensAfter &&
    packet.fingerprintBefore === packet.fingerprintAfter
  );
}

/**
 * Whether a field's change moves with records the user view withholds: the record-set digest; what a
 * `candidates` receipt says of the rows it leaves out (their counts and the admitted set's digest); a
 * withheld record's entry in the ranking section.
 */
function movesWithWithheld(field: string, withheld: ReadonlySet<string>): boolean {
  if (field === 'recordSetDigest' || field === 'omitted' || field.startsWith('omitted.')) return true;
  if (!field.startsWith('ranked[')) return false;
  const end = field.lastIndexOf(']');
  return end > 7 && withheld.has(field.slice(7, end));
}

/**
 * The diff as the user view may show it, the one policy for every diff that view shows (a pinned baseline,
 * an as-of step, a drill verdict, two receipt files). `withheld` holds the ids the user view withholds on
 * either side, found by the caller. None of them is named. Nor is anything shown that moves with them: the
 * record-set digest and the receipt ids (each covers every record), where the receipts first differ (a
 * withheld row can come first in canonical order) and how many withheld records changed. Whether anything
 * differs is worked out again from what is left. With nothing withheld, the diff is the whole diff.
 */
export function discloseDiff(diff: ReceiptDiff, withheld: ReadonlySet<string>): ReceiptDiff {
  if (withheld.size === 0) return diff;
  const keep = (id: string) => !withheld.has(id);
  const ids = (list: readonly string[]) => list.filter(keep);
  const name = (item: unknown) => (typeof item === 'string' && !keep(item) ? '(withheld)' : item);
  // A changed failure or fact argument may name a record, alone or in a list.
  const value = (item: unknown): unknown =>
    Array.isArray(item)
      ? item.map(name)
      : isObject(item)
        ? Object.fromEntries(Object.entries(item).map(([key, child]) => [key, value(child)]))
        : name(item);
  const slot = (side: EvidenceChange['before']) => side && { state: side.state, records: ids(side.records) };
  const shown = {
    before: { ...diff.before, receiptId: '' },
    after: { ...diff.after, receiptId: '' },
    contract: diff.contract,
    fields: diff.fields
      .filter((change) => !movesWithWithheld(change.field, withheld))
      .map((change) => ({ field: change.field, before: value(change.before), after: value(change.after) })),
    records: {
      added: ids(diff.records.added),
      removed: ids(diff.records.removed),
      changed: diff.records.changed && ids(diff.records.changed),
    },
    decisions: diff.decisions.filter((change) => keep(change.id)),
    rows: diff.rows.filter((change) => keep(change.id)),
    evidence: diff.evidence.map((change) => ({
      proposition: change.proposition,
      before: slot(change.before),
      after: slot(change.after),
    })),
    packet: { ...diff.packet, in: ids(diff.packet.in), out: ids(diff.packet.out) },
  };
  return { ...shown, identical: showsNothing(shown), firstDifference: null };
}
