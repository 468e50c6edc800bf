import type { CaseVariant } from '../core/expectations/suite';

/** A glob as people write one on a command line: `*` any run of characters, `?` one; matched whole, ignoring case. */
export function globPattern(glob: string): RegExp {
  const body = [...glob]
    .map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`, 'iu');
}

/**
 * Which field of a case run a filter looks at: its suite or case name (the default), a control it switches on, or a
 * record it expects something of.
 */
const FIELDS = ['suite', 'case', 'control', 'record'] as const;
type Field = (typeof FIELDS)[number];

export interface CaseFilterSpec {
  readonly field: Field | null;
  readonly pattern: RegExp;
}

const isField = (text: string): text is Field => (FIELDS as readonly string[]).includes(text);

/**
 * `retry*`, `case:*superseded*`, `control:remove-*`, `record:ADR-02??`; text without a wildcard matches as part of the
 * value.
 */
export function parseCaseFilter(text: string): CaseFilterSpec {
  const colon = text.indexOf(':');
  const prefix = colon > 0 ? text.slice(0, colon) : '';
  const field = isField(prefix) ? prefix : null;
  const glob = field === null ? text : text.slice(colon + 1);
  return { field, pattern: globPattern(/[*?]/.test(glob) ? glob : `*${glob}*`) };
}

/** True when any filter matches the run (no filter: every run). */
export function matchesAnyFilter(
  filters: readonly CaseFilterSpec[],
  suite: string,
  variant: CaseVariant,
  name: string,
): boolean {
  if (filters.length === 0) return true;
  const records = Object.keys(variant.entry.expect.records ?? {});
  return filters.some(({ field, pattern }) => {
    switch (field) {
      case 'suite':
        return pattern.test(suite);
      case 'case':
        return pattern.test(name) || pattern.test(variant.entry.name);
      case 'control':
        return variant.selection.controls.some((id) => pattern.test(id));
      case 'record':
        return records.some((id) => pattern.test(id));
      default:
        return pattern.test(suite) || pattern.test(name);
    }
  });
}
