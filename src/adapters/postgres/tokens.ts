import type { SqlDriver } from '../sqlite/driver';
import { TOKENIZER } from '../sqlite/record-index';

/** Where each of a text's tokens falls: term -> 0-based token positions, in order. */
export type TermPositions = ReadonlyMap<string, readonly number[]>;

export interface RecordTokens {
  readonly title: TermPositions;
  readonly text: TermPositions;
  readonly titleTokens: number;
  readonly textTokens: number;
}

/**
 * Tokenises texts with SQLite FTS5's own tokenizer (the one the built-in path ranks with), read back
 * through fts5vocab: PostgreSQL's text search parses differently (docs/ADAPTERS.md), so the PostgreSQL
 * adapter stores these tokens and ranks over them, and both adapters see the same words.
 */
export interface Tokeniser {
  /** Tokens of each (title, text) pair, in order. */
  records(texts: readonly (readonly [string, string])[]): RecordTokens[];
  /** The tokens of one query term: one for nearly every term, more when FTS5 splits it (then it is a phrase). */
  phrase(term: string): string[];
}

const BATCH = 256;

export function createTokeniser(driver: SqlDriver): Tokeniser {
  driver.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.tokenised USING fts5(title, text, ${TOKENIZER});
CREATE VIRTUAL TABLE IF NOT EXISTS temp.tokenised_instances USING fts5vocab(temp, tokenised, 'instance');`);
  const insert = driver.prepare('INSERT INTO temp.tokenised (rowid, title, text) VALUES (?, ?, ?)');

  const batch = (texts: readonly (readonly [string, string])[]): RecordTokens[] => {
    const found = texts.map(() => ({
      title: new Map<string, number[]>(),
      text: new Map<string, number[]>(),
      titleTokens: 0,
      textTokens: 0,
    }));
    driver.transaction(() => {
      texts.forEach(([title, text], index) => insert.run([index + 1, title, text]));
      // fts5vocab lists instances by term, then document, column and offset: each term's positions come in order
      // (sorting them by document first was the largest cost of a batch).
      const [row] = driver.all(
        "SELECT json_group_array(json_array(doc, col = 'title', term, offset)) FROM temp.tokenised_instances",
      );
      for (const [doc, inTitle, term, offset] of JSON.parse(String(row?.[0] ?? '[]')) as [
        number,
        number,
        string,
        number,
      ][]) {
        const tokens = found[doc - 1];
        if (tokens === undefined) continue;
        const positions = inTitle === 1 ? tokens.title : tokens.text;
        const list = positions.get(term);
        if (list === undefined) positions.set(term, [offset]);
        else list.push(offset);
        if (inTitle === 1) tokens.titleTokens += 1;
        else tokens.textTokens += 1;
      }
      driver.exec('DELETE FROM temp.tokenised');
    });
    return found;
  };

  return {
    records(texts) {
      const out: RecordTokens[] = [];
      for (let start = 0; start < texts.length; start += BATCH)
        for (const tokens of batch(texts.slice(start, start + BATCH))) out.push(tokens);
      return out;
    },
    phrase(term) {
      const [tokens] = batch([['', term]]);
      const ordered: [number, string][] = [];
      for (const [word, positions] of tokens?.text ?? [])
        for (const position of positions) ordered.push([position, word]);
      return ordered.sort((a, b) => a[0] - b[0]).map(([, word]) => word);
    },
  };
}
