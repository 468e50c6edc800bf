import type { Contract } from '../format/contract';
import type { SourceRecord } from '../format/record';
import { formatInstantShort, parseInstant } from '../format/time';
import { err, ok, type CompileError, type Result } from '../errors';
import type { RecordSet } from './validate';

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

export interface Resolution {
  readonly contract: ResolvedContract;
  readonly records: readonly ResolvedRecord[];
  readonly byId: ReadonlyMap<string, ResolvedRecord>;
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

/** Pass 2: binds names to identities and versions to the one that governs at the as-of time. */
export function resolve(contract: Contract, recordSet: RecordSet): Result<Resolution, CompileError> {
  for (const record of recordSet.records) {
    for (const target of record.supersedes) {
      if (!recordSet.byId.has(target)) {
        return err({
          pass: 'resolve',
          code: 'DANGLING_REFERENCE',
          recordId: record.id,
          message: `record ${record.id}${where(recordSet, record.id)}: supersedes "${target}", which is not among the records`,
        });
      }
      if (target === record.id) {
        return err({ pass: 'resolve', code: 'SUPERSESSION_CYCLE', recordId: record.id, message: `record ${record.id}${where(recordSet, record.id)} supersedes itself` });
      }
    }
  }
  const cycle = findSupersessionCycle(recordSet);
  if (cycle) {
    return err({
      pass: 'resolve',
      code: 'SUPERSESSION_CYCLE',
      recordId: cycle[0],
      message: `supersession cycle ${cycle.join(' → ')}${where(recordSet, cycle[0] ?? '')}: no version can govern`,
    });
  }

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
  const successorsOf = new Map<string, SourceRecord[]>();
  for (const record of recordSet.records) {
    for (const target of record.supersedes) {
      const list = successorsOf.get(target);
      if (list) list.push(record);
      else successorsOf.set(target, [record]);
    }
  }

  const records: ResolvedRecord[] = [];
  const byId = new Map<string, ResolvedRecord>();
  for (const record of recordSet.records) {
    let supersededBy: ResolvedRecord['supersededBy'] = null;
    for (const successor of successorsOf.get(record.id) ?? []) {
      if (!isInForce(successor, asOf)) continue;
      const since = Math.max(recordTimes(successor).validFrom, recordTimes(successor).knownAt);
      if (supersededBy === null || successor.id < supersededBy.id) supersededBy = { id: successor.id, since };
    }
    const resolved: ResolvedRecord = {
      record,
      times: recordTimes(record),
      subjectIdentities: record.subject === null ? null : identitiesOf(record.subject, identityNames),
      supersededBy,
      provenanceVerified: recordSet.verifiedProvenance.has(record.id),
    };
    records.push(resolved);
    byId.set(record.id, resolved);
  }
  return ok({ contract: { contract, asOf, subject, identityNames }, records, byId });
}

export function describeSupersession(supersededBy: NonNullable<ResolvedRecord['supersededBy']>): string {
  return `superseded by ${supersededBy.id} (in force from ${formatInstantShort(supersededBy.since)})`;
}
