/** Where each of a text's tokens falls: term -> 0-based token positions, in order. */
export type TermPositions = ReadonlyMap<string, readonly number[]>;

export interface RecordTokens {
  readonly title: TermPositions;
  readonly text: TermPositions;
  readonly titleTokens: number;
  readonly textTokens: number;
}

/**
 * Tokenises texts as SQLite FTS5's tokenizer does (the one the built-in path ranks with; unicode61.ts):
 * PostgreSQL's text search parses differently (docs/ADAPTERS.md), so the PostgreSQL adapter stores these
 * tokens and ranks over them, and both adapters see the same words.
 */
export interface Tokeniser {
  /** Tokens of each (title, text) pair, in order. */
  records(texts: readonly (readonly [string, string])[]): RecordTokens[];
  /** The tokens of one query term: one for nearly every term, more when FTS5 splits it (then it is a phrase). */
  phrase(term: string): string[];
}
