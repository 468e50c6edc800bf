import { err, ok, type CompileError, type Result } from '../../core/errors';
import type { CheckedRecord } from '../../core/phases/1-validate/validate';
import type { AdmittedRow } from '../../core/answered-admission';
import { byScoreThenId, roundScore, type RankedRow } from '../../core/phases/5-rank/ranking';
import type { ReasonCode } from '../../core/reasons';
import { admittedStatistics } from './bm25-sql';
import { viewsOf, type AdmittedRows } from './gate-views';
import { leafBytes, utf16Order } from './order-key';
import type { Queryable } from './schema';

/**
 * What one statement answers, on one server or through a coordinator: the counts and digests, and the admitted rows.
 */
export interface AnswerWithRows {
  readonly counted: {
    readonly predicateDigest: string;
    readonly admitted: number;
    readonly statistics: ReturnType<typeof admittedStatistics>;
    readonly refusedByReason: Readonly<Partial<Record<ReasonCode, number>>>;
    readonly withheld: number;
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

/** What a verdict's code ends with when the record also fails an authorisation or deny clause (answer.ts). */
export const WITHHELD_MARK = '+withheld';

/** The code of a verdict refusing for `reason`, marked when the record is withheld from the user view too. */
export const verdictCode = (reason: string, withheld: boolean) => (withheld ? `${reason}${WITHHELD_MARK}` : reason);

/** A verdict's code as its reason code and whether the record is withheld from the user view (`verdictCode` undone). */
export function splitVerdictCode(code: string): { readonly reason: string; readonly withheld: boolean } {
  const withheld = code.endsWith(WITHHELD_MARK);
  return { reason: withheld ? code.slice(0, -WITHHELD_MARK.length) : code, withheld };
}

export interface RefusalCounts {
  readonly refusedByReason: Readonly<Partial<Record<ReasonCode, number>>>;
  /** How many refused records the user view withholds (they fail an authorisation or deny gate). */
  readonly withheld: number;
}

/** The refused counts of a summary (by verdict code), by reason code in code order, and the withheld ones' number. */
export function refusalCounts(refused: Readonly<Record<string, number>> | null): RefusalCounts {
  const byReason: Record<string, number> = {};
  let withheld = 0;
  for (const [code, count] of Object.entries(refused ?? {})) {
    const split = splitVerdictCode(code);
    byReason[split.reason] = (byReason[split.reason] ?? 0) + count;
    if (split.withheld) withheld += count;
  }
  return {
    refusedByReason: Object.fromEntries(Object.entries(byReason).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    withheld,
  };
}

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
    ...refusalCounts(summary?.refused ?? null),
    admittedDigest: summary?.admitted_digest ?? '',
  };
}

/** The rows an answer hands over per page: each page's admitted rows become gate views before the next arrives. */
export const ANSWER_PAGE = 2_000;

/**
 * Reads the rows of one answer a page at a time: each page's admitted rows become gate views as they arrive, so the
 * rows as the driver parsed them never all sit in memory. `finish` gives the counts and the admitted rows, or why they
 * are not all there: an answer cut short is known to be, as each row echoes the plan's digest and the admitted count.
 */
export function createAnswerReader(digest: string, terms: readonly string[]) {
  let first: AnswerRow | undefined;
  let summary: AnswerRow | undefined;
  let disagree = false;
  let unreadable: CompileError | null = null;
  const admitted: AdmittedRow[] = [];
  const ranked: RankedRow[] = [];
  return {
    take(page: readonly AnswerRow[]): void {
      for (const row of page) {
        first ??= row;
        if (row.digest !== digest || row.total !== first.total) disagree = true;
        if (summary === undefined && row.admitted_digest !== null) summary = row;
      }
      if (unreadable !== null) return;
      const present = page.filter((row) => row.id !== null);
      const views = viewsOf(present);
      if (!views.ok) {
        unreadable = views.error;
        return;
      }
      present.forEach((row, index) => {
        const view = views.value[index] as CheckedRecord;
        admitted.push({ view, length: Number(row.length), phrases: row.phrases.map(Number) });
        if (row.score !== null) ranked.push({ id: view.record.id, score: roundScore(row.score) });
      });
    },
    finish(): Result<AnswerWithRows, CompileError> {
      const total = Number(first?.total ?? -1);
      const counted = countedOf(first?.digest ?? '', total, summary, terms);
      if (first === undefined || summary === undefined || disagree)
        return ok({
          counted,
          admitted: { complete: false, problem: 'the rows of one answer disagree on the plan or the count' },
        });
      if (admitted.length !== total)
        return ok({
          counted,
          admitted: {
            complete: false,
            problem: `${admitted.length} of the ${total} admitted records arrived (a partial result)`,
          },
        });
      if (unreadable !== null) return err(unreadable);
      return ok({ counted, admitted: { complete: true, rows: admitted, ranked: ranked.sort(byScoreThenId) } });
    },
  };
}

/** Runs the statement of one answer (`withRows`) and reads its rows a page at a time (`createAnswerReader`). */
export async function readAnswer(
  client: Queryable,
  text: string,
  values: readonly unknown[],
  digest: string,
  terms: readonly string[],
): Promise<Result<AnswerWithRows, CompileError>> {
  const reader = createAnswerReader(digest, terms);
  await client.queryPages<AnswerRow>(text, values, ANSWER_PAGE, (page) => reader.take(page));
  return reader.finish();
}
