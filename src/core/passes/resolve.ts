import { canonicalJson, compareStrings } from '../canonical';
import type { Contract } from '../format/contract';
import { parseInstant } from '../format/time';
import { err, ok, type CompileError, type Result } from '../errors';
import { computeAll, type Derive } from '../memo';
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

/** A record with the version question answered: the successor that replaces it at the as-of time, if any. */
export interface ResolvedRecord {
  readonly checked: CheckedRecord;
  readonly supersededBy: Supersession | null;
}

export interface Resolution {
  readonly contract: ResolvedContract;
  /** Every record in id order: the trace, the record-set digest and the receipt use this order. */
  readonly records: readonly ResolvedRecord[];
  /** Position of each id in `records`. */
  readonly indexOf: IdPositions;
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
}

/** Where each position's record is in `ids`, in id order; files are often in id order already, and a check costs far less than a sort. */
function idOrder(ids: readonly string[]): Int32Array {
  const order = new Int32Array(ids.length);
  let sorted = true;
  for (let index = 0; index < ids.length; index += 1) {
    order[index] = index;
    if (index > 0 && sorted && (ids[index - 1] as string) >= (ids[index] as string)) sorted = false;
  }
  return sorted ? order : order.sort((a, b) => compareStrings(ids[a] as string, ids[b] as string));
}

/** `items` in `order`; a loop, because `Array.from` over a typed array with a mapping function took eight times as long. */
function inOrder<T>(order: Int32Array, items: readonly T[]): T[] {
  const ordered = new Array<T>(order.length);
  for (let position = 0; position < order.length; position += 1) ordered[position] = items[order[position] as number] as T;
  return ordered;
}

function sameResolved(a: ResolvedRecord, b: ResolvedRecord): boolean {
  return a.checked === b.checked && (a.supersededBy === b.supersededBy || (a.supersededBy?.id === b.supersededBy?.id && a.supersededBy?.since === b.supersededBy?.since));
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

function where(recordSet: RecordSet, id: string): string {
  const location = recordSet.locations.get(id);
  if (!location) return '';
  return location.line === undefined ? ` (${location.file})` : ` (${location.file}:${location.line})`;
}

type LinkProblem = { readonly kind: 'dangling'; readonly id: string; readonly target: string } | { readonly kind: 'cycle'; readonly cycle: readonly string[] };

/** The first broken supersession link: a target that is not among the records, or a cycle (a record superseding itself is one). */
function findBrokenLink(recordSet: RecordSet, successors: readonly CheckedRecord[]): LinkProblem | null {
  for (const item of successors) {
    for (const target of item.record.supersedes) {
      if (!recordSet.byId.has(target)) return { kind: 'dangling', id: item.record.id, target };
      if (target === item.record.id) return { kind: 'cycle', cycle: [target] };
    }
  }
  const cycle = findSupersessionCycle(recordSet, successors);
  return cycle ? { kind: 'cycle', cycle } : null;
}

function linkError(recordSet: RecordSet, problem: LinkProblem): CompileError {
  if (problem.kind === 'dangling') {
    return {
      pass: 'resolve',
      code: 'DANGLING_REFERENCE',
      recordId: problem.id,
      message: `record ${problem.id}${where(recordSet, problem.id)}: supersedes "${problem.target}", which is not among the records`,
    };
  }
  const [first = ''] = problem.cycle;
  if (problem.cycle.length === 1) return { pass: 'resolve', code: 'SUPERSESSION_CYCLE', recordId: first, message: `record ${first}${where(recordSet, first)} supersedes itself` };
  return { pass: 'resolve', code: 'SUPERSESSION_CYCLE', recordId: first, message: `supersession cycle ${problem.cycle.join(' → ')}${where(recordSet, first)}: no version can govern` };
}

/** Depth-first over supersession links, without recursion: a chain can be as long as the record set. */
function findSupersessionCycle(recordSet: RecordSet, successors: readonly CheckedRecord[]): string[] | null {
  const state = new Map<string, 'visiting' | 'done'>();
  for (const start of successors) {
    if (state.has(start.record.id)) continue;
    const path: string[] = [start.record.id];
    const next: number[] = [0];
    state.set(start.record.id, 'visiting');
    while (path.length > 0) {
      const id = path[path.length - 1] as string;
      const targets = recordSet.byId.get(id)?.record.supersedes ?? [];
      const at = next[next.length - 1] as number;
      if (at >= targets.length) {
        state.set(id, 'done');
        path.pop();
        next.pop();
        continue;
      }
      next[next.length - 1] = at + 1;
      const target = targets[at] as string;
      const mark = state.get(target);
      if (mark === 'visiting') return [...path.slice(path.indexOf(target)), target];
      if (mark === 'done') continue;
      state.set(target, 'visiting');
      path.push(target);
      next.push(0);
    }
  }
  return null;
}

/** For each superseded id, the successor in force at `asOf` with the smallest id, and since when. */
function supersessionsInForce(successors: readonly CheckedRecord[], asOf: number): Map<string, Supersession> {
  const inForce = new Map<string, Supersession>();
  for (const successor of successors) {
    if (!isInForce(successor, asOf)) continue;
    const since = Math.max(successor.validFrom, successor.knownAt);
    for (const target of successor.record.supersedes) {
      const current = inForce.get(target);
      if (current === undefined || compareStrings(successor.record.id, current.id) < 0) inForce.set(target, { id: successor.record.id, since });
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
export function resolve(contract: Contract, recordSet: RecordSet, derive: Derive = computeAll): Result<Resolution, CompileError> {
  const supersessionInputs = supersessionDeps(recordSet);
  const broken = derive.cell('resolve:links', supersessionInputs, () => findBrokenLink(recordSet, recordSet.successors));
  // The message names locations, which are not among the cell's inputs: it is written from this record set.
  if (broken) return err(linkError(recordSet, broken));

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

  // The order depends on the ids alone, and a record set derived by patching keeps its ids array.
  const { ids } = recordSet;
  const order = derive.cell('resolve:id-order', [ids], () => idOrder(ids));
  // The same order object means the same ids in the same places, so the same positions.
  const indexOf = derive.cell('resolve:index-of', [order], () => new IdPositions(inOrder(order, ids)));
  const { inForce, supersessionKey } = derive.cell('resolve:in-force', [asOf, ...supersessionInputs], () => {
    const found = supersessionsInForce(recordSet.successors, asOf);
    // While the successors in force stay the same, a record resolves the same way whatever else changed.
    return { inForce: found, supersessionKey: canonicalJson([...found].sort(([a], [b]) => compareStrings(a, b))) };
  });
  const inIdOrder = inOrder(order, recordSet.checked);
  const records = derive.map('resolve:records', supersessionKey, inIdOrder, (checked): ResolvedRecord => ({ checked, supersededBy: inForce.get(checked.record.id) ?? null }), sameResolved);
  return ok({ contract: { contract, asOf, subject, identityNames }, records, indexOf });
}
