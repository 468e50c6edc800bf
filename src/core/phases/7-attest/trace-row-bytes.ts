import { canonicalJson } from '../../canonical';
import { ARG_ORDER, quotedName } from '../../reasons';
import type { TraceRow } from '../../result';

// A trace row's canonical JSON (RFC 8785, the bytes `canonicalJson` writes), written by hand for speed.

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

/** The JSON of a plain row (`isPlainTraceRow`), or null when the generic path must write it. */
function plainRowJson(row: TraceRow): string | null {
  const gates = isPlainTraceRow(row) ? nameList(row.gates) : null;
  if (gates === null) return null;
  const { id, fingerprint, code, decision, fact, tokens, required } = row;
  return `{"args":${canonicalArgs(fact, row.args)},"code":${quotedName(code)},"decision":${quotedName(decision)},"fact":${quotedName(fact)},"fingerprint":${JSON.stringify(fingerprint)},"gates":${gates},"id":${JSON.stringify(id)},"required":${String(required)},"tokens":${String(tokens)}}`;
}

/** Exactly the bytes `canonicalJson(row)` writes, without sorting the keys of 100,000 rows one by one. */
export function canonicalTraceRow(row: TraceRow): string {
  return plainRowJson(row) ?? canonicalJson(row);
}
