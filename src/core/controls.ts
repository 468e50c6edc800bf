import { contractSchema, type Contract } from './format/contract';
import { recordSchema, type SourceRecord } from './format/record';
import type { Control, LateChange, Patch } from './format/scenario';
import { err, formatPath, ok, type CompileError, type Result } from './errors';
import { createRecordSet, type RecordSet } from './passes/validate';

type Json = unknown;

/** RFC 7396 JSON Merge Patch: objects merge key by key, null removes, anything else replaces. */
export function mergePatch(target: Json, patch: Json): Json {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const base: Record<string, Json> = target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, Json>) } : {};
  for (const [key, value] of Object.entries(patch as Record<string, Json>)) {
    if (value === null) delete base[key];
    else base[key] = mergePatch(base[key], value);
  }
  return base;
}

function patchError(change: Control | LateChange, message: string, code: CompileError['code'] = 'INVALID_INPUT'): CompileError {
  return { pass: 'controls', code, message: `${change.id} ("${change.label}"): ${message}` };
}

export interface ChangedInputs {
  readonly contract: Contract;
  readonly recordSet: RecordSet;
}

/**
 * Applies controls or late changes in order. Untouched records keep their object identity, so the
 * index re-indexes only what a toggle changed. Every patched record and contract is re-validated.
 */
export function applyChanges(contract: Contract, recordSet: RecordSet, changes: readonly (Control | LateChange)[]): Result<ChangedInputs, CompileError> {
  if (changes.length === 0) return ok({ contract, recordSet });
  let currentContract = contract;
  const records = [...recordSet.records];
  const positionOf = new Map(records.map((record, index) => [record.id, index]));
  const removed = new Set<number>();

  for (const change of changes) {
    for (const patch of change.patches) {
      const applied = applyPatch(change, patch, currentContract, records, positionOf, removed);
      if (!applied.ok) return applied;
      currentContract = applied.value;
    }
  }
  const kept: SourceRecord[] = records.filter((_, index) => !removed.has(index));
  return ok({ contract: currentContract, recordSet: createRecordSet(kept, recordSet.locations) });
}

function applyPatch(
  change: Control | LateChange,
  patch: Patch,
  contract: Contract,
  records: SourceRecord[],
  positionOf: Map<string, number>,
  removed: Set<number>,
): Result<Contract, CompileError> {
  const positionOfLive = (id: string) => {
    const position = positionOf.get(id);
    return position === undefined || removed.has(position) ? undefined : position;
  };
  switch (patch.op) {
    case 'mergeContract': {
      const parsed = contractSchema.safeParse(mergePatch(contract, patch.patch));
      if (!parsed.success) return err(patchError(change, `the patched contract is invalid at ${formatPath(parsed.error.issues[0]?.path ?? [])}: ${parsed.error.issues[0]?.message ?? ''}`));
      return ok(parsed.data);
    }
    case 'mergeRecord': {
      const position = positionOfLive(patch.id);
      const current = position === undefined ? undefined : records[position];
      if (position === undefined || current === undefined) return err(patchError(change, `patches record ${patch.id}, which is not among the records`, 'DANGLING_REFERENCE'));
      const parsed = recordSchema.safeParse(mergePatch(current, patch.patch));
      if (!parsed.success) return err(patchError(change, `the patched record ${patch.id} is invalid at ${formatPath(parsed.error.issues[0]?.path ?? [])}: ${parsed.error.issues[0]?.message ?? ''}`));
      if (parsed.data.id !== patch.id) return err(patchError(change, `a patch may not rename record ${patch.id}`));
      records[position] = parsed.data;
      return ok(contract);
    }
    case 'addRecord': {
      if (positionOfLive(patch.record.id) !== undefined) return err(patchError(change, `adds record ${patch.record.id}, which already exists`, 'DUPLICATE_ID'));
      positionOf.set(patch.record.id, records.length);
      records.push(patch.record);
      return ok(contract);
    }
    case 'removeRecord': {
      const position = positionOfLive(patch.id);
      if (position === undefined) return err(patchError(change, `removes record ${patch.id}, which is not among the records`, 'DANGLING_REFERENCE'));
      removed.add(position);
      return ok(contract);
    }
  }
}

/**
 * Picks changes by id, in the scenario's own order (so toggling order never changes a receipt),
 * refusing unknown ids instead of ignoring them.
 */
export function pickChanges<T extends { id: string }>(available: readonly T[], ids: readonly string[], kind: string): Result<T[], CompileError> {
  const known = new Set(available.map((change) => change.id));
  const unknown = ids.find((id) => !known.has(id));
  if (unknown !== undefined) {
    return err({ pass: 'controls', code: 'UNKNOWN_CONTROL', message: `no ${kind} "${unknown}"; available: ${[...known].join(', ') || 'none'}` });
  }
  const wanted = new Set(ids);
  return ok(available.filter((change) => wanted.has(change.id)));
}
