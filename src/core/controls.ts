import type { Sha256 } from './fingerprints';
import type { z } from 'zod';
import { contractSchema, type Contract } from './format/contract';
import { recordSchema, type SourceRecord } from './format/record';
import type { Control, LateChange, Patch } from './format/scenario';
import { compileError, err, ok, type CompileError, type Result } from './errors';
import { zodInputIssues } from './format/input-issues';
import { wordMessage } from './messages';
import { settleDuplicates } from './phases/1-validate/settle-duplicates';
import {
  createRecordChecker,
  recordSetOf,
  supersedesAny,
  type CheckedRecord,
  type RecordSet,
} from './phases/1-validate/validate';

type Json = unknown;

/** RFC 7396 JSON Merge Patch: objects merge key by key, null removes, anything else replaces. */
export function mergePatch(target: Json, patch: Json): Json {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const base: Record<string, Json> =
    target !== null && typeof target === 'object' && !Array.isArray(target)
      ? { ...(target as Record<string, Json>) }
      : {};
  for (const [key, value] of Object.entries(patch as Record<string, Json>)) {
    if (value === null) delete base[key];
    // Defined, not assigned: assigning `__proto__` would set the prototype instead of a field (scenarios refuse such
    // keys; this never relies on it).
    else
      Object.defineProperty(base, key, {
        value: mergePatch(Object.hasOwn(base, key) ? base[key] : undefined, value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return base;
}

function patchError(
  change: Control | LateChange,
  problem: string,
  code: CompileError['code'] = 'INVALID_INPUT',
): CompileError {
  return compileError({ pass: 'controls', code }, 'CHANGE_REFUSED', {
    change: change.id,
    label: change.label,
    problem,
  });
}

/** A patched value's first problem, in the words a file with the same problem is refused in. */
function firstIssue(schema: z.ZodType, error: z.ZodError, value: unknown): { path: string; problem: string } {
  const [issue] = zodInputIssues({ file: '', schema }, error, value);
  return { path: issue?.path ?? '(root)', problem: issue?.message ?? '' };
}

export interface ChangedInputs {
  readonly contract: Contract;
  readonly recordSet: RecordSet;
}

/**
 * Applies controls or late changes in order. Untouched records keep their object identity (and their
 * checks), so the compiler recognises them as unchanged. Every patched record and contract is
 * re-validated, and a patched record is checked again (hashed, fingerprinted).
 */
export function applyChanges(
  sha256: Sha256,
  contract: Contract,
  given: RecordSet,
  changes: readonly (Control | LateChange)[],
): Result<ChangedInputs, CompileError> {
  // Settled first, so a patch by id patches the copy that stands and every view reads the records compiled.
  const settled = settleDuplicates(contract, given);
  if (!settled.ok) return settled;
  const recordSet = settled.value;
  if (changes.length === 0) return ok({ contract, recordSet });
  let currentContract = contract;
  const checked = [...recordSet.checked];
  const positions = createPositions(recordSet, checked);
  const removed = new Set<number>();
  const check = createRecordChecker(sha256);

  for (const change of changes) {
    for (const patch of change.patches) {
      const applied = applyPatch(change, patch, currentContract, { checked, positions, removed, check });
      if (!applied.ok) return applied;
      currentContract = applied.value;
    }
  }
  if (removed.size > 0)
    return ok({
      contract: currentContract,
      recordSet: recordSetOf(
        checked.filter((_, index) => !removed.has(index)),
        recordSet.locations,
        recordSet,
      ),
    });
  return ok({ contract: currentContract, recordSet: deriveRecordSet(recordSet, checked, positions) });
}

interface Positions {
  get(id: string): number | undefined;
  set(id: string, position: number): void;
  /** Ids patched or added, whose lookups must change. */
  readonly touched: ReadonlySet<string>;
}

/** Positions by id, found on demand: a toggle patches one or two records of possibly 100,000. */
function createPositions(recordSet: RecordSet, checked: readonly CheckedRecord[]): Positions {
  const known = new Map<string, number>();
  const touched = new Set<string>();
  return {
    get(id) {
      let position = known.get(id);
      if (position === undefined) {
        const item = recordSet.byId.get(id);
        position = item === undefined ? -1 : checked.indexOf(item);
        known.set(id, position);
      }
      return position < 0 ? undefined : position;
    },
    set(id, position) {
      known.set(id, position);
      touched.add(id);
    },
    touched,
  };
}

/**
 * The record set after patches without removals. The lookup is the original one with the patched ids
 * laid over it: copying a map of every record for every toggle costs more than the compile it feeds.
 */
function deriveRecordSet(original: RecordSet, checked: readonly CheckedRecord[], positions: Positions): RecordSet {
  const patched = new Map<string, CheckedRecord>();
  for (const id of positions.touched) {
    const item = checked[positions.get(id) ?? -1];
    if (item !== undefined) patched.set(id, item);
  }
  const byId = new PatchedLookup(original.byId, patched);
  if (checked.length !== original.checked.length) {
    return {
      records: checked.map((item) => item.record),
      ids: checked.map((item) => item.record.id),
      checked,
      byId,
      locations: original.locations,
      successors: checked.filter(supersedesAny),
      unreadable: original.unreadable,
      duplicates: original.duplicates,
    };
  }
  // Nothing added, and a patch may not rename: the ids are the original's, and only the patched positions hold new
  // records. Copying the arrays reads references only; mapping `checked` again would read every record.
  const records = original.records.slice();
  for (const [id, item] of patched) {
    const position = positions.get(id);
    if (position !== undefined) records[position] = item.record;
  }
  return {
    records,
    ids: original.ids,
    checked,
    byId,
    locations: original.locations,
    successors: successorsAfter(original, patched, checked),
    unreadable: original.unreadable,
    duplicates: original.duplicates,
  };
}

/**
 * The original's successors with the patched records in their places. Only a patch that gives a record its first
 * `supersedes` target, or takes its last away, changes which records they are: then every record is looked at.
 */
function successorsAfter(
  original: RecordSet,
  patched: ReadonlyMap<string, CheckedRecord>,
  checked: readonly CheckedRecord[],
): readonly CheckedRecord[] {
  for (const [id, item] of patched) {
    const before = original.byId.get(id);
    if (before === undefined || supersedesAny(before) !== supersedesAny(item)) return checked.filter(supersedesAny);
  }
  return original.successors.map((item) => patched.get(item.record.id) ?? item);
}

/** A lookup that answers from `patched` first; iteration follows the original's order. */
class PatchedLookup implements ReadonlyMap<string, CheckedRecord> {
  constructor(
    private readonly original: ReadonlyMap<string, CheckedRecord>,
    private readonly patched: ReadonlyMap<string, CheckedRecord>,
  ) {}

  get(id: string): CheckedRecord | undefined {
    return this.patched.get(id) ?? this.original.get(id);
  }

  has(id: string): boolean {
    return this.original.has(id) || this.patched.has(id);
  }

  get size(): number {
    let added = 0;
    for (const id of this.patched.keys()) if (!this.original.has(id)) added += 1;
    return this.original.size + added;
  }

  private merged(): Map<string, CheckedRecord> {
    return new Map([...this.original, ...this.patched]);
  }

  entries(): MapIterator<[string, CheckedRecord]> {
    return this.merged().entries();
  }

  keys(): MapIterator<string> {
    return this.merged().keys();
  }

  values(): MapIterator<CheckedRecord> {
    return this.merged().values();
  }

  [Symbol.iterator](): MapIterator<[string, CheckedRecord]> {
    return this.entries();
  }

  forEach(callback: (item: CheckedRecord, id: string, map: ReadonlyMap<string, CheckedRecord>) => void): void {
    this.merged().forEach((item, id) => callback(item, id, this));
  }
}

/** The records as the patches so far left them, and how a patched or added record is checked. */
interface PatchedRecords {
  readonly checked: CheckedRecord[];
  readonly positions: Positions;
  readonly removed: Set<number>;
  readonly check: (record: SourceRecord) => CheckedRecord;
}

function applyPatch(
  change: Control | LateChange,
  patch: Patch,
  contract: Contract,
  { checked, positions, removed, check }: PatchedRecords,
): Result<Contract, CompileError> {
  const positionOfLive = (id: string) => {
    const position = positions.get(id);
    return position === undefined || removed.has(position) ? undefined : position;
  };
  switch (patch.op) {
    case 'mergeContract': {
      const patched = mergePatch(contract, patch.patch);
      const parsed = contractSchema.safeParse(patched);
      if (!parsed.success) {
        const { path, problem } = firstIssue(contractSchema, parsed.error, patched);
        return err(patchError(change, wordMessage('PATCHED_CONTRACT_INVALID', { path, problem })));
      }
      return ok(parsed.data);
    }
    case 'mergeRecord': {
      const position = positionOfLive(patch.id);
      const current = position === undefined ? undefined : checked[position];
      if (position === undefined || current === undefined)
        return err(patchError(change, wordMessage('PATCH_RECORD_MISSING', { record: patch.id }), 'DANGLING_REFERENCE'));
      const patched = mergePatch(current.record, patch.patch);
      const parsed = recordSchema.safeParse(patched);
      if (!parsed.success) {
        const { path, problem } = firstIssue(recordSchema, parsed.error, patched);
        return err(patchError(change, wordMessage('PATCHED_RECORD_INVALID', { record: patch.id, path, problem })));
      }
      if (parsed.data.id !== patch.id)
        return err(patchError(change, wordMessage('PATCH_RENAMES', { record: patch.id })));
      checked[position] = check(parsed.data);
      positions.set(patch.id, position);
      return ok(contract);
    }
    case 'addRecord': {
      if (positionOfLive(patch.record.id) !== undefined)
        return err(patchError(change, wordMessage('ADD_RECORD_EXISTS', { record: patch.record.id }), 'DUPLICATE_ID'));
      positions.set(patch.record.id, checked.length);
      checked.push(check(patch.record));
      return ok(contract);
    }
    case 'removeRecord': {
      const position = positionOfLive(patch.id);
      if (position === undefined)
        return err(
          patchError(change, wordMessage('REMOVE_RECORD_MISSING', { record: patch.id }), 'DANGLING_REFERENCE'),
        );
      removed.add(position);
      return ok(contract);
    }
  }
}

/**
 * Picks changes by id, in the scenario's own order (so toggling order never changes a receipt),
 * refusing unknown ids instead of ignoring them.
 */
export function pickChanges<T extends { id: string }>(
  available: readonly T[],
  ids: readonly string[],
  kind: string,
): Result<T[], CompileError> {
  const known = new Set(available.map((change) => change.id));
  const unknown = ids.find((id) => !known.has(id));
  if (unknown !== undefined) {
    return err(
      compileError({ pass: 'controls', code: 'UNKNOWN_CONTROL' }, 'SWITCH_UNKNOWN', {
        kind,
        id: unknown,
        known: [...known],
      }),
    );
  }
  const wanted = new Set(ids);
  return ok(available.filter((change) => wanted.has(change.id)));
}
