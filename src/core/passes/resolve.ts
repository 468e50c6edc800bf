import { componentsOnCycles } from '../cycles';
import { compareStrings } from '../canonical';
import type { Contract } from '../format/contract';
import { asOfInstant } from '../as-of';
import { compileError, err, ok, type CompileError, type Result } from '../errors';
import { computeAll, declare, type Derive } from '../memo';
import type { CheckedRecord, RecordSet } from './validate';

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
 * Positions of ids in id order, found by binary search over the ordered ids: building a Map of 100,000
 * ids cost more than every lookup a compilation makes (a few per admitted record).
 */
export class IdPositions {
  constructor(private readonly ids: readonly string[]) {}

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
function idOrder(ids: readonly string[]): Int32Array {
  const order = new Int32Array(ids.length);
  let sorted = true;
  for (let index = 0; index < ids.length; index += 1) {
    order[index] = index;
    if (index > 0 && sorted && (ids[index - 1] as string) >= (ids[index] as string)) sorted = false;
  }
  return sorted ? order : order.sort((a, b) => compareStrings(ids[a] as string, ids[b] as string));
}

/**
 * `items` in `order`; a loop, because `Array.from` over a typed array with a mapping function took eight times as long.
 */
function inOrder<T>(order: Int32Array, items: readonly T[]): T[] {
  const ordered = new Array<T>(order.length);
  for (let position = 0; position < order.length; position += 1)
    ordered[position] = items[order[position] as number] as T;
  return ordered;
}

function sameResolved(a: ResolvedRecord, b: ResolvedRecord): boolean {
  return (
    a.checked === b.checked &&
    (a.supersededBy === b.supersededBy ||
      (a.supersededBy?.id === b.supersededBy?.id && a.supersededBy?.since === b.supersededBy?.since)) &&
    sameBrokenLink(a.brokenLink, b.brokenLink)
  );
}

function sameBrokenLink(a: BrokenLink | null, b: BrokenLink | null): boolean {
  if (a === b) return true;
  if (a === null || b === null || a.kind !== b.kind) return false;
  const names = (link: BrokenLink) =>
    link.kind === 'dangling' ? link.targets : link.kind === 'cycle' ? link.successors : [];
  const [x, y] = [names(a), names(b)];
  return x.length === y.length && x.every((name, index) => name === y[index]);
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

/**
 * What supersession depends on: the records that supersede something and what each of their targets is
 * (the checked record, or undefined when absent). A change anywhere else cannot change a link, a cycle or
 * a successor in force, so these are what the link checks are memoised on.
 */
function supersessionDeps(recordSet: RecordSet): unknown[] {
  const deps: unknown[] = [];
  for (const item of recordSet.successors) {
    deps.push(item);
    for (const target of item.record.supersedes) deps.push(recordSet.byId.get(target));
  }
  return deps;
}

/**
 * Pass 2: binds names to identities and versions to the one that governs at the as-of time, and puts
 * the records in id order. A plain function of the contract and the records.
 */
export function resolve(
  contract: Contract,
  recordSet: RecordSet,
  derive: Derive = computeAll,
): Result<Resolution, CompileError> {
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
  const asOf = asOfInstant(contract);

  // The order depends on the ids alone, and a record set derived by patching keeps its ids array.
  const { ids } = recordSet;
  const order = derive.cell('resolve:id-order', [ids], ([ids]) => idOrder(ids));
  // The same order object means the same ids in the same places, so the same positions.
  const indexOf = derive.cell('resolve:index-of', [order, ids], ([order, ids]) => new IdPositions(inOrder(order, ids)));
  // A broken link makes its records inadmissible and nothing else: a record the caller may not see never stops the
  // caller's compilation.
  const supersessionInputs = supersessionDeps(recordSet);
  const { broken, brokenLinks } = derive.cell('resolve:links', supersessionInputs, () => {
    const found = findBrokenLinks(recordSet, recordSet.successors);
    return { broken: found, brokenLinks: [...found.keys()].sort(compareStrings) };
  });
  const versions = derive.cell('resolve:in-force', [asOf, broken, ...supersessionInputs], () => {
    const inForce = [...supersessionsInForce(recordSet.successors, asOf)].sort(([a], [b]) => compareStrings(a, b));
    // While the successors in force and the broken links stay the same, a record resolves the same way whatever else
    // changed.
    return declare(
      { inForce, broken: [...broken].sort(([a], [b]) => compareStrings(a, b)) },
      ['inForce', 'broken'],
      (picked) => ({
        inForce: new Map(picked.inForce),
        broken: new Map(picked.broken),
      }),
    );
  });
  const inIdOrder = inOrder(order, recordSet.checked);
  const records = derive.map(
    'resolve:records',
    versions,
    inIdOrder,
    (checked, { inForce, broken }): ResolvedRecord => ({
      checked,
      supersededBy: inForce.get(checked.record.id) ?? null,
      brokenLink: broken.get(checked.record.id) ?? null,
    }),
    sameResolved,
  );
  return ok({ contract: { contract, asOf, subject, identityNames }, records, indexOf, brokenLinks });
}
