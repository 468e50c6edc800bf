import { WITHHELD_MARK } from './answer-rows';
import { bind, type Lowering } from './lower';

/**
 * Bits of the sum each reason's count takes: a corpus holds fewer than 2^40 records, so no count carries into another.
 */
const COUNT_BITS = 40n;

/**
 * A verdict's codes (the literals its text holds, each maybe marked withheld; values are bound, never in its text), and
 * the verdict with each code as its number among them.
 */
export function numberedVerdict(verdict: string): { readonly codes: string[]; readonly numbered: string } {
  const literal = new RegExp(`'(EXCLUDE_[A-Z_]+(?:${WITHHELD_MARK.replace('+', '\\+')})?)'`, 'g');
  const codes = [...new Set([...verdict.matchAll(literal)].map((match) => match[1] as string))];
  const numbered = verdict
    .replace(literal, (_, code: string) => String(codes.indexOf(code)))
    .replaceAll('NULL::text', 'NULL::integer');
  return { codes, numbered };
}

/**
 * The common table expression `refused` (code, n): how many rows of `from` (the records `r` with their joins) each
 * reason code of `verdict` refuses, counted in one parallel scan. Grouping by the verdict ran in one process: the
 * planner reckons an expression of the id to have a group per record, so it never splits such a grouping over
 * workers. So each row adds 2^(40 × its code's number) instead, and the one sum, which workers add up apart and the
 * leader adds together, holds every count in 40 bits of its own; counting with a filter per code instead computed
 * the verdict once per code.
 */
export function refusedCountCtes(verdict: string, from: string, into: Lowering): string[] {
  const { codes, numbered } = numberedVerdict(verdict);
  const places = bind(
    into,
    codes.map((_, number) => String(1n << (COUNT_BITS * BigInt(number)))),
    'numeric[]',
  );
  const named = bind(into, codes, 'text[]');
  return [
    `refused_sum AS (SELECT coalesce(sum((${places})[v.reason + 1]), 0) AS total FROM (SELECT ${numbered} ` +
      `AS reason FROM ${from}) v)`,
    `refused AS (SELECT c.code, (div(s.total, (${places})[c.number::integer]) % ${String(1n << COUNT_BITS)}::numeric)::bigint AS n
      FROM refused_sum s CROSS JOIN unnest(${named}) WITH ORDINALITY AS c(code, number)
      WHERE div(s.total, (${places})[c.number::integer]) % ${String(1n << COUNT_BITS)}::numeric > 0)`,
  ];
}
