import { ok, type CompileError, type Result } from '../../core/errors';
import type { CheckedRecord } from '../../core/phases/1-validate/validate';
import { byScoreThenId, roundScore } from '../../core/phases/5-rank/ranking';
import type { ReasonCode } from '../../core/reasons';
import { admittedStatistics } from './bm25-sql';
import { viewsOf, type AdmittedRows } from './gate-views';
import { leafBytes, utf16Order } from './order-key';

/**
 * What one statement answers, on one server or through a coordinator: the counts and digests, and the admitted rows.
 */
export interface AnswerWithRows {
  readonly counted: {
    readonly predicateDigest: string;
    readonly admitted: number;
    readonly statistics: ReturnType<typeof admittedStatistics>;
    readonly refusedByReason: Readonly<Partial<Record<ReasonCode, number>>>;
    readonly admittedDigest: string;
  };
  readonly admitted: AdmittedRows;
}

/**
 * The admitted set's digest over a relation `admitted` (id, fingerprint, ends_chunk): each chunk of the record-set
 * tree (tree-digest.ts) hashed over its leaves in the core's id order, with SHA-256 over the bytes `recordSetDigest`
 * hashes.
 */
export const ADMITTED_DIGEST_CTES = [
  `ordered AS (SELECT id, fingerprint, coalesce(sum(ends_chunk::integer) OVER (ORDER BY ` +
    `${utf16Order('id')} ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS chunk, ` +
    `${utf16Order('id')} AS key FROM admitted)`,
  `chunks AS (SELECT chunk, sha256(string_agg(${leafBytes('id', 'fingerprint')}, ''::bytea ORDER BY ` +
    `key)) AS digest FROM ordered GROUP BY chunk)`,
];

/** What every row of an answer echoes: the plan's digest (`$1`) and the admitted count, from `stats` (n, tokens). */
const ECHO_COLUMNS = '$1::text AS digest, (SELECT n FROM stats)::bigint AS total';

/**
 * The counts and digests of an answer, from the common table expressions `stats` (n, tokens), `df` (phrase, matched),
 * `refused` (code, n) and `chunks` (`ADMITTED_DIGEST_CTES`).
 */
const COUNTED_COLUMNS = `(SELECT n FROM stats) AS set_documents, (SELECT tokens FROM stats) AS set_tokens,
  (SELECT json_object_agg(phrase, matched) FROM df) AS matched, (SELECT json_object_agg(code, n) FROM refused) AS refused,
  encode(sha256(coalesce((SELECT string_agg(convert_to(encode(digest, 'hex') || E'\\n', 'UTF8'), ''::bytea ORDER BY chunk) FROM chunks), ''::bytea)), 'hex') AS admitted_digest`;

/** The summary of an answer in one row. */
export const SUMMARY_COLUMNS = `${ECHO_COLUMNS}, ${COUNTED_COLUMNS}`;

/**
 * The summary and every admitted row of `viewed` in one result: the counts and digests in one row only (the first
 * admitted, or the summary alone with null columns when none is admitted), the digest and admitted count in every row.
 * Repeating the counts in each row sent them, and had them parsed, once per admitted record.
 */
export const withRows = (ctes: readonly string[]) => `WITH ${ctes.join(',\n')},
summary AS (SELECT ${COUNTED_COLUMNS})
SELECT ${ECHO_COLUMNS}, s.*, v.* FROM (SELECT 1) one LEFT JOIN (SELECT *, row_number() OVER () AS place FROM viewed) v ON true
  LEFT JOIN summary s ON v.place IS NULL OR v.place = 1`;

export interface SummaryRow {
  readonly digest: string;
  readonly total: string;
  /** Named apart from the gate view's columns, which follow them in each row (its `tokens` is the record's own). */
  readonly set_documents: number;
  readonly set_tokens: number;
  readonly matched: Record<string, number> | null;
  readonly refused: Record<string, number> | null;
  readonly admitted_digest: string;
}

/** A row of `withRows`: the counts and digests are null but in the one row that carries them. */
export type AnswerRow = Pick<SummaryRow, 'digest' | 'total'> & {
  readonly [Counted in Exclude<keyof SummaryRow, 'digest' | 'total'>]: SummaryRow[Counted] | null;
} & {
  readonly id: string | null;
  readonly length: number;
  readonly phrases: number[];
  readonly score: number | null;
};

/** The refused counts of a summary, by code in code order. */
export const refusedCounts = (refused: Record<string, number> | null) =>
  Object.fromEntries(Object.entries(refused ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The counts and digests of an answer's summary row (all empty when there is none). */
export function countedOf(
  digest: string,
  total: number,
  summary: Pick<AnswerRow, 'set_documents' | 'set_tokens' | 'matched' | 'refused' | 'admitted_digest'> | undefined,
  terms: readonly string[],
): AnswerWithRows['counted'] {
  return {
    predicateDigest: digest,
    admitted: total,
    statistics: admittedStatistics(terms, {
      documents: summary?.set_documents ?? 0,
      tokens: summary?.set_tokens ?? 0,
      matched: summary?.matched ?? null,
    }),
    refusedByReason: refusedCounts(summary?.refused ?? null),
    admittedDigest: summary?.admitted_digest ?? '',
  };
}

/**
 * The statement's rows as the counts and the admitted rows, each row echoing the summary: an answer cut short is known
 * to be.
 */
export function answerOf(
  rows: readonly AnswerRow[],
  digest: string,
  terms: readonly string[],
): Result<AnswerWithRows, CompileError> {
  const first = rows[0];
  const summary = rows.find((row) => row.admitted_digest !== null);
  const total = Number(first?.total ?? -1);
  const present = rows.filter((row) => row.id !== null);
  const counted = countedOf(first?.digest ?? '', total, summary, terms);
  if (
    first === undefined ||
    summary === undefined ||
    rows.some((row) => row.digest !== digest || Number(row.total) !== total)
  )
    return ok({
      counted,
      admitted: { complete: false, problem: 'the rows of one answer disagree on the plan or the count' },
    });
  if (present.length !== total)
    return ok({
      counted,
      admitted: {
        complete: false,
        problem: `${present.length} of the ${total} admitted records arrived (a partial result)`,
      },
    });
  const views = viewsOf(present);
  if (!views.ok) return views;
  const viewed = views.value;
  return ok({
    counted,
    admitted: {
      complete: true,
      rows: present.map((row, index) => ({
        view: viewed[index] as CheckedRecord,
        length: Number(row.length),
        phrases: row.phrases.map(Number),
      })),
      ranked: present
        .flatMap((row, index) =>
          row.score === null ? [] : [{ id: (viewed[index] as CheckedRecord).record.id, score: roundScore(row.score) }],
        )
        .sort(byScoreThenId),
    },
  });
}
