/** Receipt ids and fingerprints are 64 hex digits; the first 12 identify one in conversation. */
export function shortHash(hash: string): string {
  return hash.slice(0, 12);
}

const SUPERSCRIPT: Record<string, string> = {
  '-': '⁻',
  '0': '⁰',
  '1': '¹',
  '2': '²',
  '3': '³',
  '4': '⁴',
  '5': '⁵',
  '6': '⁶',
  '7': '⁷',
  '8': '⁸',
  '9': '⁹',
};

/**
 * A relevance score to three significant digits. bm25 over a few short records gives scores like
 * 0.0000012, which three decimals would print as 0.000: small ones are written 1.23 × 10⁻⁶.
 */
export function formatScore(score: number | null): string {
  if (score === null) return '—';
  if (score === 0 || !Number.isFinite(score)) return String(score);
  if (Math.abs(score) >= 0.01 && Math.abs(score) < 1e6) return String(Number(score.toPrecision(3)));
  const [mantissa = '', exponent = '0'] = score.toExponential(2).split('e');
  return `${mantissa} × 10${[...String(Number(exponent))].map((char) => SUPERSCRIPT[char] ?? char).join('')}`;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/**
 * A count with a comma every three digits, as en-GB writes it. Not `toLocaleString`: its first call loads
 * ICU's locale data, which blocked the page in the middle of a load (docs/DECISIONS.md).
 */
export function formatCount(count: number): string {
  if (!Number.isInteger(count)) return String(count);
  return `${count < 0 ? '-' : ''}${String(Math.abs(count)).replace(/\B(?=(\d{3})+$)/g, ',')}`;
}

/**
 * A record's title without a leading copy of its id ("ADR-0234: Bounded…" beside the id ADR-0234): the id is
 * shown next to every title already, so the repeat only costs a line of a narrow column.
 */
export function titleBesideId(id: string, title: string): string {
  if (!title.startsWith(id)) return title;
  const rest = title.slice(id.length).replace(/^\s*[:—–-]\s*/, '');
  return rest === title.slice(id.length) || rest === '' ? title : rest;
}
