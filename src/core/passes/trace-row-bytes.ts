import { canonicalJson } from '../canonical';
import { ARG_ORDER, quotedName, sameFactArgs } from '../reasons';
import type { TraceRow } from '../result';

// A trace row's canonical JSON (RFC 8785, the bytes `canonicalJson` writes), written by hand for speed, and
// in parts that attest keeps between compilations.

const ROW_KEYS = ['args', 'code', 'decision', 'fact', 'fingerprint', 'gates', 'id', 'required', 'tokens'];

/**
 * A row of exactly the trace row's keys and types; anything else (a receipt read from a file, say) takes the generic
 * path.
 */
function isPlainTraceRow(row: TraceRow): boolean {
  let keys = 0;
  for (const key in row) if (Object.hasOwn(row, key)) keys += 1;
  return (
    keys === ROW_KEYS.length &&
    typeof row.code === 'string' &&
    typeof row.decision === 'string' &&
    typeof row.fact === 'string' &&
    typeof row.fingerprint === 'string' &&
    typeof row.id === 'string' &&
    Array.isArray(row.gates) &&
    typeof row.required === 'boolean' &&
    typeof row.tokens === 'number' &&
    Number.isFinite(row.tokens)
  );
}

/** `canonicalJson(args)` for arguments shaped as the catalogue declares them; anything else takes the generic path. */
function canonicalArgs(fact: string, args: TraceRow['args']): string {
  const names = ARG_ORDER.get(fact);
  let count = 0;
  for (const name in args) if (Object.hasOwn(args, name)) count += 1;
  if (names === undefined || names.length !== count) return canonicalJson(args);
  let text = '{';
  for (const [index, name] of names.entries()) {
    const prefix = `${index > 0 ? ',' : ''}${quotedName(name)}:`;
    const value = args[name];
    if (value === undefined) return canonicalJson(args);
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return canonicalJson(args);
      text += prefix + String(value);
    } else text += prefix + JSON.stringify(value);
  }
  return `${text}}`;
}

/** The JSON of a list of names, or null when an item is not a string (the generic path writes that). */
function nameList(names: readonly unknown[]): string | null {
  let text = '[';
  for (let index = 0; index < names.length; index += 1) {
    const name = names[index];
    if (typeof name !== 'string') return null;
    text += (index > 0 ? ',' : '') + quotedName(name);
  }
  return `${text}]`;
}

/**
 * A row's canonical bytes but for its arguments: what stays when a toggle changes the budget a planned
 * row's fact quotes (the tokens used, the remaining budget), so a row is joined again around new
 * arguments instead of written again.
 */
export interface RowParts {
  readonly id: string;
  readonly fingerprint: string;
  readonly code: string;
  readonly decision: string;
  readonly fact: string;
  readonly gates: readonly string[];
  readonly tokens: number;
  readonly required: boolean;
  /** From `"code"` to the end. */
  readonly tail: string;
}

/** The parts of a plain row (`isPlainTraceRow`), or null when the generic path must write it. */
export function partsOf(row: TraceRow): RowParts | null {
  const gates = isPlainTraceRow(row) ? nameList(row.gates) : null;
  if (gates === null) return null;
  const { id, fingerprint, code, decision, fact, tokens, required } = row;
  const tail = `,"code":${quotedName(code)},"decision":${quotedName(decision)},"fact":${quotedName(fact)},"fingerprint":${JSON.stringify(fingerprint)},"gates":${gates},"id":${JSON.stringify(id)},"required":${String(required)},"tokens":${String(tokens)}}`;
  return { id, fingerprint, code, decision, fact, gates: row.gates, tokens, required, tail };
}

/** Whether `parts` were cut from a row equal to this one but for its arguments. */
export function partsFit(parts: RowParts, row: TraceRow): boolean {
  return (
    parts.id === row.id &&
    parts.fingerprint === row.fingerprint &&
    parts.code === row.code &&
    parts.decision === row.decision &&
    parts.fact === row.fact &&
    parts.tokens === row.tokens &&
    parts.required === row.required &&
    (parts.gates === row.gates ||
      (Array.isArray(row.gates) &&
        parts.gates.length === row.gates.length &&
        parts.gates.every((gate, index) => gate === row.gates[index]))) &&
    isPlainTraceRow(row)
  );
}

export const joinRow = (row: TraceRow, parts: RowParts) => `{"args":${canonicalArgs(row.fact, row.args)}${parts.tail}`;

/** Exactly the bytes `canonicalJson(row)` writes, without sorting the keys of 100,000 rows one by one. */
export function canonicalTraceRow(row: TraceRow): string {
  const parts = partsOf(row);
  return parts === null ? canonicalJson(row) : joinRow(row, parts);
}

/** Equal rows, so a row built again can stand in for last compilation's object (and its hashed chunk). */
export function sameRow(a: TraceRow, b: TraceRow): boolean {
  return (
    a.id === b.id &&
    a.fingerprint === b.fingerprint &&
    a.decision === b.decision &&
    a.code === b.code &&
    a.fact === b.fact &&
    sameList(a.gates, b.gates) &&
    a.tokens === b.tokens &&
    a.required === b.required &&
    sameFactArgs(a.args, b.args)
  );
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a === b || (a.length === b.length && a.every((value, index) => value === b[index]));
}
