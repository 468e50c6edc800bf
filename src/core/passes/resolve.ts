import { canonicalJson, compareStrings } from '../canonical';
import { replacedPositions } from '../replaced-positions';
import type { Contract } from '../format/contract';
import type { SourceRecord } from '../format/record';
import { formatInstantShort, parseInstant } from '../format/time';
import { err, ok, type CompileError, type Result } from '../errors';
import { hasVerifiedProvenance, type RecordSet } from './validate';

export interface RecordTimes {
  readonly knownAt: number;
  readonly validFrom: number;
  readonly validTo: number | null;
}

export interface ResolvedRecord {
  readonly record: SourceRecord;
  readonly times: RecordTimes;
  /** Identities the record's subject names: null when it has no subject, several when ambiguous. */
  readonly subjectIdentities: readonly string[] | null;
  /** The successor that replaces this record at the as-of time, if any. */
  readonly supersededBy: { readonly id: string; readonly since: number } | null;
  readonly provenanceVerified: boolean;
}

export interface ResolvedContract {
  readonly contract: Contract;
  readonly asOf: number;
  /** The contract subject as one canonical identity, or null when the task has no single subject. */
  readonly subject: string | null;
  /** Every name (canonical id or alias) in the identity directory, mapped to the identities it may mean. */
  readonly identityNames: ReadonlyMap<string, readonly string[]>;
}

/** Lookup by record id without building a map per compilation. */
export interface RecordLookup<T> {
  get(id: string): T | undefined;
  has(id: string): boolean;
}

export interface Resolution {
  readonly contract: ResolvedContract;
  /** One per record, in id order: the trace, the record-set digest and the receipt all use this order. */
  readonly records: readonly ResolvedRecord[];
  /** Position of each id in `records`; the same object for as long as the ids stay the same. */
  readonly indexOf: ReadonlyMap<string, number>;
  readonly byId: RecordLookup<ResolvedRecord>;
  /** What resolving a record depends on besides the record itself: equal keys allow reuse. */
  readonly key: string;
  readonly recordSet: RecordSet;
  /** For each superseded id, the ids of the records that name it in `supersedes`. */
  readonly successorIds: ReadonlyMap<string, readonly string[]>;
  /** `records[i].record`, kept as its own array so that nothing has to walk 100,000 objects to build it. */
  readonly sourceRecords: readonly SourceRecord[];
  /** When this resolution was derived from `since`, the only positions whose resolved object may differ; null otherwise. */
  readonly changes: { readonly since: Resolution; readonly positions: readonly number[] } | null;
}

const timesCache = new WeakMap<SourceRecord, RecordTimes>();

/** Record instants do not depend on the contract, so they are parsed once per record object. */
export function recordTimes(record: SourceRecord): RecordTimes {
  let times = timesCache.get(record);
  if (!times) {
    // The schema already refused unparseable instants, so these are never null here.
    times = {
      knownAt: parseInstant(record.knownAt) ?? Number.NaN,
      validFrom: parseInstant(record.validFrom) ?? Number.NaN,
      validTo: record.validTo === null ? null : (parseInstant(record.validTo, 'end') ?? Number.NaN),
    };
    timesCache.set(record, times);
  }
  return times;
}

export function buildIdentityNames(contract: Contract): Map<string, string[]> {
  const names = new Map<string, string[]>();
  const add = (name: string, identity: string) => {
    const known = names.get(name);
    if (!known) names.set(name, [identity]);
    else if (!known.includes(identity)) known.push(identity);
  };
  for (const identity of contract.identities) {
    add(identity.id, identity.id);
    for (const alias of identity.aliases) add(alias, identity.id);
  }
  for (const list of names.values()) list.sort();
  return names;
}

/** A name outside the directory stands for itself: it can then only match a subject spelled the same way. */
export function identitiesOf(name: string, identityNames: ReadonlyMap<string, readonly string[]>): readonly string[] {
  return identityNames.get(name) ?? [name];
}

/** A successor governs once it is active, known and effective at the as-of time. */
export function isInForce(successor: SourceRecord, asOf: number): boolean {
  const times = recordTimes(successor);
  return successor.lifecycle === 'active' && times.knownAt <= asOf && times.validFrom <= asOf;
}

function findSupersessionCycle(recordSet: RecordSet): string[] | null {
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): string[] | null => {
    const mark = state.get(id);
    if (mark === 'done') return null;
    if (mark === 'visiting') return [...stack.slice(stack.indexOf(id)), id];
    state.set(id, 'visiting');
    stack.push(id);
    for (const target of recordSet.byId.get(id)?.supersedes ?? []) {
      const cycle = visit(target);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(id, 'done');
    return null;
  };
  for (const record of recordSet.records) {
    if (record.supersedes.length === 0) continue;
    const cycle = visit(record.id);
    if (cycle) return cycle;
  }
  return null;
}

function where(recordSet: RecordSet, id: string): string {
  const location = recordSet.locations.get(id);
  if (!location) return '';
  return location.line === undefined ? ` (${location.file})` : ` (${location.file}:${location.line})`;
}

/**
 * Pass 2: binds names to identities and versions to the one that governs at the as-of time. Given the
 * previous resolution, records whose object and governing version did not change keep their resolved
 * object (the output is the same either way; only the work differs).
 */
export function resolve(contract: Contract, recordSet: RecordSet, previous?: Resolution): Result<Resolution, CompileError> {
  const changed = previous === undefined ? null : replacedPositions(previous.recordSet.records, recordSet.records);
  // Supersession links unchanged since a resolution that passed: no dangling link or cycle can have appeared.
  const sameLinks = previous !== undefined && changed !== null && changed.every((position) => sameList(previous.recordSet.records[position]?.supersedes, recordSet.records[position]?.supersedes));
  if (!sameLinks) {
    const broken = checkLinks(recordSet);
    if (broken) return err(broken);
  }
  return resolveVersions(contract, recordSet, previous, changed, sameLinks);
}

function checkLinks(recordSet: RecordSet): CompileError | null {
  for (const record of recordSet.records) {
    for (const target of record.supersedes) {
      if (!recordSet.byId.has(target)) {
        return {
          pass: 'resolve',
          code: 'DANGLING_REFERENCE',
          recordId: record.id,
          message: `record ${record.id}${where(recordSet, record.id)}: supersedes "${target}", which is not among the records`,
        };
      }
      if (target === record.id) {
        return { pass: 'resolve', code: 'SUPERSESSION_CYCLE', recordId: record.id, message: `record ${record.id}${where(recordSet, record.id)} supersedes itself` };
      }
    }
  }
  const cycle = findSupersessionCycle(recordSet);
  if (cycle) {
    return {
      pass: 'resolve',
      code: 'SUPERSESSION_CYCLE',
      recordId: cycle[0],
      message: `supersession cycle ${cycle.join(' → ')}${where(recordSet, cycle[0] ?? '')}: no version can govern`,
    };
  }
  return null;
}

function sameList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.length === b.length && a.every((value, index) => value === b[index]));
}

/** `replaced`: positions whose record object changed since `previous`, or null when ids moved. */
function resolveVersions(
  contract: Contract,
  recordSet: RecordSet,
  previous: Resolution | undefined,
  replaced: readonly number[] | null,
  sameLinks: boolean,
): Result<Resolution, CompileError> {
  const identityNames = buildIdentityNames(contract);
  let subject: string | null = null;
  if (contract.subject !== null) {
    const candidates = identitiesOf(contract.subject, identityNames);
    if (candidates.length > 1) {
      return err({
        pass: 'resolve',
        code: 'AMBIGUOUS_SUBJECT',
        message: `contract subject "${contract.subject}" matches ${candidates.length} identities (${candidates.join(', ')}): name one; it is never chosen by score`,
      });
    }
    subject = candidates[0] ?? null;
  }

  const asOf = parseInstant(contract.asOf) ?? Number.NaN;
  const resolvedContract: ResolvedContract = { contract, asOf, subject, identityNames };
  const key = `${asOf}\u0000${canonicalJson([...identityNames])}`;
  const reusable = previous !== undefined && previous.key === key ? previous : undefined;
  if (reusable?.recordSet === recordSet) return ok({ ...reusable, contract: resolvedContract, changes: { since: reusable, positions: [] } });

  const supersededByOf = (record: SourceRecord, successorIds: ReadonlyMap<string, readonly string[]>): ResolvedRecord['supersededBy'] => {
    let supersededBy: ResolvedRecord['supersededBy'] = null;
    for (const successorId of successorIds.get(record.id) ?? []) {
      const successor = recordSet.byId.get(successorId);
      if (successor === undefined || !isInForce(successor, asOf)) continue;
      const since = Math.max(recordTimes(successor).validFrom, recordTimes(successor).knownAt);
      if (supersededBy === null || successor.id < supersededBy.id) supersededBy = { id: successor.id, since };
    }
    return supersededBy;
  };
  const resolveRecord = (record: SourceRecord, supersededBy: ResolvedRecord['supersededBy'], before: ResolvedRecord | undefined): ResolvedRecord => {
    const provenanceVerified = hasVerifiedProvenance(record);
    // Unchanged records keep their resolved object, so later passes can reuse what they derived from it.
    if (before !== undefined && before.record === record && before.provenanceVerified === provenanceVerified && sameSupersession(before.supersededBy, supersededBy)) return before;
    return {
      record,
      times: recordTimes(record),
      subjectIdentities: record.subject === null ? null : identitiesOf(record.subject, identityNames),
      supersededBy,
      provenanceVerified,
    };
  };
  const lookup = (records: readonly ResolvedRecord[], indexOf: ReadonlyMap<string, number>): RecordLookup<ResolvedRecord> => ({
    get: (id) => {
      const position = indexOf.get(id);
      return position === undefined ? undefined : records[position];
    },
    has: (id) => indexOf.has(id),
  });

  if (reusable !== undefined && replaced !== null && sameLinks) {
    // Only the changed records and the records they supersede (whose governing version may have moved) are resolved again.
    const records = reusable.records.slice();
    const sourceRecords = reusable.sourceRecords.slice();
    const again = new Set<number>();
    for (const source of replaced) {
      const record = recordSet.records[source] as SourceRecord;
      for (const id of [record.id, ...record.supersedes]) {
        const position = reusable.indexOf.get(id);
        if (position !== undefined) again.add(position);
      }
    }
    for (const position of again) {
      const before = records[position] as ResolvedRecord;
      const record = recordSet.byId.get(before.record.id) ?? before.record;
      records[position] = resolveRecord(record, supersededByOf(record, reusable.successorIds), before);
      sourceRecords[position] = record;
    }
    return ok({
      contract: resolvedContract,
      records,
      indexOf: reusable.indexOf,
      byId: lookup(records, reusable.indexOf),
      key,
      recordSet,
      successorIds: reusable.successorIds,
      sourceRecords,
      changes: { since: reusable, positions: [...again] },
    });
  }

  const successorIds = new Map<string, string[]>();
  for (const record of recordSet.records) {
    for (const target of record.supersedes) {
      const list = successorIds.get(target);
      if (list) list.push(record.id);
      else successorIds.set(target, [record.id]);
    }
  }

  const order = idOrder(recordSet.records, previous, replaced);
  const sorted = order.sorted;
  const records: ResolvedRecord[] = new Array<ResolvedRecord>(sorted.length);
  for (let position = 0; position < sorted.length; position += 1) {
    const record = sorted[position] as SourceRecord;
    records[position] = resolveRecord(record, supersededByOf(record, successorIds), order.aligned ? reusable?.records[position] : undefined);
  }
  const indexOf = order.aligned && previous ? previous.indexOf : new Map(sorted.map((record, position) => [record.id, position]));
  return ok({ contract: resolvedContract, records, indexOf, byId: lookup(records, indexOf), key, recordSet, successorIds, sourceRecords: sorted, changes: null });
}

function sameSupersession(a: ResolvedRecord['supersededBy'], b: ResolvedRecord['supersededBy']): boolean {
  return a === b || (a !== null && b !== null && a.id === b.id && a.since === b.since);
}

/**
 * The records in id order. When the ids sit where they sat last time (a toggle replaces record
 * objects in place), the previous order is reused instead of sorting 100,000 ids again.
 */
function idOrder(records: readonly SourceRecord[], previous: Resolution | undefined, replaced: readonly number[] | null): { sorted: SourceRecord[]; aligned: boolean } {
  if (previous === undefined || replaced === null) return { sorted: [...records].sort((a, b) => compareStrings(a.id, b.id)), aligned: false };
  const sorted = previous.sourceRecords.slice();
  for (const source of replaced) {
    const record = records[source] as SourceRecord;
    const position = previous.indexOf.get(record.id);
    if (position !== undefined) sorted[position] = record;
  }
  return { sorted, aligned: true };
}

export function describeSupersession(supersededBy: NonNullable<ResolvedRecord['supersededBy']>): string {
  return `superseded by ${supersededBy.id} (in force from ${formatInstantShort(supersededBy.since)})`;
}
