/** More terms than this add nothing to ranking and only slow the match. */
const MAX_TERMS = 64;

/**
 * Turns free text into an FTS5 query that can neither break nor widen the search: every term is a
 * quoted string of letters and digits, joined by OR. FTS5 syntax in the text (`"`, `NEAR(`, `*`, `AND`,
 * `-`, `col:`) is reduced to plain words. Returns null when the text has no searchable word.
 */
export function toSafeFtsQuery(text: string): string | null {
  const terms = safeFtsTerms(text);
  return terms.length === 0 ? null : terms.join(' OR ');
}

/** The query's terms, each a quoted FTS5 string of letters and digits, first occurrence first. */
export function safeFtsTerms(text: string): string[] {
  const terms: string[] = [];
  const seen = new Set<string>();
  for (const match of text
    .normalize('NFKC')
    .toLowerCase()
    .matchAll(/[\p{L}\p{N}]+/gu)) {
    const term = match[0];
    if (seen.has(term)) continue;
    seen.add(term);
    terms.push(`"${term}"`);
    if (terms.length === MAX_TERMS) break;
  }
  return terms;
}
