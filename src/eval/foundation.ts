import { contentHashOf, type Sha256 } from '../core/fingerprints';
import { z } from 'zod';
import { createSqliteCompiler } from '../adapters/sqlite/compiler';
import { compileError, err, ok, type CompileError, type InputIssue, type Result } from '../core/errors';
import { inputIssue } from '../core/issues';
import type { SourceRecord } from '../core/format/record';
import { createRecordSet } from '../core/phases/1-validate/validate';
import type { SqlDriver } from '../adapters/sqlite/driver';
import { rankCorpus } from '../adapters/sqlite/fts5-rank';

const nameSchema = z.string().min(1).max(200);

export const foundationItemSchema = z.strictObject({
  id: z.string().regex(/^\S+$/, 'an id without whitespace'),
  project: nameSchema,
  /**
   * Optional on purpose: real inferred metadata has gaps, and the experiment shows what a gap does to a hard filter.
   */
  entity: nameSchema.optional(),
  kind: nameSchema,
  title: z.string().min(1),
  text: z.string().min(1),
});

export const foundationQuerySchema = z.strictObject({
  id: nameSchema,
  text: z.string().min(1),
  project: nameSchema,
  entity: nameSchema,
  kind: nameSchema,
  relevant: z.array(nameSchema).min(1),
});

export type FoundationItem = z.output<typeof foundationItemSchema>;
export type FoundationQuery = z.output<typeof foundationQuerySchema>;

export interface FoundationCorpus {
  readonly items: readonly FoundationItem[];
  readonly queries: readonly FoundationQuery[];
}

function parseJsonl<T>(file: string, text: string, schema: z.ZodType<T>, issues: InputIssue[]): T[] {
  const values: T[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      issues.push(
        inputIssue({ file, line: index + 1, path: '(root)' }, 'NOT_JSON', {
          problem: error instanceof Error ? error.message : String(error),
          near: null,
        }),
      );
      return;
    }
    const parsed = schema.safeParse(json);
    if (parsed.success) values.push(parsed.data);
    else
      for (const issue of parsed.error.issues)
        issues.push(
          inputIssue({ file, line: index + 1, path: issue.path.join('.') || '(root)' }, 'FORMAT_RULE', {
            problem: issue.message,
          }),
        );
  });
  return values;
}

/** Reads the foundation's two JSONL files; every relevant id a query names must exist. */
export function parseFoundationCorpus(
  itemsFile: string,
  itemsText: string,
  queriesFile: string,
  queriesText: string,
): Result<FoundationCorpus, CompileError> {
  const issues: InputIssue[] = [];
  const items = parseJsonl(itemsFile, itemsText, foundationItemSchema, issues);
  const queries = parseJsonl(queriesFile, queriesText, foundationQuerySchema, issues);
  const ids = new Set<string>();
  for (const item of items) {
    if (ids.has(item.id))
      issues.push(
        inputIssue({ file: itemsFile, path: 'id' }, 'DUPLICATE_ID', { id: JSON.stringify(item.id), first: null }),
      );
    ids.add(item.id);
  }
  for (const query of queries) {
    for (const id of query.relevant)
      if (!ids.has(id))
        issues.push(inputIssue({ file: queriesFile, path: `${query.id}.relevant` }, 'RELEVANT_NOT_A_RECORD', { id }));
  }
  if (issues.length > 0)
    return err(
      compileError({ pass: 'validate', code: 'INVALID_INPUT', issues }, 'FOUNDATION_PROBLEMS', {
        count: issues.length,
      }),
    );
  return ok({ items, queries });
}

export const FOUNDATION_MODES = ['content', 'broad', 'discriminative', 'discriminative-lenient'] as const;
export type FoundationMode = (typeof FOUNDATION_MODES)[number];

export const FOUNDATION_MODE_LABELS: Readonly<Record<FoundationMode, string>> = {
  content: 'content only',
  broad: 'broad metadata',
  discriminative: 'discriminative metadata',
  'discriminative-lenient': 'discriminative, missing = unknown',
};

/** Which records a mode lets the ranker see; content-only sees everything. */
function passesFilter(mode: FoundationMode, item: FoundationItem, query: FoundationQuery): boolean {
  if (mode === 'content') return true;
  if (item.project !== query.project) return false;
  if (mode === 'broad') return true;
  if (item.kind !== query.kind) return false;
  // The lenient variant keeps a record whose entity is unknown instead of treating the gap as a mismatch.
  if (item.entity === undefined) return mode === 'discriminative-lenient';
  return item.entity === query.entity;
}

export interface FoundationQueryResult {
  readonly query: string;
  readonly ranked: readonly string[];
  readonly candidates: number;
  readonly filteredOut: readonly string[];
}

export interface FoundationModeMetrics {
  readonly mode: FoundationMode;
  readonly label: string;
  readonly hitAt1: number;
  readonly recallAt3: number;
  readonly mrr: number;
  readonly averageCandidates: number;
  /** Relevant records the metadata filter removed before ranking, summed over queries. */
  readonly filterFalseNegatives: number;
  readonly queries: readonly FoundationQueryResult[];
}

export interface FoundationReport {
  readonly records: number;
  readonly queries: number;
  readonly modes: readonly FoundationModeMetrics[];
}

/**
 * The foundation items as records, only so they go through the same index and the same FTS5 ranking as the compiler.
 */
function itemToRecord(sha256: Sha256, item: FoundationItem): SourceRecord {
  return {
    id: item.id,
    title: item.title,
    text: item.text,
    tokens: 0,
    project: item.project,
    scope: item.kind,
    subject: item.entity ?? null,
    knownAt: '2026-01-01',
    validFrom: '2026-01-01',
    validTo: null,
    lifecycle: 'active',
    supersedes: [],
    sourceClass: 'document',
    authorityClass: 'document',
    reviewState: 'approved',
    provenance: { origin: `foundation/${item.id}`, contentHash: contentHashOf(sha256, item.text) },
    sensitivity: 'internal',
    access: { roles: ['reader'], purposes: ['evaluation'], labels: [] },
    evidence: null,
    relevance: null,
  };
}

const mean = (values: readonly number[]) =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * Ranks each query with bm25 over the whole index once, then lets each mode's metadata filter decide
 * which of those matches the ranker may return. `driver` must be a database no compiler indexes into.
 */
export function runFoundation(
  sha256: Sha256,
  driver: SqlDriver,
  corpus: FoundationCorpus,
  onProgress?: (done: number, total: number) => void,
): FoundationReport {
  const byId = new Map(corpus.items.map((item) => [item.id, item]));
  createSqliteCompiler(sha256, driver).indexCorpus(
    createRecordSet(
      sha256,
      corpus.items.map((item) => itemToRecord(sha256, item)),
    ),
  );
  const total = corpus.queries.length;
  const rankings = corpus.queries.map((query, index) => {
    const ranked = rankCorpus(driver, query.text, 'bm25', corpus.items.length).map((row) => row.id);
    onProgress?.(index + 1, total);
    return ranked;
  });

  const modes = FOUNDATION_MODES.map((mode): FoundationModeMetrics => {
    const queries = corpus.queries.map((query, index): FoundationQueryResult => {
      const ranked = (rankings[index] ?? []).filter((id) => {
        const item = byId.get(id);
        return item !== undefined && passesFilter(mode, item, query);
      });
      const filteredOut = query.relevant.filter((id) => {
        const item = byId.get(id);
        return item !== undefined && !passesFilter(mode, item, query);
      });
      return { query: query.id, ranked, candidates: ranked.length, filteredOut };
    });
    const perQuery = corpus.queries.map((query, index) => {
      const ranked = queries[index]?.ranked ?? [];
      const relevant = new Set(query.relevant);
      const firstHit = ranked.findIndex((id) => relevant.has(id));
      return {
        hit: firstHit === 0 ? 1 : 0,
        recall: ranked.slice(0, 3).filter((id) => relevant.has(id)).length / relevant.size,
        reciprocal: firstHit === -1 ? 0 : 1 / (firstHit + 1),
      };
    });
    return {
      mode,
      label: FOUNDATION_MODE_LABELS[mode],
      hitAt1: mean(perQuery.map((q) => q.hit)),
      recallAt3: mean(perQuery.map((q) => q.recall)),
      mrr: mean(perQuery.map((q) => q.reciprocal)),
      averageCandidates: mean(queries.map((q) => q.candidates)),
      filterFalseNegatives: queries.reduce((sum, q) => sum + q.filteredOut.length, 0),
      queries,
    };
  });
  return { records: corpus.items.length, queries: corpus.queries.length, modes };
}
