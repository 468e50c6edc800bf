import { componentsOnCycles } from '../../cycles';
import { compareStrings } from '../../canonical';
import type { Contract } from '../../format/contract';
import { asOfInstant } from '../../as-of';
import { compileError, err, ok, type CompileError, type Result } from '../../errors';
import type { CheckedRecord, RecordSet } from '../1-validate/validate';

export interface ResolvedContract {
  readonly contract: Contract;
  readonly asOf: number;
  /** The contract subject as one canonical identity, or null when the task has no single subject. */
  readonly subject: string | null;
  /** Every name (canonical id or alias) in the identity directory, mapped to the identities it may mean. */
  readonly identityNames: ReadonlyMap<string, readonly string[]>;
}

/** The successor that replaces a record at the as-of time, and from when. */
export interface Supersession {
  readonly id: string;
  readonly since: number;
}

/**
 * A record with the version question answered: the successor that replaces it at the as-of time, if any,
 * and whether its own supersession links are broken.
 */
export interface ResolvedRecord {
  readonly checked: CheckedRecord;
  readonly supersededBy: Supersession | null;
  readonly brokenLink: BrokenLink | null;
}

export interface Resolution {
  readonly contract: ResolvedContract;
  /** Every record in id order: the trace, the record-set digest and the receipt use this order. */
  readonly records: readonly ResolvedRecord[];
  /** Position of each id in `records`. */
  readonly indexOf: IdPositions;
  /** The ids of the records whose supersession links are broken (`brokenLink` set), in id order. */
  readonly brokenLinks: readonly string[];
}

/**
 * Where `id` is among `length` ids in id order (code units, as compareStrings sorts), each read through
 * `idAt`; undefined when it is not there. A trace is in the same order, so its rows are found this way too.
 */
export function findInIdOrder(length: number, idAt: (position: number) => string, id: string): number | undefined {
  let low = 0;
  let high = length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = idAt(middle);
    if (at === id) return middle;
    if (at < id) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}

/**
 * Positions of ids in id order, found by binary search over the ordered ids: building a Map of every
 * id costs more than every lookup a compilation makes (a few per admitted record).
 */
export class IdPositions {
  /** `ids`: every id, in id order. */
  constructor(readonly ids: readonly string[]) {}

  get(id: string): number | undefined {
    return findInIdOrder(this.ids.length, (position) => this.ids[position] as string, id);
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /** The id at `position` in id order. */
  idAt(position: number): string {
    return this.ids[position] as string;
  }
}

/**
 * Where each position's record is in `ids`, in id order; files are often in id order already, and a check costs far
 * less than a sort.
 */
export function idOrder(ids: readonly string[]): Int32Array {
  const order = new Int32Array(ids.length);
  let sorted = true;
  for (let index = 0; index < ids.length; index += 1) {
    order[index] = index;
    if (index > 0 && sorted && (ids[index - 1] as string) >= (ids[index] as string)) sorted = false;
  }
  return sorted ? order : order.sort((a, b) => compareStrings(ids[a] as string, ids[b] as string));
}

/**
 * `items` in `order`; a loop, because `Array.from` over a typed array with a mapping function is far slower.
 */
export function inOrder<T>(order: Int32Array, items: readonly T[]): T[] {
  const ordered = new Array<T>(order.length);
  for (let position = 0; position < order.length; position += 1)
    ordered[position] = items[order[position] as number] as T;
  return ordered;
}

export function buildIdentityNames(contract: Pick<Contract, 'identities'>): Map<string, string[]> {
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
  for (const list of names.values()) list.sort(compareStrings);
  return names;
}

/** A name outside the directory stands for itself: it can then only match a subject spelled the same way. */
export function identitiesOf(name: string, identityNames: ReadonlyMap<string, readonly string[]>): readonly string[] {
  return identityNames.get(name) ?? [name];
}

/** A successor governs once it is active, known and effective at the as-of time. */
export function isInForce(successor: CheckedRecord, asOf: number): boolean {
  return successor.record.lifecycle === 'active' && successor.knownAt <= asOf && successor.validFrom <= asOf;
}

/**
 * A record's own supersession links, broken: they name an id that is not among the records, the record
 * itself, or lead back to it through other records (a cycle). Such a record cannot be placed in any
 * version history, so it is inadmissible; its links that reach a record still supersede it, so a
 * superseded version never passes as current. In precedence order: what the record's own data says
 * first (missing targets, itself), then what it shares with others (the cycle).
 */
export type BrokenLink =
  | { readonly kind: 'dangling'; readonly targets: readonly string[] }
  | { readonly kind: 'self' }
  /** `successors`: the records on the cycle that supersede this one, in id order. */
  | { readonly kind: 'cycle'; readonly successors: readonly string[] };

/**
 * Every record whose links are broken, by id. Cycles are the strongly connected components of the
 * supersession graph with more than one record (Tarjan's algorithm, without recursion: a chain can be as
 * long as the record set).
 */
function findBrokenLinks(recordSet: RecordSet, successors: readonly CheckedRecord[]): Map<string, BrokenLink> {
  const broken = new Map<string, BrokenLink>();
  const component = stronglyConnected(recordSet, successors);
  for (const item of successors) {
    const { id, supersedes } = item.record;
    const missing = supersedes.filter((target) => !recordSet.byId.has(target));
    if (missing.length > 0) broken.set(id, { kind: 'dangling', targets: [...new Set(missing)].sort(compareStrings) });
    else if (supersedes.includes(id)) broken.set(id, { kind: 'self' });
  }
  const onCycle = new Map<string, string[]>();
  for (const item of successors) {
    const own = component.get(item.record.id);
    if (own === undefined) continue;
    for (const target of item.record.supersedes) {
      if (target === item.record.id || component.get(target) !== own || broken.has(target)) continue;
      const found = onCycle.get(target);
      if (found === undefined) onCycle.set(target, [item.record.id]);
      else found.push(item.record.id);
    }
  }
  for (const [id, by] of onCycle) broken.set(id, { kind: 'cycle', successors: [...new Set(by)].sort(compareStrings) });
  return broken;
}

/**
 * For each record on a cycle of supersession links (a component of two or more records), the number of its component.
 */
function stronglyConnected(recordSet: RecordSet, successors: readonly CheckedRecord[]): Map<string, number> {
  const targetsOf = (id: string) =>
    (recordSet.byId.get(id)?.record.supersedes ?? []).filter((target) => recordSet.byId.has(target));
  return componentsOnCycles(
    successors.map((item) => item.record.id),
    targetsOf,
  );
}

/** For each superseded id, the successor in force at `asOf` with the smallest id, and since when. */
export function supersessionsInForce(successors: readonly CheckedRecord[], asOf: number): Map<string, Supersession> {
  const inForce = new Map<string, Supersession>();
  for (const successor of successors) {
    if (!isInForce(successor, asOf)) continue;
    const since = Math.max(successor.validFrom, successor.knownAt);
    for (const target of successor.record.supersedes) {
      const current = inForce.get(target);
      if (current === undefined || compareStrings(successor.record.id, current.id) < 0)
        inForce.set(target, { id: successor.record.id, since });
    }
  }
  return inForce;
}

/** What supersession decides for the whole record set at the as-of time: broken links and successors in force. */
export interface Supersessions {
  /** For each superseded id, the successor in force and since when. */
  readonly inForce: ReadonlyMap<string, Supersession>;
  readonly broken: ReadonlyMap<string, BrokenLink>;
  /** The ids in `broken`, in id order. */
  readonly brokenLinks: readonly string[];
}

/** A plain function of the records that supersede something, the records they name, and the as-of instant. */
export function supersessionsOf(recordSet: RecordSet, asOf: number): Supersessions {
  const broken = findBrokenLinks(recordSet, recordSet.successors);
  return {
    inForce: supersessionsInForce(recordSet.successors, asOf),
    broken,
    brokenLinks: [...broken.keys()].sort(compareStrings),
  };
}

/**
 * One record with its version question answered: a plain function of the record and what supersession says of its id.
 */
export function resolveRecord(checked: CheckedRecord, supersessions: Supersessions): ResolvedRecord {
  const id = checked.record.id;
  return {
    checked,
    supersededBy: supersessions.inForce.get(id) ?? null,
    brokenLink: supersessions.broken.get(id) ?? null,
  };
}

/**
 * The contract's part of resolution: its subject bound to one identity (an ambiguous one is refused) and its as-of
 * instant.
 */
export function resolveContract(contract: Contract): Result<ResolvedContract, CompileError> {
  const identityNames = buildIdentityNames(contract);
  let subject: string | null = null;
  if (contract.subject !== null) {
    const candidates = identitiesOf(contract.subject, identityNames);
    if (candidates.length > 1) {
      return err(
        compileError({ pass: 'resolve', code: 'AMBIGUOUS_SUBJECT' }, 'SUBJECT_AMBIGUOUS_STOP', {
          subject: contract.subject,
          identities: candidates,
        }),
      );
    }
    subject = candidates[0] ?? null;
  }
  return ok({ contract, asOf: asOfInstant(contract), subject, identityNames });
}

/** The records' id order: the order of `ids` sorted, and each id's position in it. */
export function orderById(ids: readonly string[]): { readonly order: Int32Array; readonly indexOf: IdPositions } {
  const order = idOrder(ids);
  return { order, indexOf: new IdPositions(inOrder(order, ids)) };
}

/**
 * Pass 2: binds names to identities and versions to the one that governs at the as-of time, and puts
 * the records in id order. A plain function of the contract and the records.
 */
export function resolve(contract: Contract, recordSet: RecordSet): Result<Resolution, CompileError> {
  const resolved = resolveContract(contract);
  if (!resolved.ok) return resolved;
  const { order, indexOf } = orderById(recordSet.ids);
  // A broken link makes its records inadmissible and nothing else: a record the caller may not see never stops the
  // caller's compilation.
  const supersessions = supersessionsOf(recordSet, resolved.value.asOf);
  const records = inOrder(order, recordSet.checked).map((checked) => resolveRecord(checked, supersessions));
  return ok({ contract: resolved.value, records, indexOf, brokenLinks: supersessions.brokenLinks });
}
